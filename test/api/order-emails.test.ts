/**
 * docs/product.md §12: the order confirmation and the shipped email. Recorded once per order and
 * kind, kept in the outbox without a provider key, sent through Resend's HTTP API with one
 * Idempotency-Key per email when there is one, retried by the cron, and never in the way of a
 * payment. Only Resend's API is faked (FakeResend); D1, the payment path and the templates are real.
 */
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CUSTOMER_PDF_TEXT, ORDER_EMAIL_TEXT } from "~/lib/customer-copy";
import { CUSTOMER_PDF_LINK_DAYS, LOCAL_SHOP_ORIGIN, ORDER_EMAIL_MAX_ATTEMPTS, ORDER_EMAIL_REPAIR_WINDOW_DAYS } from "~/lib/shop-rules";
import { formatMoney } from "~/lib/format";
import { database } from "~/core/db/database.server";
import { orderEmails, orders, type Order, type OrderEmail } from "~/core/db/schema.server";
import { resendProvider } from "~/server/orders/email-provider.server";
import { deliverDueEmails, recordOrderEmail, retryDelaySeconds } from "~/server/orders/order-emails.server";
import { handleCheckoutEvent } from "~/server/payments/payments.server";
import type { CheckoutEvent } from "~/server/payments/payment-provider.server";
import { FAKE_RESEND_KEY, FakeResend } from "./fake-resend";
import { handlePrintSubmissions } from "~/server/printing/printing.server";
import { paidOrderWithPdf } from "./print-helpers";
import { dbRun, ORIGIN, payLocally, placeOrder, readyBook, startPayment, TEST_DELIVERY, Visitor } from "./helpers";

const db = database(env.DB);
const SHOP = "https://shop.example";
const resendEnv = { ...env, RESEND_API_KEY: FAKE_RESEND_KEY, EMAIL_FROM: "Coloring Book Shop <orders@shop.example>", PUBLIC_ORIGIN: SHOP };
const T0 = new Date("2026-11-23T10:00:00Z");
const seconds = (s: number) => new Date(T0.getTime() + s * 1000);

afterEach(() => {
  vi.restoreAllMocks();
});

async function loadOrder(id: number): Promise<Order> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) throw new Error(`no order ${id}`);
  return order;
}

async function emailsOf(orderId: number): Promise<OrderEmail[]> {
  return db.select().from(orderEmails).where(eq(orderEmails.orderId, orderId));
}

/**
 * An order placed (with the test delivery address) and not paid yet, with the checkout sessions
 * `paidEvent` names recorded as ours (only those may pay for it).
 */
async function placedOrder(): Promise<Order> {
  const visitor = new Visitor();
  const { bookId, quoteId } = await readyBook(visitor, 5);
  const order = await loadOrder(await placeOrder(visitor, bookId, quoteId));
  for (const sessionId of [`cs_test_${order.id}`, `cs_test_other_${order.id}`]) {
    await dbRun("INSERT OR IGNORE INTO payment_sessions (session_id, order_id, attempt) VALUES (?, ?, 0)", sessionId, order.id);
  }
  return order;
}

/** What a provider reports when the customer has paid `order`. */
function paidEvent(order: Order, sessionId = `cs_test_${order.id}`): CheckoutEvent {
  return {
    type: "checkout.session.completed",
    sessionId,
    orderId: order.id,
    paymentStatus: "paid",
    amountTotal: order.pricing.total,
    currency: order.pricing.currency,
    customer: null,
  };
}

/** Resend's API, reached through the global fetch the provider uses when nobody hands it one. */
function resendBehindGlobalFetch(): FakeResend {
  const fake = new FakeResend();
  vi.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);
  return fake;
}

