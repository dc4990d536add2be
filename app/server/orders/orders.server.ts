/** Orders of a book: created from a live quote, owned through the book's session. */
import { and, eq, inArray } from "drizzle-orm";
import { API_MESSAGES, DELIVERY_RANGE_TEXT } from "~/lib/customer-copy";
import { DELIVERY_MAX_BUSINESS_DAYS } from "~/lib/shop-rules";
import type { OrderDto } from "~/lib/api-types";
import type { orderRequestSchema } from "~/lib/schemas";
import type { z } from "zod";
import { isUniqueViolation, type Database } from "~/core/db/database.server";
import { books, orders, type Order } from "~/core/db/schema.server";
import { jsonError, notFound } from "~/server/http/http.server";
import { requireBook, requireEditableBook } from "~/server/books/books.server";
import { requirePhotoCountOfQuote, requireUsableQuote } from "./quotes.server";
import { paymentRefused } from "~/server/payments/payment-problems.server";

export type OrderRequest = z.infer<typeof orderRequestSchema>;

export function orderDto(order: Order): OrderDto {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    estimatedDelivery: order.estimatedDelivery,
    pricing: order.pricing,
    paymentStatus: order.paymentStatus,
    orderStatus: order.orderStatus,
  };
}

/** Without 0/O and 1/I, so an order number read out on the phone is unambiguous. */
const ORDER_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const ORDER_CODE_LENGTH = 5;

/** `CB-YYYYMMDD-XXXXX`: a date a person recognises and 32^5 random codes per day. */
export function newOrderNumber(now = new Date()): string {
  const date = now.toISOString().slice(0, 10).replace(/-/g, "");
  const random = crypto.getRandomValues(new Uint8Array(ORDER_CODE_LENGTH));
  const code = Array.from(random, (byte) => ORDER_CODE_ALPHABET[byte % ORDER_CODE_ALPHABET.length]).join("");
  return `CB-${date}-${code}`;
}

export function addBusinessDays(from: Date, days: number): Date {
  const date = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return date;
}

/** "3-15 business days (by Friday, 11 December 2026)": the range of docs/product.md §3 and a latest date. */
export function estimatedDeliveryText(now = new Date()): string {
  const latest = addBusinessDays(now, DELIVERY_MAX_BUSINESS_DAYS).toLocaleDateString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return `${DELIVERY_RANGE_TEXT} (by ${latest})`;
}

const ORDER_NUMBER_ATTEMPTS = 3;

/**
 * Places an order for a book of this session, priced from the quote row. One order per quote:
 * submitting the form again (a double click, a retry after a declined card) updates and returns
 * the pending order instead of making a second one. The book itself only becomes `ordered`
 * when the order is paid (`markOrderPaid`).
 */
export async function createOrder(db: Database, sessionId: string, input: OrderRequest, now = new Date()): Promise<Order> {
  const book = await requireBook(db, sessionId, input.bookId);
  requireEditableBook(book);
  const quote = await requireUsableQuote(db, book, input.quoteId, input.deliveryInfo, now);
  await requirePhotoCountOfQuote(db, book.id, quote.pricing);

  const existing = await reuseOrderOfQuote(db, quote.id, input);
  if (existing) return existing;

  const estimatedDelivery = estimatedDeliveryText(now);
  for (let attempt = 1; ; attempt++) {
    try {
      const [order] = await db
        .insert(orders)
        .values({
          bookId: book.id,
          quoteId: quote.id,
          orderNumber: newOrderNumber(now),
          customerInfo: input.deliveryInfo,
          pricing: quote.pricing,
          paymentMethod: input.paymentMethod,
          estimatedDelivery,
        })
        .returning();
      return order;
    } catch (error) {
      // Two submissions racing for the same quote: the loser answers with the winner's order.
      if (isUniqueViolation(error, "orders.quote_id")) {
        const winner = await reuseOrderOfQuote(db, quote.id, input);
        if (winner) return winner;
      }
      if (attempt < ORDER_NUMBER_ATTEMPTS && isUniqueViolation(error, "orders.order_number")) continue;
      throw error;
    }
  }
}

