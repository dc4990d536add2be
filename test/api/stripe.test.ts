/**
 * The Stripe implementation against a fake Stripe API (outbound fetch handed to the client;
 * no network): what we send, and the webhook that is the only way a card payment marks an
 * order paid.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import readme from "../../README.md?raw";
import { CHECKOUT_TTL_SECONDS, PLANS, STRIPE_CHECKOUT_MAX_TTL_SECONDS, STRIPE_CHECKOUT_MIN_TTL_SECONDS } from "~/lib/shop-rules";
import { database } from "~/core/db/database.server";
import { orders, paymentProblems, type Order } from "~/core/db/schema.server";
import { handleCheckoutEvent, startOrderPayment } from "~/server/payments/payments.server";
import { STRIPE_API_VERSION, stripeProvider } from "~/server/payments/stripe.server";
import Stripe from "stripe";
import { eq } from "drizzle-orm";
import { FakeStripe, signedEvent } from "./fake-stripe";
import { orderRow, placeOrder, readyBook, uploadedPhotos, Visitor } from "./helpers";

const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" };
const db = database(env.DB);

async function loadOrder(id: number): Promise<Order> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) throw new Error(`no order ${id}`);
  return order;
}

async function bookOrder(selected = 5) {
  const visitor = new Visitor();
  const { bookId, quoteId } = await readyBook(visitor, selected);
  const orderId = await placeOrder(visitor, bookId, quoteId);
  return { visitor, bookId, orderId };
}

function pay(order: Order, fake: FakeStripe, now?: Date) {
  return startOrderPayment({ env: stripeEnv, db, origin: "https://shop.example", fetchFn: fake.fetch, now }, order);
}

async function deliver(type: string, session: Record<string, unknown>, options?: Parameters<typeof signedEvent>[2]) {
  const { payload, signature } = await signedEvent(type, session, options);
  return SELF.fetch("http://shop.test/api/stripe-webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
}

describe("Stripe Checkout session", () => {
  it("is created with our server's prices in GBP, our order as reference, and an idempotency key", async () => {
    const { orderId, bookId } = await bookOrder(6);
    const fake = new FakeStripe();
    const now = new Date();
    const result = await pay(await loadOrder(orderId), fake, now);

    expect(fake.creates).toHaveLength(1);
    const [request] = fake.creates;
    expect(request.headers.get("Authorization")).toBe("Bearer sk_test_fake_key");
    expect(request.headers.get("Idempotency-Key")).toBe(`order-${orderId}-attempt-1`);
    const form = Object.fromEntries(request.form);
    expect(form).toMatchObject({
      mode: "payment",
      client_reference_id: String(orderId),
      "metadata[orderId]": String(orderId),
      "metadata[bookId]": String(bookId),
      "metadata[pages]": "8",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "gbp",
      "line_items[0][price_data][unit_amount]": String(PLANS.standard.price),
      success_url: `https://shop.example/book/${bookId}/order?session_id={CHECKOUT_SESSION_ID}`,
      customer_email: "ada@example.com",
      expires_at: String(Math.floor(now.getTime() / 1000) + CHECKOUT_TTL_SECONDS),
    });
    expect(form["line_items[1][quantity]"]).toBeUndefined(); // free shipping adds no line
    expect(form["shipping_address_collection[allowed_countries][0]"]).toBeUndefined(); // the address is known

    expect(result.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying", payment_attempt: 1, payment_url: result.checkoutUrl });
  });

  it("is created in the pinned API version with Adaptive Pricing off, and the README sets the webhook up in that version", async () => {
    const { orderId } = await bookOrder();
    const fake = new FakeStripe();
    await pay(await loadOrder(orderId), fake);
    const [request] = fake.creates;
    expect(request.headers.get("Stripe-Version")).toBe(STRIPE_API_VERSION);
    // Amounts are compared in GBP: a buyer must not pay in a currency Stripe converts to.
    expect(request.form.get("adaptive_pricing[enabled]")).toBe("false");
    expect(readme).toContain(`api_version=${STRIPE_API_VERSION}`);
  });

  it("asks Stripe to collect the address of a create-book order, and its quantity", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 16, "premium");
    const made = await visitor.send("POST", "/api/create-checkout-session", {
      bookType: "premium", title: "Holiday", quantity: 3, agreeToTerms: true, newsletterSignup: false, filesCount: 16, uploadKeys: keys,
    });
    const { orderId } = (await made.json()) as { orderId: number };
    // Paying locally already claimed it; let the Stripe attempt take over as after a key rotation.
    await env.DB.prepare("UPDATE orders SET payment_status = 'pending' WHERE id = ?").bind(orderId).run();
    const fake = new FakeStripe();
    await pay(await loadOrder(orderId), fake);
    const form = Object.fromEntries(fake.creates[0].form);
    expect(form).toMatchObject({
      "line_items[0][quantity]": "3",
      "line_items[0][price_data][unit_amount]": String(PLANS.premium.price),
      "shipping_address_collection[allowed_countries][0]": "US",
      "shipping_address_collection[allowed_countries][2]": "GB",
      // The print partner needs a phone number for the carrier.
      "phone_number_collection[enabled]": "true",
      success_url: "https://shop.example/success?session_id={CHECKOUT_SESSION_ID}",
    });
    // Stripe's back link closes this attempt's checkout (decision 018), then shows /cancel.
    expect(form.cancel_url).toMatch(new RegExp(`^https://shop\\.example/checkout/${orderId}/cancel\\?attempt=\\d+&token=[\\w-]+$`));
    expect(fake.sessions.get([...fake.sessions.keys()][0])!.amount_total).toBe(PLANS.premium.price * 3);
  });

  it("opens one session for concurrent payment requests, and hands it out again afterwards", async () => {
    const { orderId } = await bookOrder();
    const fake = new FakeStripe();
    const order = await loadOrder(orderId);
    const results = await Promise.allSettled([pay(order, fake), pay(order, fake), pay(order, fake)]);
    expect(fake.creates).toHaveLength(1);
    const opened = results.filter((result) => result.status === "fulfilled");
    expect(opened).toHaveLength(1);
    for (const refused of results.filter((result) => result.status === "rejected")) {
      expect((refused.reason as Response).status).toBe(409);
    }
    const again = await pay(await loadOrder(orderId), fake);
    expect(fake.creates).toHaveLength(1);
    expect(again.checkoutUrl).toBe((opened[0] as PromiseFulfilledResult<{ checkoutUrl: string }>).value.checkoutUrl);
  });

  it("asks for an expires_at Stripe still accepts when the call reaches it late (not exactly its 30-minute minimum)", async () => {
    const { orderId } = await bookOrder();
    const fake = new FakeStripe();
    // Our clock was read 20 s before Stripe created the session: D1 round trips, a retried call, clock skew.
    const startedAt = new Date(Date.now() - 20_000);
    const result = await pay(await loadOrder(orderId), fake, startedAt);
    expect(result.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const left = Number(fake.creates[0].form.get("expires_at")) - fake.clock();
    expect(left).toBeGreaterThanOrEqual(STRIPE_CHECKOUT_MIN_TTL_SECONDS);
    expect(left).toBeLessThanOrEqual(STRIPE_CHECKOUT_MAX_TTL_SECONDS);
    expect(CHECKOUT_TTL_SECONDS).toBeLessThan(STRIPE_CHECKOUT_MAX_TTL_SECONDS);
  });

  it("releases the claim when Stripe fails, so the buyer can try again", async () => {
    const { orderId } = await bookOrder();
    const fake = new FakeStripe();
    fake.failNext = { count: 1, status: 400 };
    const failure = await pay(await loadOrder(orderId), fake).catch((error: Response) => error);
    expect((failure as Response).status).toBe(502);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "pending", payment_attempt: 1 });
    const retry = await pay(await loadOrder(orderId), fake);
    expect(retry.checkoutUrl).toBeTruthy();
    expect(fake.creates.at(-1)!.headers.get("Idempotency-Key")).toBe(`order-${orderId}-attempt-2`);
  });

  it("closes the first order's session at Stripe before a second quote's order of the book is paid", async () => {
    const { visitor, bookId, orderId: first } = await bookOrder();
    const fake = new FakeStripe();
    const firstPayment = await pay(await loadOrder(first), fake);
    const secondQuote = (await (await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "UK", zipCode: "EC1A 1BB" } })).json()) as { quoteId: string };
    const second = await placeOrder(visitor, bookId, secondQuote.quoteId, "EC1A 1BB");
    await pay(await loadOrder(second), fake);
    const firstSession = (await orderRow(first))!;
    expect(firstSession.payment_status).toBe("pending");
    expect([...fake.sessions.values()].find((s) => s.url === firstPayment.checkoutUrl)!.status).toBe("expired");

    // Had the first session been paid meanwhile, the second order must not open at all.
    const { orderId: third, bookId: otherBook, visitor: other } = await bookOrder();
    const paid = await pay(await loadOrder(third), fake);
    fake.complete(paid.checkoutUrl!.split("/").at(-1)!);
    const q = (await (await other.send("POST", `/api/books/${otherBook}/quote`, { deliveryAddress: { country: "UK", zipCode: "EC1A 1BB" } })).json()) as { quoteId: string };
    const fourth = await placeOrder(other, otherBook, q.quoteId, "EC1A 1BB");
    const refused = await pay(await loadOrder(fourth), fake).catch((error: Response) => error);
    expect((refused as Response).status).toBe(409);
  });
});

describe("the fake Stripe's expire call, as Stripe answers it", () => {
  async function openedSession() {
    const { orderId } = await bookOrder();
    const fake = new FakeStripe();
    const sessionId = (await pay(await loadOrder(orderId), fake)).checkoutUrl!.split("/").at(-1)!;
    const stripe = new Stripe("sk_test_fake_key", { httpClient: Stripe.createFetchHttpClient(fake.fetch), maxNetworkRetries: 0 });
    return { fake, sessionId, stripe };
  }

  it("expires an open session, once: a second expire is refused", async () => {
    const { fake, sessionId, stripe } = await openedSession();
    const expired = await stripe.checkout.sessions.expire(sessionId);
    expect(expired).toMatchObject({ id: sessionId, status: "expired", payment_status: "unpaid" });
    const again = await stripe.checkout.sessions.expire(sessionId).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((again as Stripe.errors.StripeError).statusCode).toBe(400);
    expect(fake.sessions.get(sessionId)!.status).toBe("expired");
  });

  it("refuses to expire a completed session, which stays complete and paid", async () => {
    const { fake, sessionId, stripe } = await openedSession();
    fake.complete(sessionId);
    const refused = await stripe.checkout.sessions.expire(sessionId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((refused as Stripe.errors.StripeError).statusCode).toBe(400);
    expect(fake.sessions.get(sessionId)).toMatchObject({ status: "complete", payment_status: "paid" });
  });

  it("answers 404 for a session it does not know, and a GET of an expire URL is no expire", async () => {
    const { fake, sessionId, stripe } = await openedSession();
    const unknown = await stripe.checkout.sessions.expire("cs_test_unknown").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((unknown as Stripe.errors.StripeError).statusCode).toBe(404);
    const get = await fake.fetch(`https://api.stripe.com/v1/checkout/sessions/${sessionId}/expire`, { method: "GET" });
    expect(get.status).toBe(404);
    expect(fake.sessions.get(sessionId)!.status).toBe("open");
  });

  it("is read by our provider as expired, completed, or already expired", async () => {
    const { fake, sessionId } = await openedSession();
    const provider = stripeProvider("sk_test_fake_key", fake.fetch);
    expect(await provider.expireCheckout(sessionId)).toBe("expired");
    expect(await provider.expireCheckout(sessionId)).toBe("expired"); // refused, then retrieved: expired
    const paid = await openedSession();
    paid.fake.complete(paid.sessionId);
    expect(await stripeProvider("sk_test_fake_key", paid.fake.fetch).expireCheckout(paid.sessionId)).toBe("completed");
  });
});

describe("Stripe webhook", () => {
  async function openSession() {
    const made = await bookOrder();
    const fake = new FakeStripe();
    const { checkoutUrl } = await pay(await loadOrder(made.orderId), fake);
    const sessionId = checkoutUrl!.split("/").at(-1)!;
    return { ...made, fake, sessionId, session: () => ({ ...fake.sessions.get(sessionId)! }) };
  }

  it("marks the order paid on a verified, paid checkout.session.completed", async () => {
    const { orderId, bookId, fake, sessionId } = await openSession();
    const response = await deliver("checkout.session.completed", fake.complete(sessionId));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: "paid" });
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paid", order_status: "paid", payment_session_id: sessionId });
    expect(await env.DB.prepare("SELECT status, total_pages FROM books WHERE id = ?").bind(bookId).first()).toEqual({ status: "ordered", total_pages: 7 });
  });

  it("refuses a tampered, expired, wrongly signed or unsigned event and changes nothing", async () => {
    const { orderId, fake, sessionId } = await openSession();
    const paidSession = fake.complete(sessionId);
    const good = await signedEvent("checkout.session.completed", paidSession);

    const tampered = good.payload.replace(`"amount_total":${paidSession.amount_total}`, `"amount_total":1`);
    const stale = await signedEvent("checkout.session.completed", paidSession, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const otherSecret = await signedEvent("checkout.session.completed", paidSession, { secret: "whsec_someone_else" });
    const attempts: [string, Record<string, string>][] = [
      [tampered, { "Stripe-Signature": good.signature }],
      [stale.payload, { "Stripe-Signature": stale.signature }],
      [otherSecret.payload, { "Stripe-Signature": otherSecret.signature }],
      [good.payload, {}],
      [good.payload, { "Stripe-Signature": "t=1,v1=deadbeef" }],
    ];
    for (const [body, headers] of attempts) {
      const response = await SELF.fetch("http://shop.test/api/stripe-webhook", { method: "POST", headers, body });
      expect(response.status).toBe(400);
    }
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
  });

  it("fulfils once when the same event arrives twice, and twice at the same time", async () => {
    const { orderId, fake, sessionId } = await openSession();
    const session = fake.complete(sessionId);
    const event = await signedEvent("checkout.session.completed", session, { eventId: "evt_same" });
    const send = () =>
      SELF.fetch("http://shop.test/api/stripe-webhook", {
        method: "POST",
        headers: { "Stripe-Signature": event.signature },
        body: event.payload,
      }).then((response) => response.json() as Promise<{ outcome: string }>);
    const outcomes = (await Promise.all([send(), send()])).map((body) => body.outcome).sort();
    expect(outcomes).toEqual(["already-paid", "paid"]);
    expect((await send()).outcome).toBe("already-paid");
    const paidOrders = await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE id = ? AND payment_status = 'paid'").bind(orderId).first("n");
    expect(paidOrders).toBe(1);
  });

  it("ignores a completed session that is not paid yet, then fulfils on async_payment_succeeded", async () => {
    const { orderId, session } = await openSession();
    const unpaid = { ...session(), status: "complete", payment_status: "unpaid" };
    expect(await (await deliver("checkout.session.completed", unpaid)).json()).toMatchObject({ outcome: "ignored" });
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
    const succeeded = { ...unpaid, payment_status: "paid" };
    expect(await (await deliver("checkout.session.async_payment_succeeded", succeeded)).json()).toMatchObject({ outcome: "paid" });
  });

  it("does not fulfil a payment whose amount or currency differs from our record", async () => {
    const { orderId, fake, sessionId } = await openSession();
    const session = fake.complete(sessionId);
    expect(await (await deliver("checkout.session.completed", { ...session, amount_total: session.amount_total - 1 })).json()).toMatchObject({
      outcome: "amount-mismatch",
    });
    expect(await (await deliver("checkout.session.completed", { ...session, currency: "usd" })).json()).toMatchObject({
      outcome: "amount-mismatch",
    });
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
  });

  it("frees an expired session's order, and an expiry arriving after the payment changes nothing", async () => {
    const first = await openSession();
    const expired = { ...first.session(), status: "expired" };
    expect(await (await deliver("checkout.session.expired", expired)).json()).toMatchObject({ outcome: "released" });
    expect(await orderRow(first.orderId)).toMatchObject({ payment_status: "pending", payment_session_id: null });

    const second = await openSession();
    const paid = second.fake.complete(second.sessionId);
    await deliver("checkout.session.completed", paid);
    expect(await (await deliver("checkout.session.expired", { ...paid, status: "expired" })).json()).toMatchObject({ outcome: "ignored" });
    expect(await orderRow(second.orderId)).toMatchObject({ payment_status: "paid" });
  });

  it("takes the delivery address Stripe collected for a create-book order", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const made = await visitor.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "Posted", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const { orderId } = (await made.json()) as { orderId: number };
    await env.DB.prepare("UPDATE orders SET payment_status = 'pending' WHERE id = ?").bind(orderId).run();
    const fake = new FakeStripe();
    const { checkoutUrl } = await pay(await loadOrder(orderId), fake);
    const session = fake.complete(checkoutUrl!.split("/").at(-1)!);
    const response = await deliver("checkout.session.completed", {
      ...session,
      customer_details: { email: "grace@example.com", name: "Grace Hopper" },
      collected_information: {
        shipping_details: { name: "Grace Brewster Hopper", address: { line1: "1 High Street", line2: null, city: "Oxford", postal_code: "OX1 1AA", country: "GB", state: null } },
      },
    });
    expect(await response.json()).toMatchObject({ outcome: "paid" });
    const row = await orderRow(orderId);
    expect(JSON.parse(row!.customer_info as string)).toEqual({
      firstName: "Grace",
      lastName: "Brewster Hopper",
      email: "grace@example.com",
      address1: "1 High Street",
      city: "Oxford",
      zipCode: "OX1 1AA",
      country: "UK",
    });
  });

  it("takes the phone number and the US state Stripe collected, as the print partner needs them", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const made = await visitor.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "Posted to Ohio", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const { orderId } = (await made.json()) as { orderId: number };
    await env.DB.prepare("UPDATE orders SET payment_status = 'pending' WHERE id = ?").bind(orderId).run();
    const fake = new FakeStripe();
    const { checkoutUrl } = await pay(await loadOrder(orderId), fake);
    const session = fake.complete(checkoutUrl!.split("/").at(-1)!);
    await deliver("checkout.session.completed", {
      ...session,
      customer_details: { email: "grace@example.com", name: "Grace Hopper", phone: "+1 614 555 0100" },
      collected_information: {
        shipping_details: { name: "Grace Hopper", address: { line1: "1 High Street", line2: null, city: "Columbus", postal_code: "43004", country: "US", state: "oh" } },
      },
    });
    expect(JSON.parse((await orderRow(orderId))!.customer_info as string)).toMatchObject({ country: "US", stateCode: "OH", phone: "+1 614 555 0100" });
  });

  it("refuses an event in another API version (not 2xx, so Stripe retries it) and changes nothing", async () => {
    const { orderId, fake, sessionId } = await openSession();
    const response = await deliver("checkout.session.completed", fake.complete(sessionId), { apiVersion: "2024-06-20" });
    expect(response.status).toBe(503);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
  });

  it("holds a create-book order paid without a delivery address back from print and lists it for the desk", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const made = await visitor.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "No address", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const order = await loadOrder(((await made.json()) as { orderId: number }).orderId);
    const printJobs = vi.fn(async () => undefined);
    const watched = { ...env, PRINT_QUEUE: { ...env.PRINT_QUEUE, send: printJobs } } as unknown as typeof env;
    const paidWithoutAddress = {
      type: "checkout.session.completed",
      sessionId: order.paymentSessionId!,
      orderId: order.id,
      paymentStatus: "paid",
      amountTotal: order.pricing.total,
      currency: "gbp",
      customer: null,
    } as const;
    expect(await handleCheckoutEvent(watched, db, paidWithoutAddress)).toBe("paid");
    expect(await handleCheckoutEvent(watched, db, paidWithoutAddress)).toBe("already-paid"); // a replay prints nothing either
    expect(printJobs).not.toHaveBeenCalled();
    expect(await orderRow(order.id)).toMatchObject({ payment_status: "paid", customer_info: null });
    const [problem] = await db.select().from(paymentProblems).where(eq(paymentProblems.orderId, order.id));
    expect(problem).toMatchObject({ kind: "no-address", sessionId: order.paymentSessionId, refundedAt: null });
  });

  it("acknowledges events it does not handle, and events naming no order of ours", async () => {
    expect(await (await deliver("customer.created", { id: "cus_1", object: "customer" })).json()).toEqual({ received: true, outcome: "ignored" });
    const response = await deliver("checkout.session.completed", {
      id: "cs_test_unknown", object: "checkout.session", client_reference_id: "999999", payment_status: "paid", amount_total: 1999, currency: "gbp",
    });
    expect(await response.json()).toEqual({ received: true, outcome: "ignored" });
  });
});