describe("order confirmation email", () => {
  it("is recorded once when an order is paid through the local checkout, with everything the customer needs", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await payLocally(visitor, await startPayment(visitor, orderId));

    const order = await loadOrder(orderId);
    expect(order.paymentStatus).toBe("paid");
    const rows = await emailsOf(orderId);
    expect(rows).toHaveLength(1);
    const [email] = rows;
    // No RESEND_API_KEY in the tests: the local outbox, and no PUBLIC_ORIGIN: links to the local shop.
    expect(email).toMatchObject({ kind: "order-confirmation", status: "outbox", toAddress: TEST_DELIVERY.email, attempts: 0 });
    expect(email.subject).toContain(order.orderNumber);
    const trackingUrl = `${LOCAL_SHOP_ORIGIN}/orders/${order.orderNumber}`;
    for (const body of [email.html, email.textBody]) {
      expect(body).toContain(order.orderNumber);
      expect(body).toContain("Summer at Grandma"); // the helper's book title
      expect(body).toContain(formatMoney(order.pricing.total, order.pricing.currency));
      expect(body).toContain(order.estimatedDelivery);
      expect(body).toContain("3-15 business days");
      expect(body).toContain(trackingUrl);
      expect(body).toContain("1 Downing Street");
      expect(body).toContain("United Kingdom");
    }
    expect(email.html).toContain(`href="${trackingUrl}"`);
    expect(email.html.startsWith("<!DOCTYPE html PUBLIC")).toBe(true);
    expect(email.textBody).not.toContain("<");
  });

  it("is recorded and sent once however often the payment is reported", async () => {
    const order = await placedOrder();
    const fake = resendBehindGlobalFetch();
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), T0)).toBe("paid");
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), seconds(5))).toBe("already-paid");
    // The same order paid again through another checkout session (a second tab): refunded, not re-confirmed.
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order, `cs_test_other_${order.id}`), seconds(9))).toBe("paid-twice");

    expect(await emailsOf(order.id)).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
    expect(fake.delivered).toHaveLength(1);
  });

  it("stays in the outbox and calls nobody when no provider key is set", async () => {
    const order = await placedOrder();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    expect(await handleCheckoutEvent({ ...env, PUBLIC_ORIGIN: SHOP }, db, paidEvent(order), T0)).toBe("paid");
    expect(fetchSpy).not.toHaveBeenCalled();
    const [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "outbox", attempts: 0, nextAttemptAt: null, providerMessageId: null });
    expect(email.html).toContain(`${SHOP}/orders/${order.orderNumber}`);
  });

  it("is sent through Resend with the key, the shop's sender, both bodies and the email's own idempotency key", async () => {
    const order = await placedOrder();
    const fake = resendBehindGlobalFetch();
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), T0)).toBe("paid");

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://api.resend.com/emails");
    expect(request.headers.get("Authorization")).toBe(`Bearer ${FAKE_RESEND_KEY}`);
    expect(request.headers.get("Content-Type")).toBe("application/json");
    expect(request.headers.get("Idempotency-Key")).toBe(`order-${order.id}-order-confirmation`);
    const [email] = await emailsOf(order.id);
    expect(request.body).toEqual({
      from: resendEnv.EMAIL_FROM,
      to: TEST_DELIVERY.email,
      subject: email.subject,
      html: email.html,
      text: email.textBody,
    });
    expect(email).toMatchObject({ status: "sent", attempts: 1, providerMessageId: fake.delivered[0].id, lastError: null, nextAttemptAt: null });
    expect(email.sentAt).toBeInstanceOf(Date);
  });

  it("is retried by the cron after Resend fails with a 500, sent once when it is due, under the same key", async () => {
    const order = await placedOrder();
    const fake = new FakeResend();
    fake.failNext = { count: 1, status: 500 };
    await recordOrderEmail(resendEnv, db, order.id, "order-confirmation", { fetchFn: fake.fetch, now: T0 });

    let [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "pending", attempts: 1, providerMessageId: null });
    expect(email.lastError).toContain("500");
    expect(email.nextAttemptAt).toEqual(seconds(retryDelaySeconds(1)));

    // Not due yet: the cron leaves it.
    expect(await deliverDueEmails(resendEnv, seconds(retryDelaySeconds(1) - 1), { fetchFn: fake.fetch })).toMatchObject({ sent: 0 });
    expect(fake.requests).toHaveLength(1);

    expect(await deliverDueEmails(resendEnv, seconds(retryDelaySeconds(1)), { fetchFn: fake.fetch })).toMatchObject({ sent: 1 });
    [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "sent", attempts: 2, lastError: null, providerMessageId: fake.delivered[0].id });
    expect(fake.requests.map((request) => request.headers.get("Idempotency-Key"))).toEqual([
      `order-${order.id}-order-confirmation`,
      `order-${order.id}-order-confirmation`,
    ]);
    expect(fake.delivered).toHaveLength(1);

    // Sent is final: a later run sends nothing.
    await deliverDueEmails(resendEnv, seconds(24 * 3600), { fetchFn: fake.fetch });
    expect(fake.requests).toHaveLength(2);
  });

  it("backs off after each failed try and gives up after the last one", async () => {
    const order = await placedOrder();
    const fake = new FakeResend();
    fake.failNext = { count: 100, status: 429, name: "rate_limit_exceeded" };
    await recordOrderEmail(resendEnv, db, order.id, "order-confirmation", { fetchFn: fake.fetch, now: T0 });
    let clock = T0;
    for (let attempt = 1; attempt < ORDER_EMAIL_MAX_ATTEMPTS; attempt++) {
      const [email] = await emailsOf(order.id);
      expect(email).toMatchObject({ status: "pending", attempts: attempt });
      expect(email.nextAttemptAt).toEqual(new Date(clock.getTime() + retryDelaySeconds(attempt) * 1000));
      clock = email.nextAttemptAt!;
      await deliverDueEmails(resendEnv, clock, { fetchFn: fake.fetch });
    }
    const [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "failed", attempts: ORDER_EMAIL_MAX_ATTEMPTS, nextAttemptAt: null });
    expect(email.lastError).toContain("429");
    expect(fake.requests).toHaveLength(ORDER_EMAIL_MAX_ATTEMPTS);
    expect(retryDelaySeconds(2)).toBe(2 * retryDelaySeconds(1));

    await deliverDueEmails(resendEnv, seconds(30 * 24 * 3600), { fetchFn: fake.fetch });
    expect(fake.requests).toHaveLength(ORDER_EMAIL_MAX_ATTEMPTS);
  });

  it("fails at once when Resend refuses the email for good (422)", async () => {
    const order = await placedOrder();
    const fake = new FakeResend();
    fake.failNext = { count: 1, status: 422, name: "validation_error" };
    await recordOrderEmail(resendEnv, db, order.id, "order-confirmation", { fetchFn: fake.fetch, now: T0 });
    const [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null });
    expect(email.lastError).toContain("422 validation_error");
    await deliverDueEmails(resendEnv, seconds(24 * 3600), { fetchFn: fake.fetch });
    expect(fake.requests).toHaveLength(1);
  });

  it("never fails the payment: a send that throws leaves the order paid and the email pending for the cron", async () => {
    const order = await placedOrder();
    const fake = resendBehindGlobalFetch();
    fake.dropNext = 1;
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), T0)).toBe("paid");
    expect((await loadOrder(order.id)).paymentStatus).toBe("paid");
    const [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ status: "pending", attempts: 1 });
    expect(email.lastError).toContain("Network connection lost");

    await deliverDueEmails(resendEnv, email.nextAttemptAt!, { fetchFn: fake.fetch });
    expect((await emailsOf(order.id))[0].status).toBe("sent");
  });

  it("never fails the payment when the email cannot even be recorded, and the cron records it later", async () => {
    const order = await placedOrder();
    // D1 refuses every new email row, as a failing database would.
    await dbRun("CREATE TRIGGER refuse_emails BEFORE INSERT ON order_emails BEGIN SELECT RAISE(ABORT, 'no emails today'); END");
    try {
      expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), T0)).toBe("paid");
    } finally {
      await dbRun("DROP TRIGGER refuse_emails");
    }
    expect((await loadOrder(order.id)).paymentStatus).toBe("paid");
    expect(await emailsOf(order.id)).toHaveLength(0);

    const fake = new FakeResend();
    expect(await deliverDueEmails(resendEnv, seconds(3600), { fetchFn: fake.fetch })).toMatchObject({ recorded: 1, sent: 1 });
    expect(await emailsOf(order.id)).toMatchObject([{ kind: "order-confirmation", status: "sent" }]);
  });

  it("is not recorded for an order without an email address, and the payment goes through", async () => {
    const order = await placedOrder();
    await dbRun("UPDATE orders SET customer_info = NULL WHERE id = ?", order.id);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    expect(await handleCheckoutEvent(resendEnv, db, paidEvent(order), T0)).toBe("paid");
    expect(await emailsOf(order.id)).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("shows a hostile book title as text in the html, and as it is in the plain text", async () => {
    const order = await placedOrder();
    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)> & Mum's`;
    await dbRun("UPDATE books SET title = ? WHERE id = ?", hostile, order.bookId);
    await recordOrderEmail(env, db, order.id, "order-confirmation", { now: T0 });
    const [email] = await emailsOf(order.id);
    expect(email.html).not.toContain("<script");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(email.html).toContain("&amp; Mum&#x27;s");
    expect(email.textBody).toContain(hostile);
  });
});