/**
 * The order already made from this quote; 409 if paid. While no checkout is open for it, it
 * takes the latest delivery details (an open checkout keeps the ones it was opened with).
 */
async function reuseOrderOfQuote(db: Database, quoteId: string, input: OrderRequest): Promise<Order | null> {
  const order = await db.query.orders.findFirst({ where: eq(orders.quoteId, quoteId) });
  if (!order) return null;
  if (order.paymentStatus === "paid") throw jsonError(409, API_MESSAGES.orderAlreadyPaid);
  const [updated] = await db
    .update(orders)
    .set({ customerInfo: input.deliveryInfo, paymentMethod: input.paymentMethod })
    .where(and(eq(orders.id, order.id), inArray(orders.paymentStatus, ["pending", "failed"])))
    .returning();
  return updated ?? order;
}

/** The order if its book belongs to this session; otherwise a thrown 404. */
export async function requireOrder(db: Database, sessionId: string, orderId: number): Promise<Order> {
  const [row] = await db
    .select({ order: orders })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(and(eq(orders.id, orderId), eq(books.sessionId, sessionId)));
  if (!row) throw notFound();
  return row.order;
}

export interface OrderPageState {
  /** The book's paid order: the page shows its confirmation instead of the form. */
  paidOrder: { orderNumber: string; pricing: Order["pricing"]; estimatedDelivery: string | null } | null;
  /** Back from the provider's page before its confirmation arrived: the page waits for it. */
  confirming: boolean;
  /** Back from a payment that was refused because it no longer matched the book (decision 018). */
  paymentRefused: boolean;
}

/** What the order page shows for a book of this visitor, given `?session_id=` from the provider. */
export async function orderPageState(db: Database, bookId: number, returnedSessionId: string | null): Promise<OrderPageState> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.bookId, bookId), inArray(orders.paymentStatus, ["paying", "paid"])));
  const paid = rows.find((order) => order.paymentStatus === "paid");
  const refused = !paid && returnedSessionId !== null && (await paymentRefused(db, bookId, returnedSessionId));
  return {
    paidOrder: paid ? { orderNumber: paid.orderNumber, pricing: paid.pricing, estimatedDelivery: paid.estimatedDelivery } : null,
    confirming: !paid && !refused && returnedSessionId !== null && rows.some((order) => order.paymentSessionId === returnedSessionId),
    paymentRefused: refused,
  };
}

export interface PaidOrderView {
  orderNumber: string;
  paid: boolean;
  /** The payment was refused because it no longer matched (decision 018): nothing to wait for. */
  refused: boolean;
  total: number;
  currency: string;
  quantity: number;
  pages: number;
  estimatedDelivery: string | null;
  /** The print PDF exists: the page gives the customer its download link (customer-pdf.server.ts). */
  pdfReady: boolean;
}

/**
 * The visitor's order behind a provider's checkout session (the success page's `session_id`),
 * as our records have it; null for a session we do not know or that is not this visitor's.
 */
export async function findOrderOfCheckoutSession(db: Database, visitorSessionId: string, checkoutSessionId: string): Promise<PaidOrderView | null> {
  if (!checkoutSessionId || checkoutSessionId.length > 200) return null;
  const [row] = await db
    .select({ order: orders })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(and(eq(orders.paymentSessionId, checkoutSessionId), eq(books.sessionId, visitorSessionId)));
  if (!row) return null;
  const { order } = row;
  const paid = order.paymentStatus === "paid";
  return {
    orderNumber: order.orderNumber,
    paid,
    refused: !paid && (await paymentRefused(db, order.bookId, checkoutSessionId)),
    total: order.pricing.total,
    currency: order.pricing.currency,
    quantity: order.pricing.quantity,
    pages: order.pricing.pages,
    estimatedDelivery: order.estimatedDelivery,
    pdfReady: paid && Boolean(order.pdfKey),
  };
}
