/**
 * The orders desk (/admin): paid orders with one display status, the moves of fulfilment (sent to
 * print, shipped with a tracking number, refunded), the payments to review (decision 018,
 * payment-problems.server.ts), the outbox of order emails, and the print PDF. Every move is one guarded UPDATE, so a double click or two admins at once change a row
 * once; a move that makes no sense for the order's state is refused with a reason.
 */
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { DeskAction } from "~/lib/admin-schemas";
import { ADMIN_ORDER_STATUS_LABELS, ADMIN_TEXT } from "~/lib/customer-copy";
import { ADMIN_ORDERS_PAGE_SIZE, ADMIN_OUTBOX_LIMIT } from "~/lib/shop-rules";
import type { Database } from "~/core/db/database.server";
import { books, orderEmails, orders, type CustomerInfo, type Order } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { recordOrderEmail } from "~/server/orders/order-emails.server";
import { markPaymentProblemRefunded } from "~/server/payments/payment-problems.server";
import { sendAgain } from "~/server/printing/printing.server";

export type DeskStatus = keyof typeof ADMIN_ORDER_STATUS_LABELS;

/** The furthest step an order has reached; a refund overrides everything. */
export function deskStatus(
  order: Pick<Order, "refundedAt" | "shippedAt" | "orderStatus" | "sentToPrintAt" | "pdfKey" | "printStatus">,
): DeskStatus {
  if (order.refundedAt) return "refunded";
  if (order.shippedAt || order.orderStatus === "shipped") return "shipped";
  // Where the print partner has it (docs/decisions/028).
  if (order.printStatus === "rejected") return "print-rejected";
  if (order.printStatus === "cancelled") return "print-cancelled";
  if (order.printStatus === "needs-attention") return "needs-attention";
  if (order.printStatus === "in-production") return "in-production";
  if (order.printStatus === "sending") return "sending-to-print";
  if (order.sentToPrintAt || order.orderStatus === "printing") return "sent-to-print";
  if (order.pdfKey) return "pdf-ready";
  return "paid";
}

