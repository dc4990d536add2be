/**
 * The print partner's webhook (docs/decisions/028): Lulu-HMAC-SHA256 over the raw body checked
 * before anything is read; then statuses move the order on and never back: bad signature, old or
 * replayed body, unknown job, statuses out of order, shipped twice. And the local test printer,
 * whose moves reach the same handler the way Lulu's calls do.
 */
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ORDER_TRACKING_SHIPPED_TEXT } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { orderEmails } from "~/core/db/schema.server";
import { LOCAL_TEST_PRINTER_SECRET, localTestPrinter, luluSignature, moveLocalPrintJob } from "~/server/printing/local-test-printer.server";
import { handlePrintWebhook } from "~/server/printing/print-webhook.server";
import { sendOrderToPrinter } from "~/server/printing/printing.server";
import { ORIGIN, Visitor } from "./helpers";
import { orderById, paidOrderWithPdf } from "./print-helpers";

const db = database(env.DB);
const partner = localTestPrinter(db);

/** A paid order the local test printer has taken: its job id. */
async function sentOrder() {
  const order = await paidOrderWithPdf();
  const outcome = await sendOrderToPrinter(env, db, partner, order.id);
  if (outcome.status !== "sent") throw new Error(`not sent: ${JSON.stringify(outcome)}`);
  return { order, jobId: outcome.jobId };
}

function body(jobId: string, status: string, changed: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    topic: "PRINT_JOB_STATUS_CHANGED",
    data: {
      id: Number(jobId),
      status: { name: status, changed, messages: status === "REJECTED" ? { info: "Interior file: fonts not embedded." } : {} },
      line_items: [
        {
          status: {
            name: status,
            messages: status === "SHIPPED" ? { carrier_name: "Royal Mail", tracking_id: "RM123456789GB", tracking_urls: ["https://track.example/RM123456789GB"] } : {},
          },
        },
      ],
      ...extra,
    },
  });
}

async function deliver(raw: string, signature?: string) {
  const request = new Request(`${ORIGIN}/api/print-webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Lulu-HMAC-SHA256": signature ?? (await luluSignature(raw, LOCAL_TEST_PRINTER_SECRET)) },
    body: raw,
  });
  return handlePrintWebhook(env, db, partner, request);
}

async function shippedEmails(orderId: number) {
  return db.select().from(orderEmails).where(and(eq(orderEmails.orderId, orderId), eq(orderEmails.kind, "order-shipped")));
}

describe("print webhook: the signature comes first", () => {
  it("refuses a missing, malformed or wrong signature with 401, and reads nothing", async () => {
    const { order, jobId } = await sentOrder();
    const shipped = body(jobId, "SHIPPED", "2026-11-26T10:00:00Z");
    expect((await deliver(shipped, "")).status).toBe(401);
    expect((await deliver(shipped, "not-hex")).status).toBe(401);
    expect((await deliver(shipped, await luluSignature(shipped, "someone-elses-secret"))).status).toBe(401);
    // Signed for another body: a changed byte is a bad signature.
    expect((await deliver(shipped, await luluSignature(shipped.replace("RM123", "RM999"), LOCAL_TEST_PRINTER_SECRET))).status).toBe(401);
    // Not even parsed: a bad signature on a body that is not JSON is still 401, not 400.
    expect((await deliver("{not json", "00".repeat(32))).status).toBe(401);
    expect(await orderById(order.id)).toMatchObject({ printStatus: "sent", shippedAt: null, trackingNumber: null });
  });

  it("the route answers 404 when no print partner is configured (the manual desk)", async () => {
    const raw = body("1", "SHIPPED", "2026-11-26T10:00:00Z");
    const response = await SELF.fetch(`${ORIGIN}/api/print-webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Lulu-HMAC-SHA256": await luluSignature(raw, LOCAL_TEST_PRINTER_SECRET) },
      body: raw,
    });
    expect(response.status).toBe(404);
  });
});

