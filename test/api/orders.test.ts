import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_MESSAGES, DELIVERY_RANGE_TEXT, MESSAGES } from "~/lib/customer-copy";
import { CURRENCY, EXTRA_PAGES, PLANS } from "~/lib/shop-rules";
import { address, cancelLocally, dbRun, deliveryInfo, fakeJpeg, orderRow, readyBook, payLocally, startPayment, Visitor, type ApiError } from "./helpers";

async function message(response: Response): Promise<string> {
  return ((await response.json()) as ApiError).message;
}

describe("POST /api/books/{id}/quote", () => {
  it("prices the book from the server's constants under an unguessable id", async () => {
    const visitor = new Visitor();
    const { bookId } = await readyBook(visitor, 5);
    const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: address });
    expect(response.status).toBe(200);
    const quote = (await response.json()) as { success: boolean; pricing: Record<string, unknown>; quoteId: string };
    const base = PLANS.standard.price;
    expect(quote).toEqual({
      success: true,
      pricing: {
        plan: "standard",
        photos: 5,
        pages: 5 + EXTRA_PAGES,
        unitPrice: base,
        quantity: 1,
        basePrice: base,
        processingFee: 0,
        shipping: 0,
        total: base,
        currency: CURRENCY,
      },
      quoteId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it("prices a premium book as premium", async () => {
    const visitor = new Visitor();
    const { bookId } = await readyBook(visitor, 16);
    await dbRun("UPDATE books SET book_type = 'premium' WHERE id = ?", bookId);
    const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: address });
    expect(((await response.json()) as { pricing: { total: number } }).pricing.total).toBe(PLANS.premium.price);
  });

  it("requires a ZIP code and a delivery country", async () => {
    const visitor = new Visitor();
    const { bookId } = await readyBook(visitor);
    const noZip = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "US" } });
    expect(noZip.status).toBe(400);
    expect(await noZip.json()).toEqual({
      message: MESSAGES.zipRequired,
      fieldErrors: { "deliveryAddress.zipCode": [MESSAGES.zipRequired] },
    });
    const blankZip = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "US", zipCode: " " } });
    expect(await message(blankZip)).toBe(MESSAGES.zipRequired);
    const noCountry = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { zipCode: "90210" } });
    expect(noCountry.status).toBe(400);
    expect(await message(noCountry)).toBe(MESSAGES.countryRequired);
    const elsewhere = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "FR", zipCode: "75001" } });
    expect(await message(elsewhere)).toBe(MESSAGES.countryRequired);
  });

  it("is 404 for a stranger's book", async () => {
    const bookId = await new Visitor().createBook();
    const response = await new Visitor().send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: address });
    expect(response.status).toBe(404);
  });
});

