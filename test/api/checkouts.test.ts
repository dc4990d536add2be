/**
 * The create-book purchase over HTTP: record-book-data, create-checkout-session (uploads become a
 * book, its images, a quote and an order), the local test checkout, retry-payment.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { CURRENCY, EXTRA_PAGES, PLANS } from "~/lib/shop-rules";
import { database } from "~/core/db/database.server";
import { createCheckoutSession, type CreateCheckoutSessionInput } from "~/server/payments/checkouts.server";
import { dbRun, ORIGIN, orderRow, payLocally, TEST_DELIVERY, uploadedPhotos, Visitor, type ApiError } from "./helpers";

const form = { bookType: "standard", title: "Grandpa's Garden", customMessage: "For Grandpa", quantity: 2, agreeToTerms: true, newsletterSignup: false };

async function checkout(visitor: Visitor, keys: string[], overrides: Record<string, unknown> = {}) {
  return visitor.send("POST", "/api/create-checkout-session", {
    ...form,
    sessionId: "1732300000000-abc123xyz",
    filesCount: keys.length,
    uploadKeys: keys,
    ...overrides,
  });
}

async function message(response: Response) {
  return ((await response.json()) as ApiError).message;
}

describe("POST /api/record-book-data", () => {
  it("records what the visitor chose, owned by the session", async () => {
    const visitor = new Visitor();
    const response = await visitor.send("POST", "/api/record-book-data", { ...form, sessionId: "s-1", nrPhotos: 6, newsletterSignup: true });
    expect(response.status).toBe(201);
    const { checkoutId } = (await response.json()) as { checkoutId: number };
    const row = await env.DB.prepare("SELECT * FROM checkouts WHERE id = ?").bind(checkoutId).first();
    expect(row).toMatchObject({ book_type: "standard", title: "Grandpa's Garden", quantity: 2, nr_photos: 6, newsletter_signup: 1, agree_to_terms: 1, browser_session_id: "s-1", status: "open" });
  });

  it("refuses a blank title and unaccepted terms with the product's texts", async () => {
    const visitor = new Visitor();
    const blank = await visitor.send("POST", "/api/record-book-data", { ...form, title: "  ", nrPhotos: 5 });
    expect(blank.status).toBe(400);
    expect(await message(blank)).toBe(CREATE_BOOK_MESSAGES.missingTitle);
    const terms = await visitor.send("POST", "/api/record-book-data", { ...form, agreeToTerms: false, nrPhotos: 5 });
    expect(await message(terms)).toBe(CREATE_BOOK_MESSAGES.agreementRequired);
    const quantity = await visitor.send("POST", "/api/record-book-data", { ...form, quantity: 0, nrPhotos: 5 });
    expect(quantity.status).toBe(400);
  });
});

describe("POST /api/create-checkout-session", () => {
  it("turns the uploads into a selected book, prices it on the server and answers the checkout url", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 6);
    const response = await checkout(visitor, keys, { total: 1, price: 1 });
    expect(response.status, await response.clone().text()).toBe(200);
    const { url, orderId } = (await response.json()) as { url: string; orderId: number };
    expect(url).toMatch(/\/test-checkout\/cs_local_[0-9a-f]{32}$/);

    const order = await orderRow(orderId);
    expect(order).toMatchObject({ payment_status: "paying", customer_info: null });
    expect(JSON.parse(order!.pricing as string)).toEqual({
      plan: "standard",
      photos: 6,
      pages: 6 + EXTRA_PAGES,
      unitPrice: PLANS.standard.price,
      quantity: 2,
      basePrice: PLANS.standard.price * 2,
      processingFee: 0,
      shipping: 0,
      total: PLANS.standard.price * 2,
      currency: CURRENCY,
    });
    const book = await env.DB.prepare("SELECT * FROM books WHERE id = ?").bind(order!.book_id).first();
    expect(book).toMatchObject({ title: "Grandpa's Garden", personal_message: "For Grandpa", book_type: "standard", status: "draft" });
    const images = await env.DB.prepare("SELECT original_key, is_selected, processing_status FROM images WHERE book_id = ? ORDER BY id")
      .bind(order!.book_id)
      .all();
    expect(images.results.map((image) => image.original_key)).toEqual(keys);
    expect(images.results.every((image) => image.is_selected === 1 && image.processing_status === "pending")).toBe(true);
    const checkoutRow = await env.DB.prepare("SELECT book_id, order_id, nr_photos FROM checkouts WHERE order_id = ?").bind(orderId).first();
    expect(checkoutRow).toEqual({ book_id: order!.book_id, order_id: orderId, nr_photos: 6 });
  });

  it("is paid only by the checkout's Pay: then the book is ordered with its pages and its photos are drawn", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const { url, orderId } = (await (await checkout(visitor, keys)).json()) as { url: string; orderId: number };
    const back = await payLocally(visitor, url, TEST_DELIVERY);
    expect(back).toMatch(/\/success\?session_id=cs_local_[0-9a-f]{32}$/);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ payment_status: "paid", order_status: "paid" });
    expect(JSON.parse(order!.customer_info as string)).toMatchObject({ firstName: "Ada", city: "London", country: "UK" });
    const book = await env.DB.prepare("SELECT status, total_pages FROM books WHERE id = ?").bind(order!.book_id).first();
    expect(book).toEqual({ status: "ordered", total_pages: 5 + EXTRA_PAGES });
    expect(await env.DB.prepare("SELECT status FROM checkouts WHERE order_id = ?").bind(orderId).first("status")).toBe("paid");

    // The sketch Worker beside the app consumes the queue: every photo becomes a page.
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ? AND processing_status = 'completed'").bind(order!.book_id).first<number>("n")),
        { timeout: 20_000, interval: 200 },
      )
      .toBe(5);
    // The poll's 20 s, not the default 5 s for the whole test: five photos are really sketched.
  }, 30_000);

  it("needs a delivery address on the test checkout of a create-book order", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const { url, orderId } = (await (await checkout(visitor, keys)).json()) as { url: string; orderId: number };
    const response = await visitor.fetch(`${new URL(url).pathname}?_data=routes%2Ftest-checkout.%24sessionId`, {
      method: "POST",
      body: new URLSearchParams({ intent: "pay", firstName: "Ada" }),
    });
    expect(response.status).toBe(422);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paying" });
  });

  it("sends the same checkout again for a repeated request instead of making a second book", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const title = `Twice ${crypto.randomUUID()}`;
    const recorded = (await (await visitor.send("POST", "/api/record-book-data", { ...form, title, nrPhotos: 5 })).json()) as { checkoutId: number };
    const first = (await (await checkout(visitor, keys, { title, checkoutId: recorded.checkoutId })).json()) as { url: string };
    const again = await checkout(visitor, keys, { title, checkoutId: recorded.checkoutId });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { url: string }).url).toBe(first.url);
    // Without the checkout id, the uploads already belong to that book: refused, nothing new made.
    const withoutId = await checkout(visitor, keys, { title });
    expect(withoutId.status).toBe(400);
    expect(await message(withoutId)).toBe(CREATE_BOOK_MESSAGES.uploadsMissing);
    const books = await env.DB.prepare("SELECT count(*) AS n FROM books WHERE title = ?").bind(title).first<number>("n");
    expect(books).toBe(1);
  });

  it("makes one book for concurrent requests of the same checkout, whose paid order has its delivery address", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const title = `Concurrent ${crypto.randomUUID()}`;
    const recorded = (await (await visitor.send("POST", "/api/record-book-data", { ...form, title, nrPhotos: 5 })).json()) as { checkoutId: number };
    const owner = await env.DB.prepare("SELECT session_id FROM checkouts WHERE id = ?").bind(recorded.checkoutId).first<string>("session_id");
    // Called side by side in one isolate, so their D1 round trips interleave as two requests' do.
    const input: CreateCheckoutSessionInput = {
      ...form, bookType: "standard", agreeToTerms: true, title, sessionId: "s", filesCount: 5, uploadKeys: keys, checkoutId: recorded.checkoutId,
    };
    const settled = await Promise.allSettled(
      [1, 2, 3].map(() => createCheckoutSession({ env, db: database(env.DB), origin: ORIGIN }, owner!, input)),
    );
    const made = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(made.length).toBeGreaterThanOrEqual(1);
    // Every other click is told a payment is under way; none made or undid anything.
    for (const refused of settled.flatMap((result) => (result.status === "rejected" ? [result.reason as Response] : []))) {
      expect(refused.status).toBe(409);
      expect(await message(refused)).toBe(CREATE_BOOK_MESSAGES.paymentInProgress);
    }
    const orderId = made[0].orderId;
    expect(new Set(made.map((payment) => payment.orderId))).toEqual(new Set([orderId]));
    expect(await env.DB.prepare("SELECT count(*) AS n FROM books WHERE title = ?").bind(title).first<number>("n")).toBe(1);
    const checkoutRow = await env.DB.prepare("SELECT order_id, book_id FROM checkouts WHERE id = ?").bind(recorded.checkoutId).first();
    expect(checkoutRow).toEqual({ order_id: orderId, book_id: (await orderRow(orderId))!.book_id });

    // The checkout page asks for the address of this create-book order, and the paid order has it.
    await payLocally(visitor, made[0].checkoutUrl!, TEST_DELIVERY);
    const paid = await orderRow(orderId);
    expect(paid).toMatchObject({ payment_status: "paid" });
    expect(JSON.parse(paid!.customer_info as string)).toMatchObject({ address1: TEST_DELIVERY.address1, city: TEST_DELIVERY.city });
  });

  it("enforces each plan's photo range: standard 5-15, premium 16-50", async () => {
    const visitor = new Visitor();
    const cases: [string, number, number | string][] = [
      ["standard", 4, CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", 5)],
      ["standard", 5, PLANS.standard.price],
      ["standard", 15, PLANS.standard.price],
      ["standard", 16, CREATE_BOOK_MESSAGES.tooManyPhotos("standard", 15)],
      ["premium", 15, CREATE_BOOK_MESSAGES.notEnoughPhotos("premium", 16)],
      ["premium", 16, PLANS.premium.price],
      ["premium", 50, PLANS.premium.price],
    ];
    for (const [bookType, photos, expected] of cases) {
      const keys = await uploadedPhotos(visitor, photos, bookType);
      const response = await checkout(visitor, keys, { bookType, quantity: 1 });
      if (typeof expected === "string") {
        expect(response.status, `${bookType} ${photos}`).toBe(400);
        expect(await message(response)).toBe(expected);
      } else {
        expect(response.status, `${bookType} ${photos}`).toBe(200);
        const { orderId } = (await response.json()) as { orderId: number };
        expect(JSON.parse((await orderRow(orderId))!.pricing as string)).toMatchObject({ total: expected, photos, pages: photos + EXTRA_PAGES });
      }
    }
    const orders = await env.DB.prepare("SELECT count(*) AS n FROM orders").first<number>("n");
    expect(orders).toBeGreaterThanOrEqual(4);
  });

  it("refuses uploads of another visitor, a wrong count, and missing terms", async () => {
    const owner = new Visitor();
    const keys = await uploadedPhotos(owner, 5);
    const stranger = new Visitor();
    const stolen = await checkout(stranger, keys);
    expect(stolen.status).toBe(400);
    expect(await message(stolen)).toBe(CREATE_BOOK_MESSAGES.uploadsMissing);
    const miscounted = await checkout(owner, keys, { filesCount: 6 });
    expect(await message(miscounted)).toBe(CREATE_BOOK_MESSAGES.uploadsMissing);
    const noTerms = await checkout(owner, keys, { agreeToTerms: false });
    expect(await message(noTerms)).toBe(CREATE_BOOK_MESSAGES.agreementRequired);
    const duplicated = await checkout(owner, [...keys.slice(0, 4), keys[0]]);
    expect(duplicated.status).toBe(400);
    const used = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE original_key IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(keys))
      .first("n");
    expect(used).toBe(0);
  });
});

describe("POST /api/retry-payment", () => {
  it("hands out the open checkout of the visitor's unpaid order again", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const { url } = (await (await checkout(visitor, keys)).json()) as { url: string };
    const retry = await visitor.send("POST", "/api/retry-payment", { sessionId: "s", bookType: "standard", title: form.title, filesCount: 5, quantity: 2 });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { url: string }).url).toBe(url);
  });

  it("re-prices an order whose quote expired and opens a new checkout", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const { url, orderId } = (await (await checkout(visitor, keys)).json()) as { url: string; orderId: number };
    const order = await orderRow(orderId);
    await dbRun("UPDATE quotes SET expires_at = unixepoch() - 1 WHERE id = ?", order!.quote_id);
    await dbRun("UPDATE orders SET payment_expires_at = unixepoch() - 1 WHERE id = ?", orderId);
    const retry = await visitor.send("POST", "/api/retry-payment", {});
    expect(retry.status).toBe(200);
    const renewed = (await retry.json()) as { url: string };
    expect(renewed.url).not.toBe(url);
    const after = await orderRow(orderId);
    expect(after!.quote_id).not.toBe(order!.quote_id);
    expect(after).toMatchObject({ payment_status: "paying", payment_attempt: 2 });
    // The first checkout's page is gone: only the new one can be paid.
    expect((await visitor.fetch(new URL(url).pathname)).status).toBe(404);
    await payLocally(visitor, renewed.url);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "paid" });
  });

  it("answers 404 when there is nothing left to retry: none yet, already paid, or another visitor's", async () => {
    const visitor = new Visitor();
    const none = await visitor.send("POST", "/api/retry-payment", {});
    expect(none.status).toBe(404);
    expect(await message(none)).toBe(CREATE_BOOK_MESSAGES.noPendingCheckout);
    const keys = await uploadedPhotos(visitor, 5);
    const { url } = (await (await checkout(visitor, keys)).json()) as { url: string };
    await payLocally(visitor, url);
    const paid = await visitor.send("POST", "/api/retry-payment", {});
    expect(paid.status).toBe(404);
    expect(await new Visitor().send("POST", "/api/retry-payment", {})).toHaveProperty("status", 404);
  });
});
