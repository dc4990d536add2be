/**
 * scripts/dev-relay.mjs, the relay `npm run dev` puts between wrangler's ProxyWorker and the
 * Workers' runtime (decision 030: POSTs answered "503 Your worker restarted mid-request" under
 * `npm run load`). It must forward requests and answers unchanged, never reuse a connection to
 * the runtime (whose idle close raced the ProxyWorker's reuse), keep the ProxyWorker's idle
 * connections longer than the ProxyWorker does (5 s), and pass a dropped connection on as a
 * dropped connection. A plain Node server stands in for the runtime.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { keepLoopbackConnectionsLonger, LOOPBACK_HANDLER, startRelay } from "../../scripts/dev-relay.mjs";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

const servers: http.Server[] = [];
const agents: http.Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** The runtime's stand-in: records what it got and on how many connections. */
async function runtime(handler: http.RequestListener) {
  const seen = { connections: 0, requests: [] as { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] };
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.requests.push({ method: request.method, url: request.url, headers: request.headers, body });
      handler(request, response);
    });
  });
  server.on("connection", () => seen.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { url, seen, server };
}

async function relayTo(upstream: URL): Promise<URL> {
  const relay = (await startRelay(upstream)) as { url: URL; server: http.Server };
  servers.push(relay.server);
  return relay.url;
}

function keepAliveAgent() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}

function send(url: URL, init: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent: init.agent ?? false }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, reusedSocket: request.reusedSocket }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

it("forwards the request and the answer unchanged: method, path, headers, body, every Set-Cookie", async () => {
  const upstream = await runtime((_request, response) => {
    response.writeHead(201, { "Content-Type": "application/json", "Set-Cookie": ["a=1; Path=/", "b=2; Path=/"] });
    response.end('{"id":7}');
  });
  const relay = await relayTo(upstream.url);

  const answer = await send(new URL("/api/books/7/images?x=1", relay), {
    method: "POST",
    headers: { "Content-Type": "text/plain", Cookie: "session=abc", "MF-Original-URL": "http://127.0.0.1:8787/api/books/7/images?x=1" },
    body: "photo bytes",
  });

  expect(answer.status).toBe(201);
  expect(answer.body).toBe('{"id":7}');
  expect(answer.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  expect(upstream.seen.requests).toHaveLength(1);
  const [got] = upstream.seen.requests;
  expect(got.method).toBe("POST");
  expect(got.url).toBe("/api/books/7/images?x=1");
  expect(got.body).toBe("photo bytes");
  expect(got.headers.cookie).toBe("session=abc");
  expect(got.headers["mf-original-url"]).toBe("http://127.0.0.1:8787/api/books/7/images?x=1");
});

it("opens a new connection to the runtime for every request, while the ProxyWorker's side stays one kept-alive connection", async () => {
  const upstream = await runtime((_request, response) => response.end("ok"));
  const relay = await relayTo(upstream.url);
  const agent = keepAliveAgent();

  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await send(new URL("/api/books/1/process", relay), { method: "POST", agent }));

  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  expect(answers.map((answer) => answer.reusedSocket)).toEqual([false, true, true]);
  // No request to the runtime ever rides an idle connection: each one asks for its own and closes it.
  expect(upstream.seen.connections).toBe(3);
  expect(upstream.seen.requests.map((request) => request.headers.connection)).toEqual(["close", "close", "close"]);
});

it("keeps an idle connection from the ProxyWorker open past the 5 s after which the ProxyWorker drops it itself", async () => {
  const upstream = await runtime((_request, response) => response.end("ok"));
  const relay = await relayTo(upstream.url);
  const agent = keepAliveAgent();

  expect((await send(new URL("/", relay), { agent })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  const after = await send(new URL("/api/books/1/process", relay), { method: "POST", agent });

  expect(after.status).toBe(200);
  expect(after.reusedSocket).toBe(true);
}, 20_000);

it("drops the ProxyWorker's connection when the runtime drops its own before answering (a reload), instead of making up an answer", async () => {
  const upstream = await runtime((request) => request.socket.destroy());
  const relay = await relayTo(upstream.url);

  await expect(send(new URL("/api/books", relay), { method: "POST", body: "{}" })).rejects.toMatchObject({ code: "ECONNRESET" });
});

it("keeps Miniflare's loopback server's idle connections 60 s and leaves every other server as Node made it", () => {
  // Miniflare's loopback handler is a private field's arrow function, named after the field.
  class LikeMiniflare {
    #handleLoopback = (_request: http.IncomingMessage, response: http.ServerResponse) => response.end();
    get handler() {
      return this.#handleLoopback;
    }
  }
  expect(new LikeMiniflare().handler.name).toBe(LOOPBACK_HANDLER);
  const restore = keepLoopbackConnectionsLonger();
  try {
    expect(http.createServer(new LikeMiniflare().handler).keepAliveTimeout).toBe(60_000);
    expect(http.createServer({}, new LikeMiniflare().handler).keepAliveTimeout).toBe(60_000);
    expect(http.createServer(() => {}).keepAliveTimeout).toBe(new http.Server().keepAliveTimeout);
  } finally {
    restore();
  }
  expect(http.createServer(new LikeMiniflare().handler).keepAliveTimeout).toBe(new http.Server().keepAliveTimeout);
  // The miniflare wrangler runs still makes its loopback server so: a wrangler upgrade that
  // changes it fails here (and `npm run dev` warns).
  const miniflare = readFileSync(createRequire(createRequire(import.meta.url).resolve("wrangler/package.json")).resolve("miniflare"), "utf8");
  expect(miniflare).toContain(`createServer(this.${LOOPBACK_HANDLER})`);
});
