/**
 * Decision 012: cheap checks (rate limits, tickets, signature headers) come before a body is
 * read, and a body is read through a capped stream that stops at its cap whatever it declared.
 * Each test sends a body that never ends and has no Content-Length (a chunked upload): a route
 * that reads before it checks, or reads without a cap, never answers.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_MESSAGES, PREVIEW_API_MESSAGES } from "~/lib/customer-copy";
import { FREE_TICKETS_PER_DAY_PER_SESSION, MB } from "~/lib/shop-rules";
import { REFUSED_BODY_DRAIN_BYTES } from "~/server/http/bytes.server";
import { sessionIdOf, Visitor, type ApiError } from "./helpers";
import { PreviewVisitor } from "./preview-helpers";

/** How long a route may take to answer without the rest of its body (generous for a busy machine). */
const ANSWER_WITHIN_MS = 8000;
/** More than any cap below (the largest, upload-file's, is about 20 MB). */
const MAX_SENT_BYTES = 48 * MB;
const CHUNK = new Uint8Array(256 * 1024).fill(0x41); // "A": valid base64, valid filler anywhere

interface EndlessAnswer {
  /** null when the route was still reading after ANSWER_WITHIN_MS. */
  response: Response | null;
  /** Bytes the route had taken off the body when it answered. */
  pulledWhenAnswered: number;
}

/**
 * Sends `prefix` and then filler bytes, with no Content-Length; after MAX_SENT_BYTES the body
 * stalls (never ends). Gives up after ANSWER_WITHIN_MS and then breaks the body off.
 */
async function sendEndless(visitor: Visitor, path: string, headers: Record<string, string>, prefix = ""): Promise<EndlessAnswer> {
  let pulled = 0;
  let sentPrefix = false;
  let breakOff = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      breakOff = () => controller.error(new Error("the test stopped sending"));
    },
    pull(controller) {
      // A stalled body, not an endless one: a route that buffers it must not take the runtime down.
      if (pulled >= MAX_SENT_BYTES) return new Promise<void>(() => {});
      const chunk = sentPrefix ? CHUNK : new TextEncoder().encode(prefix);
      sentPrefix = true;
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS)));
  const answered = visitor.fetch(path, { method: "POST", headers, body }).catch(() => null);
  const response = await Promise.race([answered, gaveUp]);
  const pulledWhenAnswered = pulled;
  clearTimeout(timer);
  if (!response) {
    breakOff();
    await answered;
  }
  return { response, pulledWhenAnswered };
}

async function messageOf(response: Response | null): Promise<string | undefined> {
  return response ? ((await response.json()) as ApiError).message : undefined;
}