describe("shipped email", () => {
  it("carries the tracking number the desk set, with the tracking link, and is recorded once", async () => {
    const order = await placedOrder();
    await handleCheckoutEvent(env, db, paidEvent(order), T0);
    await dbRun(
      "UPDATE orders SET order_status = 'shipped', shipped_at = ?, tracking_number = ? WHERE id = ?",
      Math.floor(T0.getTime() / 1000),
      "RM123456789GB",
      order.id,
    );
    const fake = new FakeResend();
    await recordOrderEmail(resendEnv, db, order.id, "order-shipped", { fetchFn: fake.fetch, now: T0 });
    await recordOrderEmail(resendEnv, db, order.id, "order-shipped", { fetchFn: fake.fetch, now: seconds(60) });

    const shipped = (await emailsOf(order.id)).filter((email) => email.kind === "order-shipped");
    expect(shipped).toHaveLength(1);
    const [email] = shipped;
    expect(email.status).toBe("sent");
    for (const body of [email.html, email.textBody]) {
      expect(body).toContain("RM123456789GB");
      expect(body).toContain(order.orderNumber);
      expect(body).toContain(`${SHOP}/orders/${order.orderNumber}`);
    }
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].headers.get("Idempotency-Key")).toBe(`order-${order.id}-order-shipped`);
  });

  it("is delivered in the background when the caller hands in waitUntil", async () => {
    const order = await placedOrder();
    await handleCheckoutEvent(env, db, paidEvent(order), T0);
    await dbRun("UPDATE orders SET shipped_at = ?, tracking_number = 'TRACK1' WHERE id = ?", Math.floor(T0.getTime() / 1000), order.id);
    const fake = new FakeResend();
    const background: Promise<unknown>[] = [];
    await recordOrderEmail(resendEnv, db, order.id, "order-shipped", { fetchFn: fake.fetch, now: T0, waitUntil: (p) => background.push(p) });
    expect(background).toHaveLength(1);
    await Promise.all(background);
    expect((await emailsOf(order.id)).find((email) => email.kind === "order-shipped")?.status).toBe("sent");
  });
});

