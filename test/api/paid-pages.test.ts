/**
 * Decision 018: a book cannot change under an open checkout, and what is printed is what was paid
 * for. The order records its pages when a payment attempt claims it; every change of the book's
 * pages is refused (409) while that checkout is open or once it is paid; a payment whose amount or
 * pages no longer match, and a second payment of a paid book, are refused and listed on the
 * orders desk for a refund.
 */
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ADMIN_PAYMENT_PROBLEM_LABELS, ADMIN_TEXT, API_MESSAGES, BOOK_PAGE_MESSAGES, CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { orders, type Order } from "~/core/db/schema.server";
import { ADMIN_REFUNDED_PAYMENTS_SHOWN } from "~/lib/shop-rules";
import { cancelCheckout, handleCheckoutEvent, startOrderPayment } from "~/server/payments/payments.server";
import { listPaymentProblems } from "~/server/payments/payment-problems.server";
import { FakeStripe, signedEvent } from "./fake-stripe";
import { ENGINE_VERSION } from "~/core/contracts/sketch";
import {
  cancelLocally,
  dbRun,
  fakeJpeg,
  ORIGIN,
  orderRow,
  payLocally,
  placeOrder,
  readyBook,
  startPayment,
  TEST_DELIVERY,
  uploadedPhotos,
  Visitor,
  type ApiError,
} from "./helpers";

const db = database(env.DB);
const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" };

async function message(response: Response): Promise<string> {
  return ((await response.json()) as ApiError).message;
}

async function loadOrder(id: number): Promise<Order> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) throw new Error(`no order ${id}`);
  return order;
}

/** readyBook's photos with the sketches a finished book has (readyBook leaves them without). */
async function drawnBook(visitor: Visitor, selected = 5) {
  const made = await readyBook(visitor, selected);
  await dbRun(
    `UPDATE images SET sketch_key = 'sketches/' || substr(original_key, 11) || '.${ENGINE_VERSION}-standard.png', quality_score = 95 WHERE book_id = ?`,
    made.bookId,
  );
  return made;
}

async function imagesOf(bookId: number) {
  const rows = await env.DB.prepare("SELECT id, is_selected, sketch_key, detail_level, processing_status FROM images WHERE book_id = ? ORDER BY id")
    .bind(bookId)
    .all<{ id: number; is_selected: number; sketch_key: string | null; detail_level: string | null; processing_status: string }>();
  return rows.results;
}

function printPagesOf(row: Record<string, unknown> | null) {
  return JSON.parse(row!.print_pages as string) as { imageId: number; detailLevel: string; sketchKey: string | null }[];
}

/** The orders desk's HTML, as an admin of the local sign-in sees it. */
async function deskHtml(): Promise<string> {
  return (await deskFetch("/admin")).text();
}