describe("print webhook: statuses move the order on, never back", () => {
  it("in production, then shipped with carrier, tracking number and link, the shipped email, and the tracking page", async () => {
    const { order, jobId } = await sentOrder();
    expect((await deliver(body(jobId, "IN_PRODUCTION", "2026-11-26T10:00:00Z"))).body.outcome).toBe("applied");
    expect(await orderById(order.id)).toMatchObject({ printStatus: "in-production", orderStatus: "printing" });
    expect((await deliver(body(jobId, "SHIPPED", "2026-11-27T10:00:00Z"))).body.outcome).toBe("applied");
    const shipped = await orderById(order.id);
    expect(shipped).toMatchObject({
      printStatus: "shipped",
      orderStatus: "shipped",
      trackingNumber: "RM123456789GB",
      carrier: "Royal Mail",
      trackingUrl: "https://track.example/RM123456789GB",
    });
    expect(shipped.shippedAt).not.toBeNull();
    const [email] = await shippedEmails(order.id);
    expect(email.textBody).toContain("RM123456789GB");
    expect(email.textBody).toContain("Royal Mail");

    const page = await new Visitor().fetch(`/orders/${order.orderNumber}`, {
      method: "POST",
      headers: { Origin: ORIGIN, Host: new URL(ORIGIN).host, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "ada@example.com" }),
    });
    const html = await page.text();
    expect(html).toContain("RM123456789GB");
    expect(html).toContain("Royal Mail");
    expect(html).toContain('href="https://track.example/RM123456789GB"');
    expect(html).toContain(ORDER_TRACKING_SHIPPED_TEXT.trackingLink);
  });

  it("a replayed body changes nothing, and shipped twice keeps the first shipment and sends one email", async () => {
    const { order, jobId } = await sentOrder();
    const shipped = body(jobId, "SHIPPED", "2026-11-27T10:00:00Z");
    expect((await deliver(shipped)).body.outcome).toBe("applied");
    const first = await orderById(order.id);
    expect((await deliver(shipped)).body).toEqual({ received: true, outcome: "unchanged" });
    const otherShipment = shipped.replaceAll("RM123456789GB", "RM000000000GB");
    expect((await deliver(otherShipment)).body.outcome).toBe("unchanged");
    const after = await orderById(order.id);
    expect(after.trackingNumber).toBe("RM123456789GB");
    expect(after.shippedAt).toEqual(first.shippedAt);
    expect(await shippedEmails(order.id)).toHaveLength(1);
  });

  it("statuses out of order: a late IN_PRODUCTION or CREATED after SHIPPED, or a REJECTED after it, never moves it back", async () => {
    const { order, jobId } = await sentOrder();
    await deliver(body(jobId, "SHIPPED", "2026-11-27T10:00:00Z"));
    for (const late of ["IN_PRODUCTION", "CREATED", "PRODUCTION_READY", "REJECTED", "CANCELED"]) {
      expect((await deliver(body(jobId, late, "2026-11-28T10:00:00Z"))).body.outcome, late).toBe("unchanged");
    }
    expect(await orderById(order.id)).toMatchObject({ printStatus: "shipped", orderStatus: "shipped", printStatusDetail: null });
  });

  it("an old body (its change older than the last one applied) is ignored", async () => {
    const { order, jobId } = await sentOrder();
    await deliver(body(jobId, "IN_PRODUCTION", "2026-11-27T10:00:00Z"));
    // A rejection Lulu sent earlier, delivered late by its retries: older than what we applied.
    expect((await deliver(body(jobId, "REJECTED", "2026-11-26T09:00:00Z"))).body.outcome).toBe("unchanged");
    expect(await orderById(order.id)).toMatchObject({ printStatus: "in-production", printStatusDetail: null });
  });

  it("a rejection is kept with the partner's reason for the desk", async () => {
    const { order, jobId } = await sentOrder();
    expect((await deliver(body(jobId, "REJECTED", "2026-11-27T10:00:00Z"))).body.outcome).toBe("applied");
    expect(await orderById(order.id)).toMatchObject({ printStatus: "rejected", printStatusDetail: "Interior file: fonts not embedded.", orderStatus: "printing" });
  });

  it("a job that is no order's is acknowledged (200) and changes nothing; another topic is ignored", async () => {
    const { order } = await sentOrder();
    expect(await deliver(body("987654", "SHIPPED", "2026-11-27T10:00:00Z"))).toEqual({ status: 200, body: { received: true, outcome: "unknown-job" } });
    const otherTopic = JSON.stringify({ topic: "SOMETHING_ELSE", data: {} });
    expect((await deliver(otherTopic)).body.outcome).toBe("ignored");
    expect((await orderById(order.id)).printStatus).toBe("sent");
  });
});

describe("the local test printer", () => {
  it("takes a job once per external id, and its moves reach the webhook signed as Lulu's do", async () => {
    const { order, jobId } = await sentOrder();
    // Sent again (a redelivered message): the same job.
    const again = await partner.submitJob({ externalId: order.orderNumber, title: "x", quantity: 1, interiorUrl: "https://a", coverUrl: "https://b", shipTo: order.customerInfo! });
    expect(again.id).toBe(jobId);
    const now = new Date();
    for (const move of ["IN_PRODUCTION", "SHIPPED"] as const) {
      const request = await moveLocalPrintJob(db, Number(jobId), move, ORIGIN, now);
      expect(request!.headers.get("Lulu-HMAC-SHA256")).toMatch(/^[0-9a-f]{64}$/);
      expect((await handlePrintWebhook(env, db, partner, request!)).body.outcome).toBe("applied");
    }
    const shipped = await orderById(order.id);
    expect(shipped).toMatchObject({ printStatus: "shipped", carrier: "Test Post" });
    expect(shipped.trackingNumber).toMatch(/^TEST\d{8}$/);
  });
});

describe("the orders desk shows the printer's side", () => {
  async function deskCookie() {
    const response = await SELF.fetch(`${ORIGIN}/admin/sign-in`, { method: "POST", body: new URLSearchParams({ password: env.ADMIN_LOCAL_PASSWORD! }), redirect: "manual" });
    return response.headers.getSetCookie().find((cookie) => cookie.startsWith("cb_admin="))!.split(";")[0];
  }

  it("a rejected order shows the printer's reason and job, and Send again queues it with a new external id", async () => {
    const { order, jobId } = await sentOrder();
    await deliver(body(jobId, "REJECTED", "2026-11-27T10:00:00Z"));
    const cookie = await deskCookie();
    const desk = await SELF.fetch(`${ORIGIN}/admin?_data=routes%2Fadmin._index`, { headers: { Cookie: cookie } });
    const { orders } = (await desk.json()) as { orders: { orderNumber: string; status: string; print: unknown; can: { sendAgain: boolean; sendToPrint: boolean } }[] };
    const card = orders.find((candidate) => candidate.orderNumber === order.orderNumber)!;
    expect(card).toMatchObject({
      status: "print-rejected",
      print: { partner: "local-test", jobId, detail: "Interior file: fonts not embedded." },
      can: { sendAgain: true, sendToPrint: false },
    });

    const act = (intent: string) =>
      SELF.fetch(`${ORIGIN}/admin?index&_data=routes%2Fadmin._index`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams({ intent, orderNumber: order.orderNumber }),
      });
    const again = await act("send-again");
    expect(again.status).toBe(200);
    expect(await orderById(order.id)).toMatchObject({ printStatus: null, printJobId: null, printAttempt: 2 });
    // Only once: it is no longer rejected.
    expect((await act("send-again")).status).toBe(409);
  });
});