describe("the hourly cron", () => {
  it("records the confirmation a recently paid order is missing, and sends it", async () => {
    const order = await placedOrder();
    await handleCheckoutEvent(env, db, paidEvent(order), T0);
    await dbRun("DELETE FROM order_emails WHERE order_id = ?", order.id); // as if recording had failed
    const fake = new FakeResend();
    const report = await deliverDueEmails(resendEnv, seconds(3600), { fetchFn: fake.fetch });
    expect(report.recorded).toBeGreaterThanOrEqual(1);
    const [email] = await emailsOf(order.id);
    expect(email).toMatchObject({ kind: "order-confirmation", status: "sent" });
    expect(fake.delivered.filter((sent) => sent.to === TEST_DELIVERY.email && sent.subject.includes(order.orderNumber))).toHaveLength(1);
  });

  it("leaves orders paid before the repair window alone", async () => {
    const order = await placedOrder();
    const longAgo = new Date(T0.getTime() - (ORDER_EMAIL_REPAIR_WINDOW_DAYS + 1) * 24 * 3600 * 1000);
    await handleCheckoutEvent(env, db, paidEvent(order), longAgo);
    await dbRun("DELETE FROM order_emails WHERE order_id = ?", order.id);
    await deliverDueEmails(resendEnv, T0, { fetchFn: new FakeResend().fetch });
    expect(await emailsOf(order.id)).toHaveLength(0);
  });
});

describe("Resend provider against the fake API", () => {
  const email = { to: "ada@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi", idempotencyKey: "order-1-order-confirmation" };

  it("sends once per idempotency key and refuses the same key with another body", async () => {
    const fake = new FakeResend();
    const provider = resendProvider(FAKE_RESEND_KEY, "Shop <orders@shop.example>", fake.fetch);
    const first = await provider.send(email);
    const again = await provider.send(email);
    expect(first.status).toBe("sent");
    expect(again).toEqual(first);
    expect(fake.delivered).toHaveLength(1);
    expect(await provider.send({ ...email, subject: "Changed" })).toMatchObject({ status: "permanent", error: expect.stringContaining("409") });
  });

  it("tells retryable failures from permanent ones", async () => {
    const fake = new FakeResend();
    const provider = resendProvider(FAKE_RESEND_KEY, "Shop <orders@shop.example>", fake.fetch);
    fake.failNext = { count: 1, status: 503 };
    expect((await provider.send(email)).status).toBe("retryable");
    fake.failNext = { count: 1, status: 429, name: "rate_limit_exceeded" };
    expect((await provider.send(email)).status).toBe("retryable");
    fake.failNext = { count: 1, status: 409, name: "concurrent_idempotent_requests" };
    expect((await provider.send(email)).status).toBe("retryable");
    fake.dropNext = 1;
    expect((await provider.send(email)).status).toBe("retryable");
    expect((await resendProvider("re_wrong", "Shop <orders@shop.example>", fake.fetch).send(email)).status).toBe("permanent");
    expect((await provider.send({ ...email, to: "" })).status).toBe("permanent");
    expect(fake.delivered).toHaveLength(0);
    expect((await provider.send(email)).status).toBe("sent");
  });

  it("retries an answer without an id rather than calling it sent", async () => {
    const provider = resendProvider(FAKE_RESEND_KEY, "Shop <orders@shop.example>", async () => Response.json({}));
    expect((await provider.send(email)).status).toBe("retryable");
  });
});