export interface DeskOrder {
  orderNumber: string;
  status: DeskStatus;
  bookTitle: string;
  pages: number;
  quantity: number;
  total: number;
  currency: string;
  customer: CustomerInfo | null;
  paidAt: string | null;
  pdfReady: boolean;
  /** When retention deleted the book's photos, sketches and PDF (decision 019): no PDF to open then. */
  filesDeletedAt: string | null;
  sentToPrintAt: string | null;
  shippedAt: string | null;
  trackingNumber: string | null;
  refundedAt: string | null;
  /** The print partner's job, once the order went to one (docs/decisions/028). */
  print: { partner: string | null; jobId: string | null; detail: string | null; carrier: string | null; trackingUrl: string | null } | null;
  /** Which moves make sense now (the server checks again when one is made). */
  can: { sendToPrint: boolean; ship: boolean; refund: boolean; sendAgain: boolean };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const SENDABLE_AGAIN = new Set<Order["printStatus"]>(["rejected", "cancelled", "needs-attention"]);

function deskOrder(order: Order, bookTitle: string, filesDeletedAt: Date | null): DeskOrder {
  const status = deskStatus(order);
  const open = order.paymentStatus === "paid" && !order.refundedAt;
  return {
    orderNumber: order.orderNumber,
    status,
    bookTitle,
    pages: order.pricing.pages,
    quantity: order.pricing.quantity,
    total: order.pricing.total,
    currency: order.pricing.currency,
    customer: order.customerInfo,
    paidAt: iso(order.paidAt),
    pdfReady: Boolean(order.pdfKey) && !filesDeletedAt,
    filesDeletedAt: iso(filesDeletedAt),
    sentToPrintAt: iso(order.sentToPrintAt),
    shippedAt: iso(order.shippedAt),
    trackingNumber: order.trackingNumber,
    refundedAt: iso(order.refundedAt),
    print: order.printStatus
      ? { partner: order.printPartner, jobId: order.printJobId, detail: order.printStatusDetail, carrier: order.carrier, trackingUrl: order.trackingUrl }
      : null,
    can: {
      // A partner holds the job: the manual "sent to print" would only contradict it.
      sendToPrint: open && Boolean(order.pdfKey) && !order.sentToPrintAt && !order.shippedAt && !order.printStatus,
      ship: open && Boolean(order.pdfKey) && !order.shippedAt,
      refund: open,
      sendAgain: open && !order.shippedAt && SENDABLE_AGAIN.has(order.printStatus),
    },
  };
}

/** One page of paid orders (refunded ones stay listed), newest payment first. */
export async function listDeskOrders(db: Database, page: number): Promise<{ orders: DeskOrder[]; hasOlder: boolean }> {
  const rows = await db
    .select({ order: orders, bookTitle: books.title, filesDeletedAt: books.filesDeletedAt })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(eq(orders.paymentStatus, "paid"))
    .orderBy(desc(orders.paidAt), desc(orders.id))
    .limit(ADMIN_ORDERS_PAGE_SIZE + 1)
    .offset((page - 1) * ADMIN_ORDERS_PAGE_SIZE);
  return {
    orders: rows.slice(0, ADMIN_ORDERS_PAGE_SIZE).map((row) => deskOrder(row.order, row.bookTitle, row.filesDeletedAt)),
    hasOlder: rows.length > ADMIN_ORDERS_PAGE_SIZE,
  };
}

export interface OutboxEntry {
  id: number;
  orderNumber: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const outboxColumns = {
  id: orderEmails.id,
  orderNumber: orders.orderNumber,
  kind: orderEmails.kind,
  to: orderEmails.toAddress,
  subject: orderEmails.subject,
  status: orderEmails.status,
  attempts: orderEmails.attempts,
  lastError: orderEmails.lastError,
  createdAt: orderEmails.createdAt,
  sentAt: orderEmails.sentAt,
};

function outboxEntry(row: { createdAt: Date; sentAt: Date | null } & Omit<OutboxEntry, "createdAt" | "sentAt">): OutboxEntry {
  return { ...row, createdAt: row.createdAt.toISOString(), sentAt: iso(row.sentAt) };
}

/** The newest order emails, whatever their state (the desk is where failures are seen). */
export async function listOutbox(db: Database): Promise<OutboxEntry[]> {
  const rows = await db
    .select(outboxColumns)
    .from(orderEmails)
    .innerJoin(orders, eq(orders.id, orderEmails.orderId))
    .orderBy(desc(orderEmails.createdAt), desc(orderEmails.id))
    .limit(ADMIN_OUTBOX_LIMIT);
  return rows.map(outboxEntry);
}

/** One email with its bodies, to read on the desk. */
export async function findOutboxEmail(db: Database, id: number) {
  const [row] = await db
    .select({ ...outboxColumns, html: orderEmails.html, textBody: orderEmails.textBody })
    .from(orderEmails)
    .innerJoin(orders, eq(orders.id, orderEmails.orderId))
    .where(eq(orderEmails.id, id));
  return row ? { ...outboxEntry(row), html: row.html, textBody: row.textBody } : null;
}

export interface DeskActionResult {
  ok: boolean;
  message: string;
}

const refused = (message: string): DeskActionResult => ({ ok: false, message });
const done = (message: string): DeskActionResult => ({ ok: true, message });

async function findOrder(db: Database, orderNumber: string): Promise<Order | null> {
  const [order] = await db.select().from(orders).where(eq(orders.orderNumber, orderNumber));
  return order ?? null;
}

/** Why `order` cannot be printed or shipped, or null when it can. */
function fulfilmentRefusal(order: Order): string | null {
  if (order.refundedAt) return ADMIN_TEXT.refunded;
  if (order.paymentStatus !== "paid") return ADMIN_TEXT.notPaid;
  if (!order.pdfKey) return ADMIN_TEXT.pdfNotReady;
  return null;
}

/** What the row may be changed from: paid, not refunded, its PDF made. */
const fulfillable = (orderId: number) =>
  and(eq(orders.id, orderId), eq(orders.paymentStatus, "paid"), isNull(orders.refundedAt), isNotNull(orders.pdfKey));

/**
 * A guarded update changed nothing: someone else moved the order in between. The move is judged
 * again from what the row is now (its checks mirror the update's conditions, so this ends).
 */
async function againFromNow(db: Database, order: Order, move: (fresh: Order) => Promise<DeskActionResult>) {
  const fresh = await findOrder(db, order.orderNumber);
  return fresh ? move(fresh) : refused(ADMIN_TEXT.unknownOrder);
}

/** Applies one desk action; a refusal or a repeat is an answer, not an error. */
export async function applyDeskAction(env: Env, db: Database, action: DeskAction, now = new Date()): Promise<DeskActionResult> {
  // A payment to review may belong to an order that is gone: it is found by its own id.
  if (action.intent === "refund-payment") return markPaymentRefunded(db, action.problemId, now);
  const order = await findOrder(db, action.orderNumber);
  if (!order) return refused(ADMIN_TEXT.unknownOrder);
  switch (action.intent) {
    case "send-to-print":
      return sendToPrint(db, order, now);
    case "ship":
      return ship(env, db, order, action.trackingNumber, now);
    case "refund":
      return markRefunded(db, order, now);
    case "send-again":
      if (order.refundedAt || order.paymentStatus !== "paid" || order.shippedAt) return refused(ADMIN_TEXT.cannotSendAgain);
      return (await sendAgain(env, db, order)) ? done(ADMIN_TEXT.sentAgain) : refused(ADMIN_TEXT.cannotSendAgain);
  }
}

async function sendToPrint(db: Database, order: Order, now: Date): Promise<DeskActionResult> {
  if (order.shippedAt) return refused(ADMIN_TEXT.alreadyShipped);
  if (order.sentToPrintAt) return done(ADMIN_TEXT.alreadySentToPrint);
  const refusal = fulfilmentRefusal(order);
  if (refusal) return refused(refusal);
  const changed = await db
    .update(orders)
    .set({ orderStatus: "printing", sentToPrintAt: now })
    .where(and(fulfillable(order.id), isNull(orders.sentToPrintAt), isNull(orders.shippedAt)))
    .returning({ id: orders.id });
  // Someone else moved it in between: answer from what it is now.
  if (changed.length === 0) return againFromNow(db, order, (fresh) => sendToPrint(db, fresh, now));
  return done(ADMIN_TEXT.sentToPrint);
}

async function ship(env: Env, db: Database, order: Order, trackingNumber: string, now: Date): Promise<DeskActionResult> {
  if (order.shippedAt) {
    return order.trackingNumber === trackingNumber
      ? done(ADMIN_TEXT.alreadyShippedSame)
      : refused(`${ADMIN_TEXT.shippedWithOtherNumber} ${order.trackingNumber ?? ""}`.trim());
  }
  const refusal = fulfilmentRefusal(order);
  if (refusal) return refused(refusal);
  const changed = await db
    .update(orders)
    .set({ orderStatus: "shipped", shippedAt: now, trackingNumber })
    .where(and(fulfillable(order.id), isNull(orders.shippedAt)))
    .returning({ id: orders.id });
  if (changed.length === 0) return againFromNow(db, order, (fresh) => ship(env, db, fresh, trackingNumber, now));
  // After the update, and never undoing it: the book has shipped whatever the email does.
  try {
    await recordOrderEmail(env, db, order.id, "order-shipped");
  } catch (error) {
    console.error(`order ${order.orderNumber}: the shipped email was not recorded`, error);
    return done(ADMIN_TEXT.shippedEmailFailed);
  }
  return done(ADMIN_TEXT.shipped);
}

async function markRefunded(db: Database, order: Order, now: Date): Promise<DeskActionResult> {
  if (order.refundedAt) return done(ADMIN_TEXT.alreadyRefunded);
  if (order.paymentStatus !== "paid") return refused(ADMIN_TEXT.notPaid);
  const changed = await db
    .update(orders)
    .set({ refundedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.paymentStatus, "paid"), isNull(orders.refundedAt)))
    .returning({ id: orders.id });
  if (changed.length === 0) return againFromNow(db, order, (fresh) => markRefunded(db, fresh, now));
  return done(ADMIN_TEXT.markedRefunded);
}

async function markPaymentRefunded(db: Database, problemId: number, now: Date): Promise<DeskActionResult> {
  const outcome = await markPaymentProblemRefunded(db, problemId, now);
  if (outcome === "unknown") return refused(ADMIN_TEXT.unknownPayment);
  return done(outcome === "marked" ? ADMIN_TEXT.paymentMarkedRefunded : ADMIN_TEXT.paymentAlreadyRefunded);
}

/** The order's print-ready PDF from R2 (print/<orderNumber>.pdf), or null while it is not made. */
export async function openPrintPdf(env: Env, db: Database, orderNumber: string): Promise<R2ObjectBody | null> {
  const order = await findOrder(db, orderNumber);
  if (!order?.pdfKey || order.paymentStatus !== "paid") return null;
  return env.IMAGES.get(order.pdfKey);
}
