// Preloaded into the `wrangler dev` process by scripts/dev.mjs (`node --import`): puts a small
// HTTP relay between wrangler's ProxyWorker and the workerd that runs our Workers.
//
// Why (decision 030, `npm run load`): wrangler dev answers on the public port with its ProxyWorker,
// which forwards every request to the Workers' runtime (a second workerd) over pooled keep-alive
// connections. Both ends of that hop are kj HTTP with the same 5 s idle limit: the client pool
// drops a connection idle for 5 s (HttpClientSettings.idleTimeout) and the server closes it after
// 5 s (HttpServerSettings.pipelineTimeout). A request that reuses a connection idle for about
// 5 s is written while the server closes it; the server closes with the request unread, the
// kernel answers with a reset, and the ProxyWorker turns the failed fetch into
// "503 Your worker restarted mid-request" for anything but GET/HEAD (GETs are retried silently).
// No worker restarted. On a busy machine both event loops run late, and the window
// grows from milliseconds to the loops' lag: 2-4 POSTs of 50 visitors failed in 3 of 5 runs.
// wrangler 4.86 (the last that runs on Node 20) has no setting for either timeout.
//
// The relay keeps that hop free of the race on both sides:
// - towards the ProxyWorker it is the server, and keeps idle connections for 60 s, far longer
//   than the ProxyWorker's 5 s pool: the client always lets go of an idle connection first, so
//   it never writes a request into a connection being closed;
// - towards the Workers' runtime it opens a connection for each request (`Connection: close`),
//   so no request ever rides an idle connection there.
// What the ProxyWorker sees otherwise stays the same: the same answers, and a dropped
// connection when the runtime drops one (a reload), which it handles as before.
//
// How: wrangler reads the runtime's address from `await miniflare.ready` and sends it to the
// ProxyWorker; the `ready` getter of the Miniflare instance that is not the public one (the
// ProxyWorker's own instance listens on DEV_PUBLIC_PORT) answers the relay's address instead.
// If miniflare no longer looks as expected, nothing is changed and a warning says so.
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream";

/** Hop-by-hop headers: they describe one connection and are not forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);
/** Far longer than workerd's 5 s client pool, so the ProxyWorker always closes an idle connection first. */
const IDLE_KEEP_MS = 60_000;