let deskCookie: string | null = null;
async function deskFetch(path: string, init: RequestInit = {}): Promise<Response> {
  if (!deskCookie) {
    const signIn = await SELF.fetch(`${ORIGIN}/admin/sign-in`, {
      method: "POST",
      body: new URLSearchParams({ password: env.ADMIN_LOCAL_PASSWORD! }),
      redirect: "manual",
    });
    deskCookie = signIn.headers.getSetCookie().find((cookie) => cookie.startsWith("cb_admin="))!.split(";")[0];
  }
  const headers = new Headers(init.headers);
  headers.set("Cookie", deskCookie);
  return SELF.fetch(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" });
}

/** The "Payments to review" part of the desk, where refused and second payments are listed. */
function paymentsToReview(html: string): string {
  const start = html.indexOf(ADMIN_TEXT.paymentsToReviewTitle);
  expect(start, "the desk has a payments-to-review section").toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</section>", start));
}

function payWithStripe(order: Order, fake: FakeStripe) {
  return startOrderPayment({ env: stripeEnv, db, origin: "https://shop.example", fetchFn: fake.fetch }, order);
}

async function deliver(type: string, session: Record<string, unknown>) {
  const { payload, signature } = await signedEvent(type, session);
  const response = await SELF.fetch(`${ORIGIN}/api/stripe-webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
  return ((await response.json()) as { outcome: string }).outcome;
}

/** A visitor's drawn five-page book, ordered, with its Stripe checkout open on a fresh fake. */
async function openStripeCheckout() {
  const visitor = new Visitor();
  const { bookId, quoteId } = await drawnBook(visitor, 5);
  const orderId = await placeOrder(visitor, bookId, quoteId);
  const fake = new FakeStripe();
  const sessionId = await openStripeSession(orderId, fake);
  return { visitor, bookId, orderId, fake, sessionId };
}

/** Opens the order's Stripe checkout on the fake and answers the Checkout Session's id. */
async function openStripeSession(orderId: number, fake: FakeStripe): Promise<string> {
  return (await payWithStripe(await loadOrder(orderId), fake)).checkoutUrl!.split("/").at(-1)!;
}

describe("the pages an order pays for", () => {
  it("are recorded when its checkout opens: each selected photo, its level and the sketch it prints", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    expect((await orderRow(orderId))!.print_pages).toBeNull();
    await startPayment(visitor, orderId);
    const selected = (await imagesOf(bookId)).filter((image) => image.is_selected);
    expect(selected).toHaveLength(5);
    expect(printPagesOf(await orderRow(orderId))).toEqual(
      selected.map((image) => ({ imageId: image.id, detailLevel: "standard", sketchKey: image.sketch_key })),
    );

    // A create-book order is paid before its photos are drawn: each page prints as drawn at its level.
    const buyer = new Visitor();
    const keys = await uploadedPhotos(buyer, 5);
    const made = await buyer.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "Drawn later", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const { orderId: createBookOrder } = (await made.json()) as { orderId: number };
    const ids = await env.DB.prepare("SELECT id FROM images WHERE original_key IN (SELECT value FROM json_each(?)) ORDER BY id").bind(JSON.stringify(keys)).all<{ id: number }>();
    expect(printPagesOf(await orderRow(createBookOrder))).toEqual(ids.results.map(({ id }) => ({ imageId: id, detailLevel: "standard", sketchKey: null })));
  });
});

describe("a selected page whose sketch failed", () => {
  it("is not priced in a quote nor recorded as a paid page", async () => {
    const visitor = new Visitor();
    const { bookId } = await drawnBook(visitor, 6);
    const failed = (await imagesOf(bookId)).filter((image) => image.is_selected)[2];
    await dbRun("UPDATE images SET processing_status = 'failed', sketch_key = NULL, error = 'damaged' WHERE id = ?", failed.id);
    const quote = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "UK", zipCode: "SW1A 1AA" } });
    expect(quote.status).toBe(200);
    const { quoteId, pricing } = (await quote.json()) as { quoteId: string; pricing: { photos: number } };
    expect(pricing.photos).toBe(5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await startPayment(visitor, orderId);
    const recorded = printPagesOf(await orderRow(orderId));
    expect(recorded).toHaveLength(5);
    expect(recorded.map((page) => page.imageId)).not.toContain(failed.id);
  });

  it("leaves a create-book order under its plan's minimum with the plan's message when it is paid again", async () => {
    const buyer = new Visitor();
    const keys = await uploadedPhotos(buyer, 5);
    const made = await buyer.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "One fails", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const { orderId, url } = (await made.json()) as { orderId: number; url: string };
    await cancelLocally(buyer, url);
    const [first] = await imagesOf((await orderRow(orderId))!.book_id as number);
    await dbRun("UPDATE images SET processing_status = 'failed', error = 'damaged' WHERE id = ?", first.id);
    const retry = await buyer.send("POST", "/api/retry-payment", {});
    expect(retry.status).toBe(400);
    expect(await message(retry)).toBe(CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", 5));
    expect(printPagesOf(await orderRow(orderId))).toHaveLength(5);
  });

  it("that failed while its checkout was open does not refuse the payment: it is still the page paid for", async () => {
    const buyer = new Visitor();
    const keys = await uploadedPhotos(buyer, 5);
    const made = await buyer.send("POST", "/api/create-checkout-session", {
      bookType: "standard", title: "Fails while paying", quantity: 1, agreeToTerms: true, newsletterSignup: false, filesCount: 5, uploadKeys: keys,
    });
    const { orderId, url } = (await made.json()) as { orderId: number; url: string };
    const [first] = await imagesOf((await orderRow(orderId))!.book_id as number);
    await dbRun("UPDATE images SET processing_status = 'failed', error = 'damaged' WHERE id = ?", first.id);
    await payLocally(buyer, url);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paid" });
  });
});

describe("a book under an open checkout", () => {
  it("answers 409 with the lock message to every change of its photos, selection and detail levels", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const [first, , , , , spare] = await imagesOf(bookId);
    await dbRun("UPDATE images SET processing_status = 'failed', error = 'Not a photo' WHERE id = ?", spare.id);
    const before = await imagesOf(bookId);
    await startPayment(visitor, await placeOrder(visitor, bookId, quoteId));

    const changes: [string, () => Promise<Response>][] = [
      ["upload", () => visitor.upload(bookId, [fakeJpeg("five-more.jpg")])],
      ["deselect", () => visitor.send("PATCH", `/api/images/${first.id}/selection`, { isSelected: false })],
      ["book level", () => visitor.send("PATCH", `/api/books/${bookId}/detail`, { detailLevel: "simple" })],
      ["page level", () => visitor.send("PATCH", `/api/images/${first.id}/detail`, { detailLevel: "detailed" })],
      ["retry", () => visitor.send("POST", `/api/images/${spare.id}/retry`)],
    ];
    for (const [change, send] of changes) {
      const response = await send();
      expect(response.status, change).toBe(409);
      expect(await message(response), change).toBe(CREATE_BOOK_MESSAGES.pagesLockedWhilePaying);
    }
    expect(await imagesOf(bookId)).toEqual(before);
  });

  it("is unlocked again once its checkout has expired or been released, and locked by the next one", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await startPayment(visitor, orderId);
    expect((await visitor.upload(bookId, [fakeJpeg("locked.jpg")])).status).toBe(409);

    // The checkout closed (our clock says so; no expiry event came): changes are allowed again.
    await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
    expect((await visitor.upload(bookId, [fakeJpeg("after-expiry.jpg")])).status).toBe(201);

    // The next checkout locks it again; the provider's expiry event releases that one.
    await startPayment(visitor, orderId);
    expect((await visitor.upload(bookId, [fakeJpeg("locked-again.jpg")])).status).toBe(409);
    const order = await loadOrder(orderId);
    const released = await handleCheckoutEvent(env, db, {
      type: "checkout.session.expired",
      sessionId: order.paymentSessionId!,
      orderId,
      paymentStatus: "unpaid",
      amountTotal: order.pricing.total,
      currency: "gbp",
      customer: null,
      pagesDigest: null,
    });
    expect(released).toBe("released");
    expect((await visitor.upload(bookId, [fakeJpeg("after-release.jpg")])).status).toBe(201);
  });

  it("stays frozen once paid: the paid book's changes answer that it has been ordered", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await payLocally(visitor, await startPayment(visitor, orderId));
    const upload = await visitor.upload(bookId, [fakeJpeg("late.jpg")]);
    expect(upload.status).toBe(409);
    expect(await message(upload)).toBe(API_MESSAGES.bookAlreadyOrdered);
    expect(printPagesOf(await orderRow(orderId))).toHaveLength(5);
  });
});

/**
 * Stripe's back link: the cancel URL the session was created with, followed by the buyer's
 * browser. Stripe cannot reach this Worker in tests, so the close is run as the route runs it.
 */
async function cancelAtStripe(orderId: number, fake: FakeStripe) {
  const link = new URL(fake.creates.at(-1)!.form.get("cancel_url")!);
  expect(link.pathname).toBe(`/checkout/${orderId}/cancel`);
  const attempt = Number(link.searchParams.get("attempt"));
  return cancelCheckout({ env: stripeEnv, db, origin: "https://shop.example", fetchFn: fake.fetch }, await loadOrder(orderId), attempt);
}

describe("Cancel on the checkout", () => {
  it("after Cancel on the local test checkout, the book's pages can be changed at once", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const checkoutUrl = await startPayment(visitor, orderId);
    expect((await visitor.upload(bookId, [fakeJpeg("locked.jpg")])).status).toBe(409);

    const { landing } = await cancelLocally(visitor, checkoutUrl);
    expect(new URL(landing, ORIGIN).pathname + new URL(landing, ORIGIN).search).toBe(`/book/${bookId}/order?cancelled=1`);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "pending", payment_session_id: null });
    expect((await visitor.upload(bookId, [fakeJpeg("after-cancel.jpg")])).status).toBe(201);
    // Paying again opens a new checkout, which locks the pages again.
    expect(await startPayment(visitor, orderId)).not.toBe(checkoutUrl);
    expect((await visitor.upload(bookId, [fakeJpeg("locked-again.jpg")])).status).toBe(409);
  });

  it("after Cancel on Stripe's page, the book's pages can be changed at once: the session is expired at Stripe", async () => {
    const { visitor, bookId, orderId, fake, sessionId } = await openStripeCheckout();
    expect((await visitor.upload(bookId, [fakeJpeg("locked.jpg")])).status).toBe(409);

    expect(await cancelAtStripe(orderId, fake)).toBe("released");
    expect(fake.requests.filter((request) => request.path === `/v1/checkout/sessions/${sessionId}/expire`)).toHaveLength(1);
    expect(fake.sessions.get(sessionId)!.status).toBe("expired");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "pending", payment_session_id: null });
    expect((await visitor.upload(bookId, [fakeJpeg("after-cancel.jpg")])).status).toBe(201);
    // Stripe's own expiry event for that session, arriving afterwards, changes nothing.
    expect(await deliver("checkout.session.expired", fake.sessions.get(sessionId)!)).toBe("ignored");
  });

  it("does not release a Stripe session that was completed before the Cancel: its confirmation pays the order", async () => {
    const { visitor, bookId, orderId, fake, sessionId } = await openStripeCheckout();
    const paid = fake.complete(sessionId);

    expect(await cancelAtStripe(orderId, fake)).toBe("completed");
    expect(fake.sessions.get(sessionId)!.status).toBe("complete");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying", payment_session_id: sessionId });
    expect((await visitor.upload(bookId, [fakeJpeg("still-locked.jpg")])).status).toBe(409);
    expect(await deliver("checkout.session.completed", paid)).toBe("paid");
  });

  it("does not touch a local checkout that was paid before its Cancel was followed", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const checkoutUrl = await startPayment(visitor, orderId);
    const { cancelUrl } = await cancelLocally(visitor, checkoutUrl, { follow: false });
    await payLocally(visitor, checkoutUrl);
    const late = await visitor.fetch(new URL(cancelUrl, ORIGIN).pathname + new URL(cancelUrl, ORIGIN).search, { redirect: "manual" });
    expect(late.status).toBe(302);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paid", order_status: "paid" });
  });

  it("closes only the checkout its link was made for: an earlier attempt's link leaves the next one open", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const fake = new FakeStripe();
    await payWithStripe(await loadOrder(orderId), fake);
    const firstLink = new URL(fake.creates.at(-1)!.form.get("cancel_url")!);
    expect(await cancelAtStripe(orderId, fake)).toBe("released");
    const secondSession = await openStripeSession(orderId, fake);

    const ctx = { env: stripeEnv, db, origin: "https://shop.example", fetchFn: fake.fetch };
    expect(await cancelCheckout(ctx, await loadOrder(orderId), Number(firstLink.searchParams.get("attempt")))).toBe("unchanged");
    expect(fake.sessions.get(secondSession)!.status).toBe("open");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying", payment_session_id: secondSession });
  });

  it("another visitor cannot cancel it, nor can a link whose attempt or signature was changed", async () => {
    const buyer = new Visitor();
    const { bookId, quoteId } = await drawnBook(buyer, 5);
    const orderId = await placeOrder(buyer, bookId, quoteId);
    const checkoutUrl = await startPayment(buyer, orderId);
    const { cancelUrl } = await cancelLocally(buyer, checkoutUrl, { follow: false });
    const link = new URL(cancelUrl, ORIGIN);
    expect(link.pathname).toBe(`/checkout/${orderId}/cancel`);

    const stranger = new Visitor();
    await stranger.createBook("Someone else's");
    expect((await stranger.fetch(`${link.pathname}${link.search}`, { redirect: "manual" })).status).toBe(404);
    const forged = [
      `${link.pathname}?attempt=2&token=${link.searchParams.get("token")}`,
      `${link.pathname}?attempt=1&token=${"A".repeat(43)}`,
      `${link.pathname}?attempt=1`,
      `/checkout/${orderId + 1}/cancel${link.search}`,
    ];
    for (const path of forged) expect((await buyer.fetch(path, { redirect: "manual" })).status, path).toBe(404);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
    expect((await buyer.upload(bookId, [fakeJpeg("still-locked.jpg")])).status).toBe(409);

    expect((await buyer.fetch(`${link.pathname}${link.search}`, { redirect: "manual" })).status).toBe(302);
    expect((await buyer.upload(bookId, [fakeJpeg("unlocked.jpg")])).status).toBe(201);
  });
});

/** The checkout closed by our clock, the buyer swapped a photo, then paid on the old checkout page. */
async function paymentAfterTheBookChanged() {
  const visitor = new Visitor();
  const { bookId, quoteId } = await drawnBook(visitor, 5);
  const orderId = await placeOrder(visitor, bookId, quoteId);
  const checkoutUrl = await startPayment(visitor, orderId);
  await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
  const [first, , , , , spare] = await imagesOf(bookId);
  expect((await visitor.send("PATCH", `/api/images/${first.id}/selection`, { isSelected: false })).status).toBe(200);
  expect((await visitor.send("PATCH", `/api/images/${spare.id}/selection`, { isSelected: true })).status).toBe(200);
  const back = await payLocally(visitor, checkoutUrl, TEST_DELIVERY);
  return { visitor, bookId, orderId, back };
}

describe("a payment that no longer matches", () => {
  it("is refused when the book's pages changed after its checkout opened, and is listed on the desk to refund", async () => {
    const { bookId, orderId } = await paymentAfterTheBookChanged();
    const row = await orderRow(orderId);
    expect(row).toMatchObject({ payment_status: "paying", order_status: "placed", paid_at: null });
    expect(await env.DB.prepare("SELECT status FROM books WHERE id = ?").bind(bookId).first("status")).not.toBe("ordered");
    const review = paymentsToReview(await deskHtml());
    expect(review).toContain(row!.order_number as string);
    expect(review).toContain(ADMIN_PAYMENT_PROBLEM_LABELS["pages-changed"]);
  });

  it("is told to the buyer back on the order page, which stops waiting for a confirmation", async () => {
    const { visitor, bookId, back } = await paymentAfterTheBookChanged();
    expect(back).toMatch(new RegExp(`/book/${bookId}/order\\?session_id=cs_local_`));
    const { pathname, search } = new URL(back, ORIGIN);
    const page = await visitor.fetch(`${pathname}${search}&_data=routes%2Fbook.%24id.order`);
    expect(await page.json()).toMatchObject({ paidOrder: null, confirming: false, paymentRefused: true });
    expect(BOOK_PAGE_MESSAGES.paymentNotMatched).toContain("refund");
  });

  it("is refused when a Stripe payment was opened for other pages than the order now records", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const fake = new FakeStripe();
    const firstSession = await openStripeSession(orderId, fake);
    // That checkout closed by our clock; the buyer swapped a photo (same count, same price) and paid again.
    await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
    const [first, , , , , spare] = await imagesOf(bookId);
    await visitor.send("PATCH", `/api/images/${first.id}/selection`, { isSelected: false });
    await visitor.send("PATCH", `/api/images/${spare.id}/selection`, { isSelected: true });
    const secondSession = await openStripeSession(orderId, fake);
    expect(secondSession).not.toBe(firstSession);

    // The first checkout's money arrives late: it paid for the old pages.
    expect(await deliver("checkout.session.completed", fake.complete(firstSession))).toBe("pages-changed");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
    expect(await deliver("checkout.session.completed", fake.complete(secondSession))).toBe("paid");
    expect(printPagesOf(await orderRow(orderId)).map((page) => page.imageId)).toContain(spare.id);
    const review = paymentsToReview(await deskHtml());
    expect(review).toContain(firstSession);
    expect(review).not.toContain(secondSession);
  });

  it("is listed on the desk when its amount differs from the order", async () => {
    const { fake, sessionId } = await openStripeCheckout();
    const session = fake.complete(sessionId);
    expect(await deliver("checkout.session.completed", { ...session, amount_total: session.amount_total - 1 })).toBe("amount-mismatch");
    const review = paymentsToReview(await deskHtml());
    expect(review).toContain(sessionId);
    expect(review).toContain(ADMIN_PAYMENT_PROBLEM_LABELS["amount-mismatch"]);
  });
});

describe("a payment through a checkout the shop did not open for the order", () => {
  it("does not pay the order, even with its reference and amount, and is listed on the desk", async () => {
    const { orderId, fake, sessionId } = await openStripeCheckout();
    const ours = fake.complete(sessionId);
    // A Payment Link or another integration on the same Stripe account: a session we never opened
    // that carries the order's reference, its amount and even its pages digest.
    const foreign = { ...ours, id: `cs_test_foreign_${orderId}` };
    expect(await deliver("checkout.session.completed", foreign)).toBe("unknown-session");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying", paid_at: null });
    const review = paymentsToReview(await deskHtml());
    expect(review).toContain(foreign.id);
    expect(review).toContain(ADMIN_PAYMENT_PROBLEM_LABELS["unknown-session"]);
    // Our own session still pays it.
    expect(await deliver("checkout.session.completed", ours)).toBe("paid");
  });

  it("is checked against the pages its session was opened for even when the provider brings back no digest", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await drawnBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const fake = new FakeStripe();
    const firstSession = await openStripeSession(orderId, fake);
    await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
    const [first, , , , , spare] = await imagesOf(bookId);
    await visitor.send("PATCH", `/api/images/${first.id}/selection`, { isSelected: false });
    await visitor.send("PATCH", `/api/images/${spare.id}/selection`, { isSelected: true });
    await openStripeSession(orderId, fake);

    // The first checkout's money arrives late, and its metadata carries no digest.
    const late = fake.complete(firstSession);
    const withoutDigest = { ...late, metadata: { ...late.metadata, pagesDigest: undefined } };
    expect(await deliver("checkout.session.completed", withoutDigest)).toBe("pages-changed");
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
  });
});

describe("the desk's payments to review", () => {
  it("lists every unrefunded payment first, however old and however many, above the newest refunded ones", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const { orderId } = await openStripeCheckout();
    const orderNumber = (await orderRow(orderId))!.order_number as string;
    const insert = (sessionId: string, ageDays: number, refunded: boolean) =>
      dbRun(
        `INSERT INTO payment_problems (order_id, order_number, session_id, kind, amount, currency, detail, created_at, refunded_at)
         VALUES (?, ?, ?, 'paid-twice', 1999, 'gbp', 'test', unixepoch() - ?, ${refunded ? "unixepoch()" : "NULL"})`,
        orderId, orderNumber, sessionId, ageDays * 86_400,
      );
    // Sixty unrefunded payments from last year, then more refunded ones since than the desk shows.
    for (let i = 0; i < 60; i++) await insert(`cs_old_open_${tag}_${i}`, 400 - i, false);
    for (let i = 0; i < ADMIN_REFUNDED_PAYMENTS_SHOWN + 10; i++) await insert(`cs_new_refunded_${tag}_${i}`, 30 - i / 10, true);

    const listed = await listPaymentProblems(db);
    const ours = listed.filter((problem) => problem.sessionId.includes(tag));
    const open = ours.filter((problem) => problem.refundedAt === null);
    expect(open).toHaveLength(60);
    const firstRefunded = listed.findIndex((problem) => problem.refundedAt !== null);
    expect(listed.slice(0, firstRefunded).every((problem) => problem.refundedAt === null)).toBe(true);
    expect(listed.slice(firstRefunded).every((problem) => problem.refundedAt !== null)).toBe(true);
    expect(listed.filter((problem) => problem.refundedAt !== null)).toHaveLength(ADMIN_REFUNDED_PAYMENTS_SHOWN);
    expect(paymentsToReview(await deskHtml())).toContain(`cs_old_open_${tag}_0`);
  });
});

describe("a book paid twice", () => {
  it("lists the second payment on the desk once, to refund, and Mark refunded records it once", async () => {
    const { orderId, fake, sessionId } = await openStripeCheckout();
    const paid = fake.complete(sessionId);
    expect(await deliver("checkout.session.completed", paid)).toBe("paid");

    // A second checkout of the order, opened by us (an earlier attempt's page left open in a tab).
    const second = { ...paid, id: `cs_test_second_${orderId}` };
    await dbRun("INSERT INTO payment_sessions (session_id, order_id, attempt) VALUES (?, ?, 1)", second.id, orderId);
    expect(await deliver("checkout.session.completed", second)).toBe("paid-twice");
    expect(await deliver("checkout.session.completed", second)).toBe("paid-twice"); // Stripe retries
    const orderNumber = (await orderRow(orderId))!.order_number as string;
    let review = paymentsToReview(await deskHtml());
    expect(review).toContain(second.id);
    expect(review).toContain(ADMIN_PAYMENT_PROBLEM_LABELS["paid-twice"]);
    expect(review.split(second.id).length - 1).toBe(1);

    const problemId = await env.DB.prepare("SELECT id FROM payment_problems WHERE session_id = ?").bind(second.id).first<number>("id");
    const act = async () => {
      const response = await deskFetch("/admin?index&_data=routes%2Fadmin._index", {
        method: "POST",
        body: new URLSearchParams({ intent: "refund-payment", orderNumber, problemId: String(problemId) }),
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await act()).toEqual({ status: 200, body: { ok: true, message: ADMIN_TEXT.paymentMarkedRefunded } });
    expect(await act()).toEqual({ status: 200, body: { ok: true, message: ADMIN_TEXT.paymentAlreadyRefunded } });
    review = paymentsToReview(await deskHtml());
    expect(review).toContain(second.id);
    expect(review).not.toContain(`value="${problemId}"`);
    // The order itself stays paid and on its way to the printer.
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paid", refunded_at: null });
  });
});
