/**
 * docs/product.md §5.10: /orders/{number} for the session that placed the order, and for anyone with
 * the number and the email it was placed with; for everyone else the same lookup form, 404.
 */
import { describe, expect, it } from "vitest";
import { ORDER_TRACKING_TEXT } from "~/lib/customer-copy";
import { ORIGIN, payLocally, placeOrder, readyBook, startPayment, Visitor } from "./helpers";

async function paidOrder() {
  const owner = new Visitor();
  const { bookId, quoteId } = await readyBook(owner, 5);
  const orderId = await placeOrder(owner, bookId, quoteId);
  await payLocally(owner, await startPayment(owner, orderId));
  const row = await owner.fetch(`/api/books/${bookId}/progress`);
  expect(row.status).toBe(200);
  const { env } = await import("cloudflare:test");
  const orderNumber = await env.DB.prepare("SELECT order_number FROM orders WHERE id = ?").bind(orderId).first<string>("order_number");
  return { owner, orderNumber: orderNumber! };
}

function lookup(visitor: Visitor, orderNumber: string, email: string) {
  return visitor.fetch(`/orders/${orderNumber}`, {
    method: "POST",
    headers: { Origin: ORIGIN, Host: new URL(ORIGIN).host, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });
}

describe("order tracking", () => {
  it("shows the order to the session that placed it", async () => {
    const { owner, orderNumber } = await paidOrder();
    const page = await owner.fetch(`/orders/${orderNumber}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Order ${orderNumber}`);
    expect(html).toContain("Being printed");
    expect(html).toContain("Estimated delivery");
  });

  it("asks anyone else for the email, and shows nothing for a wrong one or an unknown number", async () => {
    const { orderNumber } = await paidOrder();
    const stranger = new Visitor();
    const page = await stranger.fetch(`/orders/${orderNumber}`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain(ORDER_TRACKING_TEXT.lookupTitle);
    expect(html).not.toContain("Being printed");
    const unknown = await stranger.fetch("/orders/CB-20990101-ZZZZZ");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(ORDER_TRACKING_TEXT.lookupTitle); // the same answer

    const wrong = await lookup(stranger, orderNumber, "someone@example.com");
    expect(wrong.status).toBe(404);
    expect(await wrong.text()).toContain(ORDER_TRACKING_TEXT.notFound);
  });

  it("shows the order to a new browser that gives the number and the email it was placed with", async () => {
    const { orderNumber } = await paidOrder();
    const lostCookie = new Visitor();
    const found = await lookup(lostCookie, orderNumber, "  ADA@example.com ");
    expect(found.status).toBe(200);
    const html = await found.text();
    expect(html).toContain(`Order ${orderNumber}`);
    expect(html).toContain("Being printed");
  });

  it("limits email guesses per session", async () => {
    const { orderNumber } = await paidOrder();
    const guesser = new Visitor();
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i++) last = (await lookup(guesser, orderNumber, `guess${i}@example.com`)).status;
    expect(last).toBe(429);
  });
});
