/**
 * Payments to review (decision 018): money that arrived but did not pay for a book as ordered (its
 * amount or its pages no longer matched, so the order was not marked paid), and second payments
 * of a book already paid. Written by the one fulfilment path (payments.server.ts), listed on the
 * orders desk (admin-orders.server.ts), where staff record the refund they made by hand.
 */
import { and, desc, eq, isNotNull, isNull, notInArray } from "drizzle-orm";
import { ADMIN_REFUNDED_PAYMENTS_SHOWN } from "~/lib/shop-rules";
import type { Database } from "~/core/db/database.server";
import { orders, paymentProblems, type Order, type PaymentProblemKind } from "~/core/db/schema.server";

export interface PaymentProblemReport {
  order: Pick<Order, "id" | "orderNumber">;
  sessionId: string;
  kind: PaymentProblemKind;
  amount: number | null;
  currency: string | null;
  detail: string;
}

/** Records a payment to review, once per provider session (replays change nothing), and logs it. */
export async function recordPaymentProblem(db: Database, report: PaymentProblemReport, now = new Date()): Promise<void> {
  console.error(`payment ${report.sessionId} for order ${report.order.orderNumber}: ${report.kind}: ${report.detail}; listed on the desk`);
  await db
    .insert(paymentProblems)
    .values({
      orderId: report.order.id,
      orderNumber: report.order.orderNumber,
      sessionId: report.sessionId,
      kind: report.kind,
      amount: report.amount,
      currency: report.currency,
      detail: report.detail,
      createdAt: now,
    })
    .onConflictDoNothing({ target: paymentProblems.sessionId });
}

export interface DeskPaymentProblem {
  id: number;
  orderNumber: string;
  sessionId: string;
  kind: PaymentProblemKind;
  amount: number | null;
  currency: string | null;
  detail: string;
  createdAt: string;
  refundedAt: string | null;
}

/**
 * Every payment still to refund, newest first, then the newest refunded ones (so the desk shows
 * what was done). An old unrefunded payment never drops off the list behind newer rows.
 */
export async function listPaymentProblems(db: Database): Promise<DeskPaymentProblem[]> {
  const newestFirst = [desc(paymentProblems.createdAt), desc(paymentProblems.id)] as const;
  const [open, refunded] = await Promise.all([
    db.select().from(paymentProblems).where(isNull(paymentProblems.refundedAt)).orderBy(...newestFirst),
    db.select().from(paymentProblems).where(isNotNull(paymentProblems.refundedAt)).orderBy(...newestFirst).limit(ADMIN_REFUNDED_PAYMENTS_SHOWN),
  ]);
  const rows = [...open, ...refunded];
  return rows.map((row) => ({
    id: row.id,
    orderNumber: row.orderNumber,
    sessionId: row.sessionId,
    kind: row.kind,
    amount: row.amount,
    currency: row.currency,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt ? row.refundedAt.toISOString() : null,
  }));
}

/**
 * Whether the buyer's payment through this checkout session of one of the book's orders was
 * refused (it no longer matched): their page says so instead of waiting for a confirmation.
 */
export async function paymentRefused(db: Database, bookId: number, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentProblems.id })
    .from(paymentProblems)
    .innerJoin(orders, eq(orders.id, paymentProblems.orderId))
    .where(
      and(
        eq(paymentProblems.sessionId, sessionId),
        eq(orders.bookId, bookId),
        // A second payment of a paid book, and a paid order held for its address, did pay.
        notInArray(paymentProblems.kind, ["paid-twice", "no-address"]),
      ),
    );
  return Boolean(row);
}

/** Records that staff refunded the payment: "marked", "already" (a repeat) or "unknown". */
export async function markPaymentProblemRefunded(db: Database, id: number, now = new Date()): Promise<"marked" | "already" | "unknown"> {
  const changed = await db
    .update(paymentProblems)
    .set({ refundedAt: now })
    .where(and(eq(paymentProblems.id, id), isNull(paymentProblems.refundedAt)))
    .returning({ id: paymentProblems.id });
  if (changed.length > 0) return "marked";
  const [row] = await db.select({ id: paymentProblems.id }).from(paymentProblems).where(eq(paymentProblems.id, id));
  return row ? "already" : "unknown";
}
