/**
 * Paid orders go to the print partner by themselves (docs/decisions/028): the Lulu client against
 * a fake of Lulu's API (expired token, a validation refusal, a 5xx, a time-out, the same job
 * twice), the queue consumer's retries and dead letters, and the desk's Send again.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { database } from "~/core/db/database.server";
import { forgetLuluTokens, LULU_COIL_BOUND_LETTER_BW, luluPartner } from "~/server/printing/lulu.server";
import { PrintPartnerUnavailableError } from "~/server/printing/print-partner.server";
import { handlePrintSubmissions, sendAgain, sendOrderToPrinter, submitRetryDelaySeconds } from "~/server/printing/printing.server";
import { resendStalledPrints } from "~/server/jobs/print-resend.server";
import { FAKE_LULU_BASE, FakeLulu } from "./fake-lulu";
import { orderById, paidOrderWithPdf } from "./print-helpers";

const db = database(env.DB);

function lulu(fake: FakeLulu, timeoutMs = 200) {
  return luluPartner(
    {
      clientKey: fake.clientKey,
      clientSecret: fake.clientSecret,
      apiBase: FAKE_LULU_BASE,
      podPackageId: LULU_COIL_BOUND_LETTER_BW,
      shippingLevel: "MAIL",
      contactEmail: "print@shop.example",
      contactPhone: "+44 20 7946 0000",
      timeoutMs,
    },
    fake.fetch,
  );
}

const luluEnv = { ...env, LULU_CLIENT_KEY: "fake-key", LULU_CLIENT_SECRET: "fake-secret", LULU_API_BASE: FAKE_LULU_BASE };

beforeEach(() => forgetLuluTokens());

describe("the Lulu client against a fake of its API", () => {
  it("sends one job with our order number, the product, signed file URLs, the address and quantity, and caches its token", async () => {
    const fake = new FakeLulu();
    const partner = lulu(fake);
    const first = await paidOrderWithPdf();
    const second = await paidOrderWithPdf();
    expect(await sendOrderToPrinter(env, db, partner, first.id)).toMatchObject({ status: "sent" });
    expect(await sendOrderToPrinter(env, db, partner, second.id)).toMatchObject({ status: "sent" });
    expect(fake.tokenRequests).toBe(1);
    expect(fake.jobs).toHaveLength(2);
    const body = fake.jobs[0].body as any;
    expect(body.external_id).toBe(first.orderNumber);
    expect(body.line_items[0]).toMatchObject({ external_id: first.orderNumber, quantity: 2, title: "Our Summer" });
    expect(body.line_items[0].printable_normalization.pod_package_id).toBe("0850X1100.BW.PRE.CO.080CW444.MXX");
    expect(body.line_items[0].printable_normalization.interior.source_url).toMatch(
      new RegExp(`/print-files/${first.orderNumber}/interior\\.pdf\\?expires=\\d+&signature=`),
    );
    expect(body.shipping_address).toMatchObject({ name: "Ada Lovelace", country_code: "GB", postcode: "SW1A 1AA", phone_number: "+44 20 7946 0000" });
    const row = await orderById(first.id);
    expect(row).toMatchObject({ printPartner: "lulu", printJobId: String(fake.jobs[0].id), printStatus: "sent", orderStatus: "printing" });
    expect(row.sentToPrintAt).not.toBeNull();
  });

  it("fetches a new token when Lulu says the cached one has expired, and when its stated lifetime is nearly over", async () => {
    const fake = new FakeLulu();
    const partner = lulu(fake);
    await sendOrderToPrinter(env, db, partner, (await paidOrderWithPdf()).id);
    fake.expireTokens();
    expect(await sendOrderToPrinter(env, db, partner, (await paidOrderWithPdf()).id)).toMatchObject({ status: "sent" });
    expect(fake.tokenRequests).toBe(2);

    // A token that lives less than the renewal margin is never reused: each of a submission's
    // calls (cover size, cost, look-up, creation) fetches its own.
    const shortLived = new FakeLulu();
    shortLived.tokenLifetimeSeconds = 30;
    forgetLuluTokens();
    const partner2 = lulu(shortLived);
    await sendOrderToPrinter(env, db, partner2, (await paidOrderWithPdf()).id);
    await sendOrderToPrinter(env, db, partner2, (await paidOrderWithPdf()).id);
    expect(shortLived.tokenRequests).toBe(shortLived.calls.length - shortLived.tokenRequests);
    expect(shortLived.tokenRequests).toBe(8);
  });

  it("a 4xx with a validation message: the order is rejected with Lulu's reason, never retried, and Send again makes a new job", async () => {
    const fake = new FakeLulu();
    fake.failCreate = { count: 1, status: 400, body: { shipping_address: { state_code: ["This field is required for US addresses."] } } };
    const order = await paidOrderWithPdf();
    const outcome = await sendOrderToPrinter(env, db, lulu(fake), order.id);
    expect(outcome).toEqual({ status: "refused", reason: "shipping_address.state_code: This field is required for US addresses." });
    const rejected = await orderById(order.id);
    expect(rejected).toMatchObject({ printStatus: "rejected", printStatusDetail: "shipping_address.state_code: This field is required for US addresses." });
    // A redelivered message does not send it again by itself.
    expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "skipped" });
    expect(fake.jobs).toHaveLength(0);

    const sent: unknown[] = [];
    const queueEnv = { ...env, PRINT_SUBMIT_QUEUE: { send: async (body: unknown) => void sent.push(body) } as unknown as Queue };
    expect(await sendAgain(queueEnv, db, rejected)).toBe(true);
    expect(sent).toEqual([{ orderId: order.id }]);
    expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "sent" });
    expect(fake.jobs.map((job) => job.external_id)).toEqual([`${order.orderNumber}-2`]);
  });

  it("a 5xx gives the claim back and throws for the queue to retry; the retry makes the one job", async () => {
    const fake = new FakeLulu();
    fake.failCreate = { count: 1, status: 503, body: { detail: "Service unavailable" } };
    const order = await paidOrderWithPdf();
    await expect(sendOrderToPrinter(env, db, lulu(fake), order.id)).rejects.toBeInstanceOf(PrintPartnerUnavailableError);
    expect((await orderById(order.id)).printStatus).toBeNull();
    expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "sent" });
    expect(fake.jobs).toHaveLength(1);
  });

  it("a time-out whose job Lulu made after all: the retry finds that job instead of making a second", async () => {
    const fake = new FakeLulu();
    fake.hangCreate = 1;
    const order = await paidOrderWithPdf();
    await expect(sendOrderToPrinter(env, db, lulu(fake, 50), order.id)).rejects.toBeInstanceOf(PrintPartnerUnavailableError);
    expect(fake.jobs).toHaveLength(1);
    expect(await sendOrderToPrinter(env, db, lulu(fake, 50), order.id)).toMatchObject({ status: "sent", jobId: String(fake.jobs[0].id) });
    expect(fake.creations).toBe(1);
  });

  it("the same job sent twice (a redelivered message, a second click) makes one job", async () => {
    const fake = new FakeLulu();
    const order = await paidOrderWithPdf();
    const partner = lulu(fake);
    const [a, b] = await Promise.all([sendOrderToPrinter(env, db, partner, order.id), sendOrderToPrinter(env, db, partner, order.id)]);
    expect([a.status, b.status].sort()).toEqual(["busy", "sent"]);
    expect(await sendOrderToPrinter(env, db, partner, order.id)).toMatchObject({ status: "skipped" });
    // Even asked directly, Lulu's client finds the job it made.
    const again = await partner.submitJob({ externalId: order.orderNumber, title: "x", quantity: 1, interiorUrl: "https://a", coverUrl: "https://b", shipTo: order.customerInfo! });
    expect(again.id).toBe(String(fake.jobs[0].id));
    expect(fake.jobs).toHaveLength(1);
  });

  it("never sends an unpaid, refunded or PDF-less order", async () => {
    const fake = new FakeLulu();
    for (const overrides of [{ paymentStatus: "pending" as const }, { refundedAt: new Date() }, { pdfKey: null }]) {
      const order = await paidOrderWithPdf(overrides);
      expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "skipped" });
    }
    expect(fake.jobs).toHaveLength(0);
  });
});

describe("the delivery address Lulu gets", () => {
  it("carries the customer's phone number, and the state code of a US or Canadian address", async () => {
    const fake = new FakeLulu();
    const order = await paidOrderWithPdf({
      customerInfo: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com", address1: "1 High St", city: "Columbus", zipCode: "43004", country: "US", stateCode: "OH", phone: "+1 614 555 0100" },
    });
    expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "sent" });
    expect((fake.jobs[0].body as any).shipping_address).toMatchObject({ country_code: "US", state_code: "OH", phone_number: "+1 614 555 0100" });
    expect((fake.costRequests[0] as any).shipping_address).toMatchObject({ state_code: "OH", phone_number: "+1 614 555 0100" });
  });
});

describe("the cover size and the cost Lulu gives", () => {
  it("asks /cover-dimensions/ for the product and page count; a cover made at another size is made again at Lulu's before the job is sent", async () => {
    const fake = new FakeLulu();
    fake.coverSize = { widthPt: 1260.5, heightPt: 810 };
    const partner = lulu(fake);
    const order = await paidOrderWithPdf();
    await env.IMAGES.put(`print/${order.orderNumber}-cover.pdf`, "%PDF-1.7 cover");
    const pdfJobs: unknown[] = [];
    const queues = { ...env, PRINT_QUEUE: { send: async (body: unknown) => void pdfJobs.push(body) } as unknown as Queue };

    expect(await sendOrderToPrinter(queues, db, partner, order.id)).toMatchObject({ status: "skipped" });
    // 5 pictures, title and dedication, each with its blank back.
    expect(fake.coverRequests).toEqual([{ pod_package_id: LULU_COIL_BOUND_LETTER_BW, interior_page_count: 14, unit: "pt" }]);
    expect(fake.jobs).toHaveLength(0);
    expect(pdfJobs).toEqual([{ orderId: order.id }]);
    expect(await env.IMAGES.head(`print/${order.orderNumber}-cover.pdf`)).toBeNull();
    expect(await orderById(order.id)).toMatchObject({ coverWidthPt: 1260.5, coverHeightPt: 810, printStatus: null, printJobId: null });

    // The print job made the cover at that size (test/sketch covers it); the order comes back and goes out.
    expect(await sendOrderToPrinter(queues, db, partner, order.id)).toMatchObject({ status: "sent" });
    expect(fake.jobs).toHaveLength(1);
    expect(pdfJobs).toHaveLength(1);
  });

  it("prices the job with /print-job-cost-calculations/ before sending it and logs Lulu's total", async () => {
    const fake = new FakeLulu();
    const order = await paidOrderWithPdf();
    const logged = vi.spyOn(console, "log");
    expect(await sendOrderToPrinter(env, db, lulu(fake), order.id)).toMatchObject({ status: "sent" });
    expect(fake.costRequests).toHaveLength(1);
    expect(fake.costRequests[0]).toMatchObject({
      line_items: [{ page_count: 14, pod_package_id: LULU_COIL_BOUND_LETTER_BW, quantity: 2 }],
      shipping_option: "MAIL",
      shipping_address: { name: "Ada Lovelace", country_code: "GB", postcode: "SW1A 1AA" },
    });
    expect(logged.mock.calls.flat().join(" ")).toContain(`order ${order.orderNumber}: the printer charges USD 23.60`);
    logged.mockRestore();
  });
});

describe("the print-submissions queue", () => {
  it("retries with growing delays while Lulu answers 5xx, and the dead letter marks the order needs attention", async () => {
    const fake = new FakeLulu();
    fake.failCreate = { count: 5, status: 502, body: {} };
    const order = await paidOrderWithPdf();
    for (const attempts of [1, 2]) {
      const batch = createMessageBatch("print-submissions", [{ id: `m${attempts}`, timestamp: new Date(), attempts, body: { orderId: order.id } }]);
      const ctx = createExecutionContext();
      await handlePrintSubmissions(batch, luluEnv, fake.fetch);
      const result = await getQueueResult(batch, ctx);
      expect(result.retryMessages.map((retry: { msgId: string }) => retry.msgId)).toEqual([`m${attempts}`]);
      expect(result.explicitAcks).toEqual([]);
    }
    expect([1, 2, 3, 7, 20].map(submitRetryDelaySeconds)).toEqual([30, 60, 120, 1800, 1800]);
    const dead = createMessageBatch("print-submissions-dlq", [{ id: "d1", timestamp: new Date(), attempts: 1, body: { orderId: order.id } }]);
    const ctx = createExecutionContext();
    await handlePrintSubmissions(dead, luluEnv, fake.fetch);
    expect((await getQueueResult(dead, ctx)).explicitAcks).toEqual(["d1"]);
    expect(await orderById(order.id)).toMatchObject({ printStatus: "needs-attention" });
  });

  it("with no partner configured, acknowledges and leaves the order to the desk", async () => {
    const order = await paidOrderWithPdf();
    const batch = createMessageBatch("print-submissions", [{ id: "n1", timestamp: new Date(), attempts: 1, body: { orderId: order.id } }]);
    const ctx = createExecutionContext();
    await handlePrintSubmissions(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["n1"]);
    expect((await orderById(order.id)).printStatus).toBeNull();
  });
});

describe("the hourly cron sends stalled prints again", () => {
  function recordingQueue() {
    const sent: unknown[] = [];
    return { sent, queue: { send: async (body: unknown) => void sent.push(body), sendBatch: async (items: { body: unknown }[]) => void sent.push(...items.map((item) => item.body)) } as unknown as Queue };
  }

  it("queues the PDF of a paid order that has none after a while, and the print job of one that never reached the printer", async () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const hourAgo = new Date(now.getTime() - 60 * 60_000);
    const noPdf = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null, paidAt: hourAgo });
    const notSent = await paidOrderWithPdf({ paidAt: hourAgo, pdfReadyAt: hourAgo });
    // Too recent, already with the printer, refunded, or far too old: left alone.
    const recent = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null, paidAt: new Date(now.getTime() - 5 * 60_000) });
    const withPrinter = await paidOrderWithPdf({ paidAt: hourAgo, pdfReadyAt: hourAgo, printStatus: "sent", printJobId: "1" });
    const refunded = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null, paidAt: hourAgo, refundedAt: now });
    const ancient = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null, paidAt: new Date("2026-01-01T00:00:00Z") });

    const pdfs = recordingQueue();
    const submissions = recordingQueue();
    const cronEnv = { ...env, LOCAL_TEST_PRINTER: "on", PRINT_QUEUE: pdfs.queue, PRINT_SUBMIT_QUEUE: submissions.queue };
    await resendStalledPrints(cronEnv, now);
    const ids = (sent: unknown[]) => sent.map((body) => (body as { orderId: number }).orderId);
    expect(ids(pdfs.sent)).toContain(noPdf.id);
    expect(ids(submissions.sent)).toContain(notSent.id);
    for (const untouched of [recent, withPrinter, refunded, ancient]) {
      expect(ids(pdfs.sent)).not.toContain(untouched.id);
      expect(ids(submissions.sent)).not.toContain(untouched.id);
    }

    // With no print partner (the manual desk), no print job is queued.
    const manual = recordingQueue();
    await resendStalledPrints({ ...env, PRINT_QUEUE: recordingQueue().queue, PRINT_SUBMIT_QUEUE: manual.queue }, now);
    expect(manual.sent).toEqual([]);
  });
});

describe("an order that needs attention because a page could not be printed", () => {
  it("is left to a person by the cron, and the desk's Send again builds its PDF again", async () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const order = await paidOrderWithPdf({
      pdfKey: null,
      pdfReadyAt: null,
      paidAt: new Date(now.getTime() - 60 * 60_000),
      printStatus: "needs-attention",
      printStatusDetail: "Not printed: photo 7 (cat.jpg): failed: gave up",
    });
    const pdfs: unknown[] = [];
    const submissions: unknown[] = [];
    const queues = {
      PRINT_QUEUE: { send: async (body: unknown) => void pdfs.push(body), sendBatch: async (items: { body: unknown }[]) => void pdfs.push(...items.map((i) => i.body)) } as unknown as Queue,
      PRINT_SUBMIT_QUEUE: { send: async (body: unknown) => void submissions.push(body), sendBatch: async () => undefined } as unknown as Queue,
    };
    await resendStalledPrints({ ...env, ...queues }, now);
    expect(pdfs).not.toContainEqual({ orderId: order.id });
    pdfs.length = 0; // other tests' orders the cron found

    expect(await sendAgain({ ...env, ...queues }, db, order)).toBe(true);
    expect(pdfs).toEqual([{ orderId: order.id }]);
    expect(submissions).toEqual([]);
    expect(await orderById(order.id)).toMatchObject({ printStatus: null, printStatusDetail: null });
  });
});