/** wrangler's launcher; it starts wrangler-dist/cli.js with our Node flags (so with this preload). */
const WRANGLER_BIN = path.join(path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin", "wrangler.js");

/**
 * How to start `wrangler dev` on `port` with this relay in it: `npm run dev` (scripts/dev.mjs) and
 * the browser tests' server (test/e2e/global-setup.ts) both start it so. `args` are wrangler
 * dev's own (configs, vars, --persist-to); answers `{ command, args, env }` for spawn.
 */
export function wranglerDevWithRelay(port, args) {
  return {
    command: process.execPath,
    args: ["--import", import.meta.url, WRANGLER_BIN, "dev", "--port", String(port), ...args],
    env: { DEV_PUBLIC_PORT: String(port) },
  };
}

const publicPort = process.env.DEV_PUBLIC_PORT;
// The preload runs in wrangler's launcher too (bin/wrangler.js, which starts cli.js): act only in cli.js.
const cliPath = process.argv[1] ?? "";
if (publicPort && /wrangler-dist[\\/]cli\.js$/.test(cliPath)) install();

function install() {
  keepLoopbackConnectionsLonger();
  // The very module wrangler loads: resolved from wrangler's own location.
  const { Miniflare } = createRequire(cliPath)("miniflare");
  const ready = Miniflare && Object.getOwnPropertyDescriptor(Miniflare.prototype, "ready");
  if (typeof ready?.get !== "function") {
    console.warn("dev-relay: miniflare's Miniflare#ready not found; serving without the relay (POSTs may see 503s)");
    return;
  }
  let warnedOfLoopback = false;
  /** One relay per runtime address (a reload keeps the address, and so the relay). */
  const relays = new Map();
  Object.defineProperty(Miniflare.prototype, "ready", {
    ...ready,
    get() {
      return ready.get.call(this).then((url) => {
        if (loopbackServersSeen === 0 && !warnedOfLoopback) {
          warnedOfLoopback = true;
          console.warn("dev-relay: miniflare's loopback server not found; the local queues may stop under load");
        }
        if (url.port === publicPort) return url;
        if (!relays.has(url.origin)) relays.set(url.origin, startRelay(url).then((relay) => relay.url));
        return relays.get(url.origin);
      });
    },
  });
}

/**
 * The same race on a second hop: workerd's services call back into wrangler's Node process
 * through Miniflare's loopback server (`http.createServer(this.#handleLoopback)`), whose Node
 * default keeps an idle connection 5 s (`keepAliveTimeout`), as long as workerd's client pool
 * does. The local queue broker awaits such a call (`POST /core/log`, its "QUEUE sketch-jobs 1/1"
 * line) after every batch and only then clears its pending flush; when that call is written into
 * a connection Node is closing, it fails, the flush never clears, and the queue delivers nothing
 * more until wrangler restarts (`npm run load -- --visitors 500`: the sketch queue stopped for
 * good after 125 and after 238 batches, the other queues went on). Kept 60 s here, the client
 * always lets go of an idle connection first. Found by the listener's name; if Miniflare names it
 * otherwise, a warning says so (`ready` below).
 */
let loopbackServersSeen = 0;
/** Wraps `http.createServer` as above; answers a function that puts the original back (for test/scripts/dev-relay.test.ts). */
export function keepLoopbackConnectionsLonger() {
  const createServer = http.createServer;
  http.createServer = function createServerKeepingLoopbackLonger(...args) {
    const server = createServer.apply(this, args);
    if (args.some((arg) => typeof arg === "function" && arg.name === LOOPBACK_HANDLER)) {
      server.keepAliveTimeout = IDLE_KEEP_MS;
      loopbackServersSeen++;
    }
    return server;
  };
  return () => {
    http.createServer = createServer;
  };
}

/** The name of Miniflare's loopback request handler (a private field's arrow function, named after the field). */
export const LOOPBACK_HANDLER = "#handleLoopback";

/**
 * Listens on a free loopback port and forwards every request to `upstream` (a URL); answers
 * `{ url, server }` (exported for test/scripts/dev-relay.test.ts).
 */
export async function startRelay(upstream) {
  const server = http.createServer((request, response) => forward(upstream, request, response));
  server.keepAliveTimeout = IDLE_KEEP_MS;
  // workerd sets no overall limit on a request either (a large upload on a busy machine is slow).
  server.requestTimeout = 0;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { url: new URL(`http://127.0.0.1:${server.address().port}`), server };
}

function forward(upstream, request, response) {
  const headers = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers.connection = "close";
  const outbound = http.request({
    host: upstream.hostname,
    port: upstream.port,
    method: request.method,
    path: request.url,
    headers,
    agent: false,
  });
  outbound.on("response", (answer) => {
    const raw = [];
    for (let i = 0; i < answer.rawHeaders.length; i += 2) {
      if (!HOP_BY_HOP.has(answer.rawHeaders[i].toLowerCase())) raw.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
    }
    response.writeHead(answer.statusCode, answer.statusMessage, raw);
    pipeline(answer, response, () => {});
  });
  // The runtime dropped the connection (a reload) before answering: drop ours the same way, so
  // the ProxyWorker does what it always did (retry a GET, 503 otherwise). Once an answer has
  // started, a broken answer must stay broken, never look complete.
  outbound.on("error", () => {
    if (response.headersSent) response.destroy();
    else request.socket.destroy();
  });
  // The body goes as it arrives (pipe, not pipeline: an answer that came before the whole body
  // must not tear down the ProxyWorker's connection; Node discards the rest of the body itself).
  request.pipe(outbound);
  // The ProxyWorker gave up on the request: so do we, upstream.
  request.on("close", () => {
    if (!request.complete) outbound.destroy();
  });
}