describe("bodies are checked before they are read, and read with a cap", () => {
  it("convert-sketch refuses a visitor over the daily limit before reading its 20 MB body", async () => {
    const visitor = new PreviewVisitor();
    const sessionId = await sessionIdOf(visitor);
    await env.DB.prepare("INSERT INTO usage_counts (action, subject, day, count) VALUES ('free-ticket', ?, ?, ?)")
      .bind(`session:${sessionId}`, new Date().toISOString().slice(0, 10), FREE_TICKETS_PER_DAY_PER_SESSION)
      .run();
    const { response, pulledWhenAnswered } = await sendEndless(
      visitor,
      "/api/convert-sketch",
      { "Content-Type": "application/json" },
      '{"filename":"a.png","imageData":"data:image/png;base64,',
    );
    expect(response?.status).toBe(429);
    expect(await messageOf(response)).toBe(PREVIEW_API_MESSAGES.dailyTicketLimit);
    expect(pulledWhenAnswered).toBeLessThan(MB);
  });

  it("upload-file refuses a visitor who holds no upload ticket before reading the file", async () => {
    const { response, pulledWhenAnswered } = await sendEndless(
      new PreviewVisitor(),
      "/api/upload-file",
      { "Content-Type": "application/json" },
      '{"imageData":"data:image/png;base64,',
    );
    expect(response?.status).toBe(404);
    expect(pulledWhenAnswered).toBeLessThan(MB);
  });

  it("the Stripe webhook refuses an unsigned request before reading its body", async () => {
    const { response } = await sendEndless(new Visitor(), "/api/stripe-webhook", { "Content-Type": "application/json" }, "{");
    expect(response?.status).toBe(400);
  });

  it("the Stripe webhook stops reading a chunked body at its cap with 413", async () => {
    const { response, pulledWhenAnswered } = await sendEndless(
      new Visitor(),
      "/api/stripe-webhook",
      { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" },
      '{"id":"evt_1","padding":"',
    );
    expect(response?.status).toBe(413);
    expect(await messageOf(response)).toBe(API_MESSAGES.bodyTooLarge);
    expect(pulledWhenAnswered).toBeLessThan(8 * MB);
  });

  it("a refused multipart upload drains at most the 16 MB of decision 012, then cuts the body off", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const boundary = "----refused-upload";
    const prefix =
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const { response, pulledWhenAnswered } = await sendEndless(
      visitor,
      `/api/books/${bookId}/images`,
      { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      prefix,
    );
    expect(response?.status).toBe(400);
    expect(REFUSED_BODY_DRAIN_BYTES).toBe(16 * MB);
    expect(pulledWhenAnswered).toBeLessThan(REFUSED_BODY_DRAIN_BYTES + 8 * MB);
  });
});

/** The desk's sign-in cookie (`cb_admin=...`), from the local password sign-in. */
async function deskCookie(): Promise<string> {
  const signIn = await new Visitor().fetch("/admin/sign-in", {
    method: "POST",
    body: new URLSearchParams({ password: env.ADMIN_LOCAL_PASSWORD! }),
    redirect: "manual",
  });
  return signIn.headers.getSetCookie().find((cookie) => cookie.startsWith("cb_admin="))!.split(";")[0];
}

describe("page actions read their form through the capped body reader", () => {
  const lookupPath = "/orders/CB-20990101-ZZZZZ";
  const deskPath = "/admin?index&_data=routes%2Fadmin._index";

  it("order lookup: 413 at the cap, 415 for another type, and a JSON body read as the form's fields", async () => {
    const endless = await sendEndless(new Visitor(), lookupPath, { "Content-Type": "application/x-www-form-urlencoded" }, "email=");
    expect(endless.response?.status).toBe(413);
    expect(endless.pulledWhenAnswered).toBeLessThan(MB);

    const text = await new Visitor().fetch(lookupPath, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "email=a@example.com" });
    expect(text.status).toBe(415);
    const json = await new Visitor().fetch(lookupPath, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com" }),
    });
    expect(json.status).toBe(404); // looked up like the form: no such order
    const notAnObject = await new Visitor().fetch(lookupPath, { method: "POST", headers: { "Content-Type": "application/json" }, body: "[1]" });
    expect(notAnObject.status).toBe(400);
  });

  it("the orders desk and its sign-in: 413 at the cap, 415 for another type, 4xx for JSON, never 500", async () => {
    const desk = new Visitor();
    desk.cookie = await deskCookie();
    const endless = await sendEndless(desk, deskPath, { "Content-Type": "application/x-www-form-urlencoded" }, "intent=refund&orderNumber=");
    expect(endless.response?.status).toBe(413);
    expect(endless.pulledWhenAnswered).toBeLessThan(MB);

    desk.cookie = await deskCookie();
    const text = await desk.fetch(deskPath, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "intent=refund" });
    expect(text.status).toBe(415);
    desk.cookie = await deskCookie();
    const json = await desk.fetch(deskPath, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "refund", orderNumber: "CB-20990101-ZZZZZ" }),
    });
    expect(json.status).toBe(409); // read like the form: an order the desk does not know
    expect(await json.json()).toMatchObject({ ok: false });

    const signIn = await new Visitor().fetch("/admin/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: "wrong" }),
      redirect: "manual",
    });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect(signIn.status).toBeLessThan(500);
  });

  it("the local test printer's page: 415 for another type, a JSON body read as the form's fields, never 500", async () => {
    const desk = new Visitor();
    const printerPath = "/admin/test-printer?_data=routes%2Fadmin.test-printer";
    desk.cookie = await deskCookie();
    const text = await desk.fetch(printerPath, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "jobId=1&move=SHIPPED" });
    expect(text.status).toBe(415);
    desk.cookie = await deskCookie();
    const json = await desk.fetch(printerPath, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jobId: "1", move: "SHIPPED" }) });
    expect(json.status).toBe(404); // read like the form: no such job (no test printer in these tests)
  });
});