describe("POST /api/orders", () => {
  it("places an order with the quote's prices; the book stays editable until it is paid", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 6);
    const response = await visitor.send("POST", "/api/orders", {
      bookId,
      quoteId,
      deliveryInfo: { ...deliveryInfo, zipCode: "sw1a 1aa" },
      paymentMethod: "card",
      // Whatever the browser says about money is ignored.
      pricing: { basePrice: 1, processingFee: 0, shipping: 0, total: 1, currency: CURRENCY },
    });
    expect(response.status).toBe(201);
    const order = await response.json();
    expect(order).toEqual({
      id: expect.any(Number),
      orderNumber: expect.stringMatching(/^CB-\d{8}-[2-9A-HJ-NP-Z]{5}$/),
      estimatedDelivery: expect.stringContaining(DELIVERY_RANGE_TEXT),
      pricing: expect.objectContaining({ photos: 6, pages: 6 + EXTRA_PAGES, total: PLANS.standard.price, currency: CURRENCY }),
      paymentStatus: "pending",
      orderStatus: "placed",
    });
    const book = await env.DB.prepare("SELECT status FROM books WHERE id = ?").bind(bookId).first("status");
    expect(book).not.toBe("ordered");
  });

  it("makes one order per quote: submitting again updates and returns the same pending order", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor);
    const first = (await (await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo })).json()) as { id: number };
    const again = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, firstName: "Augusta" } });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { id: number }).id).toBe(first.id);
    const rows = await env.DB.prepare("SELECT customer_info FROM orders WHERE book_id = ?").bind(bookId).all<{ customer_info: string }>();
    expect(rows.results).toHaveLength(1);
    expect(JSON.parse(rows.results[0].customer_info).firstName).toBe("Augusta");
  });

  it("refuses a quote of another book, even the visitor's own", async () => {
    const visitor = new Visitor();
    const first = await readyBook(visitor);
    const second = await readyBook(visitor);
    const response = await visitor.send("POST", "/api/orders", { bookId: first.bookId, quoteId: second.quoteId, deliveryInfo });
    expect(response.status).toBe(400);
    expect(await message(response)).toBe(API_MESSAGES.quoteNotFound);
    const orders = await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE book_id = ?").bind(first.bookId).first<number>("n");
    expect(orders).toBe(0);
  });

  it("refuses an expired quote and a quote for another address", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor);
    const otherZip = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, zipCode: "EC1A 1BB" } });
    expect(otherZip.status).toBe(409);
    expect(await message(otherZip)).toBe(API_MESSAGES.quoteAddressMismatch);
    const otherCountry = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, country: "AU" } });
    expect(await message(otherCountry)).toBe(API_MESSAGES.quoteAddressMismatch);

    await dbRun("UPDATE quotes SET expires_at = unixepoch() - 1 WHERE id = ?", quoteId);
    const expired = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo });
    expect(expired.status).toBe(409);
    expect(await message(expired)).toBe(API_MESSAGES.quoteExpired);
    expect(await env.DB.prepare("SELECT status FROM books WHERE id = ?").bind(bookId).first("status")).not.toBe("ordered");
  });

  it("needs the photos the quote priced and valid delivery details", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const image = await env.DB.prepare("SELECT id FROM images WHERE book_id = ? AND is_selected = 1 LIMIT 1").bind(bookId).first<number>("id");
    await visitor.send("PATCH", `/api/images/${image}/selection`, { isSelected: false });
    const changed = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo });
    expect(changed.status).toBe(409);
    expect(await message(changed)).toBe(API_MESSAGES.bookChangedSinceQuote);
    await visitor.send("PATCH", `/api/images/${image}/selection`, { isSelected: true });

    const badEmail = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, email: "nope", firstName: "" } });
    expect(badEmail.status).toBe(400);
    const body = (await badEmail.json()) as ApiError;
    expect(body.fieldErrors).toMatchObject({
      "deliveryInfo.firstName": [MESSAGES.firstNameRequired],
      "deliveryInfo.email": [MESSAGES.invalidEmail],
    });
  });

  it("asks for a phone number, and for a state or province code in the US and Canada, with a clear message", async () => {
    const visitor = new Visitor();
    const { bookId, quoteId } = await readyBook(visitor, 5);
    const fieldErrorsOf = async (info: Record<string, unknown>) => {
      const response = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: info });
      expect(response.status).toBe(400);
      return ((await response.json()) as ApiError).fieldErrors;
    };
    const { phone: _, ...withoutPhone } = deliveryInfo;
    expect(await fieldErrorsOf(withoutPhone)).toMatchObject({ "deliveryInfo.phone": [MESSAGES.phoneRequired] });
    expect(await fieldErrorsOf({ ...deliveryInfo, phone: "call me" })).toMatchObject({ "deliveryInfo.phone": [MESSAGES.phoneInvalid] });
    expect(await fieldErrorsOf({ ...deliveryInfo, phone: "123" })).toMatchObject({ "deliveryInfo.phone": [MESSAGES.phoneInvalid] });

    const us = new Visitor();
    const made = await readyBook(us, 5);
    const usQuote = await us.send("POST", `/api/books/${made.bookId}/quote`, { deliveryAddress: { country: "US", zipCode: "10001" } });
    const { quoteId: usQuoteId } = (await usQuote.json()) as { quoteId: string };
    const usAddress = { ...deliveryInfo, country: "US", zipCode: "10001", city: "New York", phone: "(212) 555-0100" };
    const usOrder = (info: Record<string, unknown>) => us.send("POST", "/api/orders", { bookId: made.bookId, quoteId: usQuoteId, deliveryInfo: info });
    const noState = await usOrder(usAddress);
    expect(noState.status).toBe(400);
    expect(((await noState.json()) as ApiError).fieldErrors).toMatchObject({ "deliveryInfo.stateCode": [MESSAGES.stateRequired] });
    const badState = await usOrder({ ...usAddress, stateCode: "ON" });
    expect(((await badState.json()) as ApiError).fieldErrors).toMatchObject({ "deliveryInfo.stateCode": [MESSAGES.stateInvalid] });
    const placed = await usOrder({ ...usAddress, stateCode: " ny " });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const { id } = (await placed.json()) as { id: number };
    expect(JSON.parse((await orderRow(id))!.customer_info as string)).toMatchObject({ stateCode: "NY", phone: "(212) 555-0100" });

    // A UK address has no state: one typed anyway is not kept.
    const uk = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo: { ...deliveryInfo, stateCode: "XX" } });
    expect(uk.status).toBe(201);
    expect(JSON.parse((await orderRow(((await uk.json()) as { id: number }).id))!.customer_info as string)).not.toHaveProperty("stateCode");
  });

  it("is 404 for a stranger's book, even with its quote id", async () => {
    const owner = new Visitor();
    const { bookId, quoteId } = await readyBook(owner);
    const response = await new Visitor().send("POST", "/api/orders", { bookId, quoteId, deliveryInfo });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not found" });
  });
});

