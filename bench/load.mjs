// `npm run load`: N visitors (default 50) against a running `npm run dev`, all at once or
// arriving evenly over --arrive-over seconds (a shop's customers do not all press Upload in the
// same second, and this machine draws about one photo a second: 500 visitors' 2,500 photos take
// most of an hour however they arrive, so --patience gives each visitor that long). Each one
// creates a book, uploads five real photos, processes them, selects the pages, gets a quote,
// places the order and pays on the local test checkout, the way the /book/{id} pages do. Each
// visitor presents its own client address (below), so the per-address limits see many customers.
// Prints requests/s, latency percentiles per step and overall, the count of 5xx answers (must
// be 0) and of connections closed before an answer (a GET is sent again once, as a browser
// does), and then checks that nothing was lost: every uploaded photo has a row, its original
// answers from R2 with the bytes that were sent, and its sketch is finished and served.
//
//   npm run dev            # in another terminal (or PORT=8790 npm run dev)
//   npm run load           # or: npm run load -- --visitors 20 --base http://127.0.0.1:8790
//   npm run load -- --visitors 500 --arrive-over 900 --patience 90
//
// A script, not a test: its figures depend on the machine. It exits 1 when anything was lost or
// any answer was a 5xx, so it can gate a release by hand.
import { loadFixturePhotos } from "../scripts/fixture-photos.mjs";

const DELIVERY = {
  firstName: "Load",
  lastName: "Tester",
  email: "load@example.com",
  address1: "1 Test Street",
  city: "London",
  zipCode: "SW1A 1AA",
  country: "UK",
  // Required since the print partner needs it (decision 032); a UK number in Ofcom's drama range.
  phone: "+44 20 7946 0000",
};
function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

/** How long one visitor's photos may take to be drawn (minutes) while every other visitor's are queued too. */
const PROCESSING_TIMEOUT_MS = Number(option("patience", 20)) * 60 * 1000;
/** As the book pages poll their progress (POLL_INTERVAL_MS in app/lib/shop-rules.ts). */
const POLL_INTERVAL_MS = 2000;
/** Visitor n arrives at n / visitors of this (seconds); 0: all at once. */
const ARRIVE_OVER_MS = Number(option("arrive-over", 0)) * 1000;

const visitors = Number(option("visitors", process.env.LOAD_VISITORS ?? 50));
const base = option("base", `http://127.0.0.1:${process.env.PORT ?? 8787}`);

/** Every request's step, status and time; the figures come from here. */
const samples = [];

/**
 * The header by which a visitor presents its own client address: honoured only under `npm run
 * dev` and the tests (LOCAL_CLIENT_ADDRESS_HEADER in app/server/limits/client-address.server.ts,
 * decision 024), where every request really comes from 127.0.0.1 and would share one address's
 * limits. Production ignores it.
 */
const LOCAL_CLIENT_ADDRESS_HEADER = "X-Local-Client-Address";

/** Visitor n's address: one of 198.18.0.0/15, the range set aside for benchmarks (RFC 2544). */
function visitorAddress(index) {
  return `198.${18 + ((index >> 16) & 1)}.${(index >> 8) & 255}.${index & 255}`;
}

class Visitor {
  cookie = null;

  constructor(index) {
    this.index = index;
    this.address = visitorAddress(index);
  }

