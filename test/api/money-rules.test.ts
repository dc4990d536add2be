/** The money rules of docs/decisions/008, each tried the way it could go wrong. */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { API_MESSAGES, CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import { PLANS } from "~/lib/shop-rules";
import { bookPageCount, priceBook } from "~/lib/pricing";
import { database } from "~/core/db/database.server";
import { orders } from "~/core/db/schema.server";
import { startOrderPayment } from "~/server/payments/payments.server";
import { dbRun, fakeJpeg, orderRow, payLocally, placeOrder, quoteFor, readyBook, startPayment, Visitor, type ApiError } from "./helpers";

async function message(response: Response) {
  return ((await response.json()) as ApiError).message;
}

describe("a book is paid for once", () => {
  it("two quotes of one book make two orders, and only one of them can be paid", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const first = await placeOrder(visitor, bookId, quoteId);
    const firstCheckout = await startPayment(visitor, first);

    // A new ZIP code: a new quote, a new order. Paying it closes the first order's checkout.
    const second = await placeOrder(visitor, bookId, await quoteFor(visitor, bookId, "EC1A 1BB"), "EC1A 1BB");
    const secondCheckout = await startPayment(visitor, second);
    expect(await orderRow(first)).toMatchObject({ payment_status: "pending", payment_session_id: null });
    expect((await visitor.fetch(new URL(firstCheckout).pathname)).status).toBe(404);
    await payLocally(visitor, secondCheckout);

    const again = await visitor.send("POST", `/api/orders/${first}/payment`, { paymentMethod: "card" });
    expect(again.status).toBe(409);
    expect(await message(again)).toBe(API_MESSAGES.bookAlreadyOrdered);
    const paid = await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE book_id = ? AND payment_status = 'paid'").bind(bookId).first("n");
    expect(paid).toBe(1);
  });

  it("is enforced by the database too: a second paying or paid order of a book is refused", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const first = await placeOrder(visitor, bookId, quoteId);
    const second = await placeOrder(visitor, bookId, await quoteFor(visitor, bookId, "EC1A 1BB"), "EC1A 1BB");
    await dbRun("UPDATE orders SET payment_status = 'paid' WHERE id = ?", first);
    await expect(dbRun("UPDATE orders SET payment_status = 'paid' WHERE id = ?", second)).rejects.toThrow(/UNIQUE constraint failed: orders.book_id/);
    await expect(dbRun("UPDATE orders SET payment_status = 'paying' WHERE id = ?", second)).rejects.toThrow(/UNIQUE/);
  });
});

describe("prices and photo ranges", () => {
  it("refuses 4 and 16 photos on a standard book and prices 5 and 15 right", async () => {
    for (const [photos, expected] of [
      [4, CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", 5)],
      [5, PLANS.standard.price],
      [15, PLANS.standard.price],
      [16, CREATE_BOOK_MESSAGES.tooManyPhotos("standard", 15)],
    ] as const) {
      const visitor = new Visitor();
      const bookId = await visitor.createBook();
      await dbRun("UPDATE books SET book_type = 'standard' WHERE id = ?", bookId);
      const images = await visitor.uploadOk(bookId, Array.from({ length: photos }, (_, i) => fakeJpeg(`p${i}.jpg`)));
      await dbRun("UPDATE images SET processing_status = 'completed', is_selected = 1 WHERE book_id = ?", bookId);
      expect(images).toHaveLength(photos);
      const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "US", zipCode: "90210" } });
      if (typeof expected === "string") {
        expect(response.status).toBe(400);
        expect(await message(response)).toBe(expected);
      } else {
        expect(response.status).toBe(200);
        expect(((await response.json()) as { pricing: object }).pricing).toMatchObject({ total: expected, photos, pages: bookPageCount(photos) });
      }
    }
  });

  it("prices a book of no chosen plan by its photo count: 16 photos make a premium book", async () => {
    const visitor = new Visitor();
    const { bookId } = await readyBook(visitor, 16);
    const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "US", zipCode: "90210" } });
    expect(((await response.json()) as { pricing: object }).pricing).toMatchObject({ plan: "premium", total: PLANS.premium.price });
  });

  it("computes totals in pence: unit price times quantity, free shipping", () => {
    expect(priceBook("standard", 5, 3)).toMatchObject({ unitPrice: 1999, basePrice: 5997, shipping: 0, total: 5997, pages: 7 });
    expect(priceBook("premium", 50, 1)).toMatchObject({ unitPrice: 2599, total: 2599, pages: 52 });
    expect(() => priceBook("standard", 5, 0)).toThrow(RangeError);
    expect(() => priceBook("standard", 5, 1.5)).toThrow(RangeError);
  });
});

describe("paying", () => {
  it("refuses an order whose quote expired, before any provider is called", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await dbRun("UPDATE quotes SET expires_at = unixepoch() - 1 WHERE id = ?", quoteId);
    const response = await visitor.send("POST", `/api/orders/${orderId}/payment`, { paymentMethod: "card" });
    expect(response.status).toBe(409);
    expect(await message(response)).toBe(API_MESSAGES.quoteExpired);
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "pending", payment_attempt: 0 });
  });

  it("takes no test payment when the explicit switch is off, whatever APP_ENV says", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    const db = database(env.DB);
    const order = (await db.query.orders.findFirst({ where: eq(orders.id, orderId) }))!;
    for (const APP_ENV of ["test", "development", "production"]) {
      const refused = await startOrderPayment({ env: { ...env, APP_ENV, LOCAL_TEST_CHECKOUT: undefined }, db, origin: "http://shop.test" }, order).catch(
        (error: Response) => error,
      );
      expect((refused as Response).status).toBe(503);
      expect(await message(refused as Response)).toBe(API_MESSAGES.paymentsUnavailable);
    }
    expect(await orderRow(orderId)).toMatchObject({ payment_status: "pending" });
  });

  it("refuses a payment when the selection changed after the quote", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 6);
    const orderId = await placeOrder(visitor, bookId, quoteId);
    await dbRun("UPDATE images SET is_selected = 0 WHERE id = (SELECT max(id) FROM images WHERE book_id = ? AND is_selected = 1)", bookId);
    const response = await visitor.send("POST", `/api/orders/${orderId}/payment`, { paymentMethod: "card" });
    expect(response.status).toBe(409);
    expect(await message(response)).toBe(API_MESSAGES.bookChangedSinceQuote);
  });
});
