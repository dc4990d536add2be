/**
 * Payment starts count against the visitor's limits (decision 012's shop actions): looping "pay
 * A, pay B" over two orders of one book makes every request close one checkout at the provider and
 * open another, so each such start is counted, per session and per address, and refused with 429
 * before the provider is called again. Handing out a checkout that is still open costs nothing.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SHOP_DAILY_LIMITS } from "~/lib/shop-rules";
import { SHOP_LIMIT_MESSAGES } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { books, orders, type Order } from "~/core/db/schema.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";
import { startOrderPayment } from "~/server/payments/payments.server";
import { FakeStripe } from "./fake-stripe";
import { dbRun, placeOrder, quoteFor, readyBook, uploadedPhotos, Visitor, type ApiError } from "./helpers";

const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" };
const db = database(env.DB);
const PAYMENT_STARTS_PER_SESSION = SHOP_DAILY_LIMITS.payment.perSession;

async function loadOrder(id: number): Promise<Order> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) throw new Error(`no order ${id}`);
  return order;
}

/** One book, two quotes, two orders of it (A and B), as a visitor makes them. */
async function twoOrdersOfOneBook(visitor = new Visitor()) {
  const { bookId, quoteId } = await readyBook(visitor, 5);
  const first = await placeOrder(visitor, bookId, quoteId);
  const second = await placeOrder(visitor, bookId, await quoteFor(visitor, bookId, "EC1A 1BB"), "EC1A 1BB");
  return { visitor, bookId, orders: [first, second] as const };
}

describe("payment starts are limited", () => {
  it("looping pay A, pay B against Stripe: 429 after the session's daily starts, and Stripe is not called again", async () => {
    const { bookId, orders: [a, b] } = await twoOrdersOfOneBook();
    const [{ sessionId }] = await db.select({ sessionId: books.sessionId }).from(books).where(eq(books.id, bookId));
    const request = new Request("https://shop.example/api/orders/payment", { method: "POST", headers: { "CF-Connecting-IP": "198.51.100.23" } });
    const fake = new FakeStripe();
    const chargeProviderCall = () => requireShopAllowance(stripeEnv, db, request, sessionId, "payment");
    const pay = async (orderId: number) =>
      startOrderPayment({ env: stripeEnv, db, origin: "https://shop.example", fetchFn: fake.fetch, chargeProviderCall }, await loadOrder(orderId)).then(
        () => 200,
        async (error: Response) => {
          expect(error).toBeInstanceOf(Response);
          if (error.status === 429) expect(((await error.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
          return error.status;
        },
      );

    let started = 0;
    let refusedOrder: number | null = null;
    for (let round = 0; round < PAYMENT_STARTS_PER_SESSION + 5; round++) {
      const callsBefore = fake.requests.length;
      const orderId = round % 2 === 0 ? a : b;
      const status = await pay(orderId);
      if (status === 429) {
        refusedOrder = orderId;
        expect(fake.requests.length, "no call reaches Stripe once the starts are used up").toBe(callsBefore);
        break;
      }
      expect(status).toBe(200);
      expect(fake.requests.length).toBeGreaterThan(callsBefore);
      started += 1;
    }
    expect(started).toBe(PAYMENT_STARTS_PER_SESSION);
    // Still refused, and still nothing sent to Stripe; the other order's open checkout is still handed out.
    const callsBefore = fake.requests.length;
    expect(await pay(refusedOrder!)).toBe(429);
    expect(await pay(refusedOrder === a ? b : a)).toBe(200);
    expect(fake.requests.length).toBe(callsBefore);
  });

  it("POST /api/orders/{id}/payment: 429 with Retry-After once the starts are used up; the open checkout handed out again is free", async () => {
    const { visitor, orders: [a, b] } = await twoOrdersOfOneBook();
    const start = (orderId: number) => visitor.send("POST", `/api/orders/${orderId}/payment`, { paymentMethod: "card" });

    // The same open checkout, again and again: the provider is not called, nothing is counted.
    expect((await start(a)).status).toBe(200);
    for (let again = 0; again < PAYMENT_STARTS_PER_SESSION + 5; again++) expect((await start(a)).status).toBe(200);

    let started = 1;
    let refused: Response | null = null;
    for (let round = 0; round < PAYMENT_STARTS_PER_SESSION + 5 && !refused; round++) {
      const response = await start(round % 2 === 0 ? b : a);
      if (response.status === 429) refused = response;
      else {
        expect(response.status, await response.text()).toBe(200);
        started += 1;
      }
    }
    expect(started).toBe(PAYMENT_STARTS_PER_SESSION);
    expect(refused).not.toBeNull();
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await refused!.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
  });

  it("POST /api/retry-payment counts each new checkout it opens, and refuses with 429 once they are used up", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const opened = await visitor.send("POST", "/api/create-checkout-session", {
      bookType: "standard",
      title: "Grandpa's Garden",
      quantity: 1,
      agreeToTerms: true,
      newsletterSignup: false,
      sessionId: "1732300000000-abc123xyz",
      filesCount: keys.length,
      uploadKeys: keys,
    });
    expect(opened.status, await opened.clone().text()).toBe(200);
    const { orderId } = (await opened.json()) as { orderId: number };

    let started = 1; // the checkout just opened
    let refused: Response | null = null;
    for (let round = 0; round < PAYMENT_STARTS_PER_SESSION + 5 && !refused; round++) {
      // The buyer's checkout ran out: the next retry opens a new one at the provider.
      await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
      const response = await visitor.send("POST", "/api/retry-payment", {});
      if (response.status === 429) refused = response;
      else {
        expect(response.status, await response.text()).toBe(200);
        started += 1;
      }
    }
    expect(started).toBe(PAYMENT_STARTS_PER_SESSION);
    expect(((await refused!.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
  });
});