describe("POST /api/orders/{orderId}/payment", () => {
  async function placedOrder(visitor: Visitor, selected = 5) {
    const { bookId, quoteId } = await readyBook(visitor, selected);
    const response = await visitor.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo });
    return { bookId, quoteId, ...((await response.json()) as { id: number; orderNumber: string }) };
  }

  it("opens the local test checkout, and only its Pay button marks the order paid", async () => {
    const visitor = new Visitor();
    const order = await placedOrder(visitor);
    const response = await visitor.send("POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card", paymentDetails: {} });
    expect(response.status).toBe(200);
    const payment = (await response.json()) as { checkoutUrl: string; paymentStatus: string };
    expect(payment).toMatchObject({ orderId: order.id, orderNumber: order.orderNumber, paymentStatus: "paying" });
    expect(payment.checkoutUrl).toMatch(/^http:\/\/shop\.test\/test-checkout\/cs_local_[0-9a-f]{32}$/);
    expect(await orderRow(order.id)).toMatchObject({ payment_status: "paying", order_status: "placed" });

    const back = await payLocally(visitor, payment.checkoutUrl);
    expect(back).toMatch(new RegExp(`/book/${order.bookId}/order\\?session_id=cs_local_`));
    expect(await orderRow(order.id)).toMatchObject({ payment_status: "paid", order_status: "paid" });
  });

  it("cancelling closes the checkout and leaves the order unpaid; paying again opens a new checkout", async () => {
    const visitor = new Visitor();
    const order = await placedOrder(visitor);
    const first = await startPayment(visitor, order.id);
    const { landing } = await cancelLocally(visitor, first);
    expect(landing).toContain(`/book/${order.bookId}/order?cancelled=1`);
    expect(await orderRow(order.id)).toMatchObject({ payment_status: "pending", payment_session_id: null });
    const second = await startPayment(visitor, order.id);
    expect(second).not.toBe(first);
    expect(await startPayment(visitor, order.id)).toBe(second);
  });

  it("sends a paid book to the printer: page count fixed, photos, selection and orders frozen", async () => {
    const visitor = new Visitor();
    const order = await placedOrder(visitor, 7);
    await payLocally(visitor, await startPayment(visitor, order.id));
    const book = await env.DB.prepare("SELECT status, total_pages FROM books WHERE id = ?").bind(order.bookId).first();
    expect(book).toEqual({ status: "ordered", total_pages: 7 + EXTRA_PAGES });

    const image = await env.DB.prepare("SELECT id FROM images WHERE book_id = ? ORDER BY id LIMIT 1").bind(order.bookId).first<number>("id");
    const deselect = await visitor.send("PATCH", `/api/images/${image}/selection`, { isSelected: false });
    expect(deselect.status).toBe(409);
    expect(await message(deselect)).toBe(API_MESSAGES.bookAlreadyOrdered);
    const upload = await visitor.upload(order.bookId, [fakeJpeg("late.jpg")]);
    expect(upload.status).toBe(409);
    expect(await message(upload)).toBe(API_MESSAGES.bookAlreadyOrdered);
    const reorder = await visitor.send("POST", "/api/orders", { bookId: order.bookId, quoteId: order.quoteId, deliveryInfo });
    expect(reorder.status).toBe(409);
    const requote = await visitor.send("POST", `/api/books/${order.bookId}/quote`, { deliveryAddress: address });
    expect(requote.status).toBe(409);
    const selected = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ? AND is_selected = 1").bind(order.bookId).first<number>("n");
    expect(selected).toBe(7);
  });

  it("refuses to take a second payment for a paid order", async () => {
    const visitor = new Visitor();
    const order = await placedOrder(visitor);
    await payLocally(visitor, await startPayment(visitor, order.id));
    const again = await visitor.send("POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card" });
    expect(again.status).toBe(409);
    expect(await message(again)).toBe(API_MESSAGES.orderAlreadyPaid);
  });

  it("validates the method and is 404 for a stranger or an unknown order", async () => {
    const owner = new Visitor();
    const order = await placedOrder(owner);
    const badMethod = await owner.send("POST", `/api/orders/${order.id}/payment`, { paymentMethod: "cash" });
    expect(badMethod.status).toBe(400);

    const stranger = await new Visitor().send("POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card" });
    expect(stranger.status).toBe(404);
    expect((await owner.send("POST", "/api/orders/999999/payment", { paymentMethod: "card" })).status).toBe(404);
    expect((await owner.send("POST", "/api/orders/x/payment", { paymentMethod: "card" })).status).toBe(404);
    const row = await env.DB.prepare("SELECT payment_status FROM orders WHERE id = ?").bind(order.id).first("payment_status");
    expect(row).toBe("pending");
  });

  it("keeps a stranger off the test checkout page of someone else's order", async () => {
    const owner = new Visitor();
    const order = await placedOrder(owner);
    const url = await startPayment(owner, order.id);
    const stranger = new Visitor();
    expect((await stranger.fetch(new URL(url).pathname)).status).toBe(404);
    const pay = await stranger.fetch(new URL(url).pathname, { method: "POST", body: new URLSearchParams({ intent: "pay" }) });
    expect(pay.status).toBe(404);
    expect(await orderRow(order.id)).toMatchObject({ payment_status: "paying" });
  });
});
