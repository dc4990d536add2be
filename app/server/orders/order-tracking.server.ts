/**
 * Order tracking (docs/product.md §5.10): /orders/{number} shows an order's progress to the session
 * that placed it, and to anyone who gives the order number with the email address it was
 * placed with, so a lost cookie never loses an order. Anyone else sees the same lookup form
 * whether the number exists or not (404): order numbers are not a way to find strangers.
 */
import { and, eq } from "drizzle-orm";
import { DELIVERY_RANGE_TEXT } from "~/lib/customer-copy";
import { formatDay } from "~/lib/format";
import type { Database } from "~/core/db/database.server";
import { books, orders, type Order } from "~/core/db/schema.server";

export interface TrackedOrder {
  orderNumber: string;
  bookTitle: string;
  total: number;
  currency: string;
  quantity: number;
  pages: number;
  steps: { id: "paid" | "printing" | "shipped"; label: string; done: boolean; detail: string | null }[];
  estimatedDelivery: string;
  /** The print PDF exists: the page gives a download link (customer-pdf.server.ts). */
  pdfReady: boolean;
  /** Set once the desk marks the order shipped (/admin). */
  shipment: { trackingNumber: string; carrier: string | null; trackingUrl: string | null; shippedOn: string | null } | null;
}

const ORDER_NUMBER_PATTERN = /^CB-\d{8}-[2-9A-HJ-NP-Z]{5}$/;

async function findPaidOrder(db: Database, orderNumber: string) {
  if (!ORDER_NUMBER_PATTERN.test(orderNumber)) return null;
  const [row] = await db
    .select({ order: orders, bookTitle: books.title, owner: books.sessionId })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(and(eq(orders.orderNumber, orderNumber), eq(orders.paymentStatus, "paid")));
  return row ?? null;
}

/** The order if this session placed it; else null (the page asks for the email). */
export async function trackOwnOrder(db: Database, sessionId: string, orderNumber: string): Promise<TrackedOrder | null> {
  const row = await findPaidOrder(db, orderNumber);
  return row && row.owner === sessionId ? trackedOrder(row.order, row.bookTitle) : null;
}

/** The order if `email` is the one it was placed with (case and spaces aside); else null. */
export async function trackOrderByEmail(db: Database, orderNumber: string, email: string): Promise<TrackedOrder | null> {
  const row = await findPaidOrder(db, orderNumber);
  const given = email.trim().toLowerCase();
  const placedWith = row?.order.customerInfo?.email.trim().toLowerCase();
  return row && placedWith && given === placedWith ? trackedOrder(row.order, row.bookTitle) : null;
}

function trackedOrder(order: Order, bookTitle: string): TrackedOrder {
  const printing = order.orderStatus === "printing" || order.orderStatus === "shipped";
  const shipped = order.orderStatus === "shipped";
  return {
    orderNumber: order.orderNumber,
    bookTitle,
    total: order.pricing.total,
    currency: order.pricing.currency,
    quantity: order.pricing.quantity,
    pages: order.pricing.pages,
    steps: [
      { id: "paid", label: "Paid", done: true, detail: order.paidAt ? formatDay(order.paidAt) : null },
      { id: "printing", label: "Being printed", done: printing, detail: null },
      { id: "shipped", label: "Shipped", done: shipped, detail: shipped && order.shippedAt ? formatDay(order.shippedAt) : null },
    ],
    estimatedDelivery: order.estimatedDelivery ?? DELIVERY_RANGE_TEXT,
    pdfReady: Boolean(order.pdfKey),
    shipment:
      shipped && order.trackingNumber
        ? {
            trackingNumber: order.trackingNumber,
            // Set by the print partner's webhook (docs/decisions/028); the desk's manual move has neither.
            carrier: order.carrier,
            trackingUrl: order.trackingUrl,
            shippedOn: order.shippedAt ? formatDay(order.shippedAt) : null,
          }
        : null,
  };
}