  async request(step, pathname, init = {}, attempt = 1) {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    headers.set(LOCAL_CLIENT_ADDRESS_HEADER, this.address);
    const started = performance.now();
    let response;
    try {
      response = await fetch(new URL(pathname, base), { ...init, headers, redirect: "manual" });
    } catch (error) {
      const cause = error.cause?.code ?? error.cause?.message ?? error.message;
      // A GET whose connection closed before any answer is sent again once, as a browser does
      // (Chromium retries an idempotent request on a reused connection the server had closed).
      const retry = attempt === 1 && (init.method ?? "GET") === "GET";
      samples.push({ step, status: 0, ms: performance.now() - started, cause, retried: retry });
      if (retry) return this.request(step, pathname, init, attempt + 1);
      throw new Error(`visitor ${this.index}: ${step} ${pathname} did not answer (${cause})`);
    }
    const body = await response.arrayBuffer();
    samples.push({ step, status: response.status, ms: performance.now() - started });
    const setCookie = response.headers.get("Set-Cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0];
    return { response, body };
  }

  async json(step, method, pathname, payload, expected = [200, 201]) {
    const { response, body } = await this.request(step, pathname, {
      method,
      headers: payload === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const text = new TextDecoder().decode(body);
    if (!expected.includes(response.status)) {
      throw new Error(`visitor ${this.index}: ${step} answered ${response.status}: ${text.slice(0, 200)}`);
    }
    return text ? JSON.parse(text) : null;
  }
}

async function runVisitor(index, photos) {
  const visitor = new Visitor(index);
  const book = await visitor.json("create book", "POST", "/api/books", { title: `Load test ${index}` });
  const form = new FormData();
  for (const photo of photos) form.append("images", new Blob([photo.bytes], { type: "image/jpeg" }), photo.name);
  const { response, body } = await visitor.request("upload 5 photos", `/api/books/${book.id}/images`, { method: "POST", body: form });
  if (response.status !== 201) {
    throw new Error(`visitor ${index}: upload answered ${response.status}: ${new TextDecoder().decode(body).slice(0, 200)}`);
  }
  const uploaded = JSON.parse(new TextDecoder().decode(body)).images;
  await visitor.json("process", "POST", `/api/books/${book.id}/process`, undefined, [200, 202]);

  const deadline = Date.now() + PROCESSING_TIMEOUT_MS;
  for (;;) {
    const progress = await visitor.json("progress", "GET", `/api/books/${book.id}/progress`);
    if (progress.processedImages >= progress.totalImages) break;
    if (Date.now() > deadline) throw new Error(`visitor ${index}: photos not drawn after ${PROCESSING_TIMEOUT_MS / 60000} min`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }

  const images = await visitor.json("list images", "GET", `/api/books/${book.id}/images`);
  for (const image of images.filter((image) => image.processingStatus === "completed")) {
    await visitor.json("select page", "PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
  }
  const quote = await visitor.json("quote", "POST", `/api/books/${book.id}/quote`, {
    deliveryAddress: { country: DELIVERY.country, zipCode: DELIVERY.zipCode },
  });
  const order = await visitor.json("order", "POST", "/api/orders", {
    bookId: book.id,
    quoteId: quote.quoteId,
    deliveryInfo: DELIVERY,
    paymentMethod: "card",
  });
  const payment = await visitor.json("start payment", "POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card", paymentDetails: {} });
  const checkoutPath = new URL(payment.checkoutUrl, base).pathname;
  const pay = await visitor.request("pay (test checkout)", `${checkoutPath}?_data=routes%2Ftest-checkout.%24sessionId`, {
    method: "POST",
    body: new URLSearchParams({ intent: "pay", ...DELIVERY }),
  });
  if (![200, 204, 302].includes(pay.response.status)) throw new Error(`visitor ${index}: pay answered ${pay.response.status}`);
  return { visitor, bookId: book.id, uploaded, orderNumber: order.orderNumber };
}

/** After the run: what every visitor sent is there, drawn and paid. */
async function checkNothingLost(result, photos) {
  const problems = [];
  const { visitor, bookId, uploaded } = result;
  const images = await visitor.json("check: images", "GET", `/api/books/${bookId}/images`);
  if (uploaded.length !== photos.length) problems.push(`book ${bookId}: ${uploaded.length} of ${photos.length} photos accepted`);
  for (const sent of uploaded) {
    const row = images.find((image) => image.id === sent.id);
    if (!row) {
      problems.push(`book ${bookId}: image ${sent.id} has no row`);
      continue;
    }
    const original = await visitor.request("check: original", row.originalUrl);
    const expected = photos.find((photo) => photo.name === row.originalFilename);
    if (original.response.status !== 200) problems.push(`image ${row.id}: original answered ${original.response.status}`);
    else if (expected && original.body.byteLength > expected.bytes.length) problems.push(`image ${row.id}: original grew`);
    if (row.processingStatus !== "completed" || !row.sketchUrl) {
      problems.push(`image ${row.id}: ${row.processingStatus}${row.error ? ` (${row.error})` : ""}`);
      continue;
    }
    const sketch = await visitor.request("check: sketch", row.sketchUrl);
    const type = sketch.response.headers.get("Content-Type");
    if (sketch.response.status !== 200 || type !== "image/png") problems.push(`image ${row.id}: sketch answered ${sketch.response.status} ${type}`);
  }
  const tracking = await visitor.request("check: order", `/orders/${result.orderNumber}`);
  if (tracking.response.status !== 200) problems.push(`order ${result.orderNumber}: tracking page answered ${tracking.response.status}`);
  return problems;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function row(label, list) {
  const ms = list.map((sample) => sample.ms).sort((a, b) => a - b);
  const fmt = (value) => value.toFixed(0).padStart(7);
  return `${label.padEnd(22)} ${String(list.length).padStart(6)} ${fmt(percentile(ms, 50))} ${fmt(percentile(ms, 95))} ${fmt(percentile(ms, 99))} ${fmt(ms.at(-1) ?? NaN)}`;
}

async function main() {
  const photos = await loadFixturePhotos();
  try {
    await fetch(base);
  } catch {
    console.error(`Nothing answers at ${base}: start the shop first (npm run dev), or pass --base.`);
    process.exit(2);
  }
  const arrival = ARRIVE_OVER_MS > 0 ? `arriving over ${ARRIVE_OVER_MS / 1000} s` : "at once";
  console.log(`${visitors} visitors ${arrival} against ${base}, five photos each, ${PROCESSING_TIMEOUT_MS / 60000} min patience for their pages`);
  const started = performance.now();
  const arrive = (i) => new Promise((resolve) => setTimeout(resolve, (ARRIVE_OVER_MS * i) / visitors));
  const settled = await Promise.allSettled(Array.from({ length: visitors }, (_, i) => arrive(i).then(() => runVisitor(i + 1, photos))));
  const seconds = (performance.now() - started) / 1000;
  const flowSamples = samples.slice();

  const failures = settled.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason.message);
  const problems = [...failures];
  for (const outcome of settled) {
    if (outcome.status === "fulfilled") problems.push(...(await checkNothingLost(outcome.value, photos)));
  }

  const steps = [...new Set(flowSamples.map((sample) => sample.step))];
  console.log(`\n${"step".padEnd(22)} ${"count".padStart(6)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"max ms".padStart(7)}`);
  for (const step of steps) console.log(row(step, flowSamples.filter((sample) => sample.step === step)));
  console.log(row("all requests", flowSamples));
  const serverErrors = samples.filter((sample) => sample.status >= 500);
  const dropped = samples.filter((sample) => sample.status === 0);
  const causes = [...new Set(dropped.map((sample) => sample.cause))].join(", ");
  const tooMany = samples.filter((sample) => sample.status === 429);
  console.log(`\nwall time ${seconds.toFixed(1)} s, ${flowSamples.length} requests, ${(flowSamples.length / seconds).toFixed(1)} requests/s`);
  console.log(`books finished and paid: ${settled.length - failures.length} of ${visitors}; photos checked: ${(settled.length - failures.length) * photos.length}`);
  console.log(`5xx answers: ${serverErrors.length}; 429 answers: ${tooMany.length}`);
  console.log(
    `connections closed before an answer: ${dropped.length}` +
      (dropped.length ? ` (${dropped.filter((sample) => sample.retried).length} GETs sent again once, as a browser does; ${causes})` : ""),
  );
  if (problems.length) {
    console.log(`\nLOST OR BROKEN (${problems.length}):`);
    for (const problem of problems.slice(0, 30)) console.log(`  ${problem}`);
  } else {
    console.log("nothing lost: every photo has its row, its original and a finished sketch; every order is paid");
  }
  process.exit(problems.length || serverErrors.length ? 1 : 0);
}

await main();