describe("the customer's PDF link by email", () => {
  const submission = (orderId: number) =>
    ({
      queue: "print-submissions",
      messages: [{ id: `pdf-${orderId}`, timestamp: new Date(), attempts: 1, body: { orderId }, ack() {}, retry() {} }],
    }) as unknown as MessageBatch<unknown>;
  const linksIn = (emails: OrderEmail[]) => emails.flatMap((email) => email.textBody.match(/https?:\/\/\S+\/book\.pdf\?\S+/g) ?? []);

  it("comes in a second email once when the PDF is made after the confirmation, and the link downloads the book", async () => {
    const order = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null });
    await recordOrderEmail(env, db, order.id, "order-confirmation");
    expect(linksIn(await emailsOf(order.id))).toEqual([]);

    // The sketch Worker stored the PDF and sent the order on to print-submissions (twice: a redelivery).
    const pdfKey = `print/${order.orderNumber}.pdf`;
    await env.IMAGES.put(pdfKey, new TextEncoder().encode("%PDF-1.7 book"), { httpMetadata: { contentType: "application/pdf" } });
    await dbRun("UPDATE orders SET pdf_key = ?, pdf_ready_at = unixepoch() WHERE id = ?", pdfKey, order.id);
    await handlePrintSubmissions(submission(order.id), env);
    await handlePrintSubmissions(submission(order.id), env);
    await deliverDueEmails(env, new Date());

    const emails = await emailsOf(order.id);
    const ready = emails.filter((email) => email.kind === "pdf-ready");
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ subject: ORDER_EMAIL_TEXT.pdfReadySubject(order.orderNumber), status: "outbox", toAddress: "ada@example.com" });
    expect(ready[0].html).toContain(CUSTOMER_PDF_TEXT.download);
    const links = linksIn(emails);
    expect(links).toHaveLength(1);
    const days = (ready[0].pdfLinkUntil!.getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(CUSTOMER_PDF_LINK_DAYS);
    const link = new URL(links[0]);
    const download = await SELF.fetch(`${ORIGIN}${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
  });

  it("is in the confirmation when the PDF exists by then, and no second email follows", async () => {
    const order = await paidOrderWithPdf();
    await recordOrderEmail(env, db, order.id, "order-confirmation");
    await handlePrintSubmissions(submission(order.id), env);
    await deliverDueEmails(env, new Date());
    const emails = await emailsOf(order.id);
    expect(emails.map((email) => email.kind)).toEqual(["order-confirmation"]);
    expect(emails[0].pdfLinkUntil).toBeInstanceOf(Date);
    expect(linksIn(emails)).toHaveLength(1);
    expect(emails[0].html).toContain(CUSTOMER_PDF_TEXT.download);
  });

  it("is emailed by the hourly cron when the PDF was made but its email was never recorded", async () => {
    const order = await paidOrderWithPdf({ pdfKey: null, pdfReadyAt: null });
    await recordOrderEmail(env, db, order.id, "order-confirmation");
    await dbRun("UPDATE orders SET pdf_key = ?, pdf_ready_at = unixepoch() WHERE id = ?", `print/${order.orderNumber}.pdf`, order.id);
    // Not while the print-submissions consumer may still be recording it.
    await deliverDueEmails(env, new Date());
    expect((await emailsOf(order.id)).map((email) => email.kind)).toEqual(["order-confirmation"]);
    const later = new Date(Date.now() + 3600_000);
    await deliverDueEmails(env, later);
    await deliverDueEmails(env, later);
    const emails = await emailsOf(order.id);
    expect(emails.map((email) => email.kind).sort()).toEqual(["order-confirmation", "pdf-ready"]);
    expect(linksIn(emails)).toHaveLength(1);
  });
});
