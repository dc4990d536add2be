/**
 * Every paid order goes to the printer once (docs/decisions/028). When the sketch Worker has
 * stored an order's print PDF it sends `{orderId}` on print-submissions; `sendOrderToPrinter`
 * claims the order (one guarded UPDATE), asks the partner for the job with our order number as its
 * external id (the partner finds the one it already holds), and records it. The partner down:
 * the claim is given back and the queue retries with growing delays; the partner refusing: the
 * order shows the reason on the desk, with Send again.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import {
  PRINT_CLAIM_STALE_SECONDS,
  PRINT_SUBMIT_RETRY_BASE_SECONDS,
  PRINT_SUBMIT_RETRY_MAX_SECONDS,
} from "~/lib/shop-rules";
import { coverKeyFor, partnerInteriorPageCount, type CoverSize, type PrintJob, type PrintSubmission } from "~/core/contracts/print";
import { database, type Database } from "~/core/db/database.server";
import { books, orders, type Order } from "~/core/db/schema.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import { recordPdfReadyEmail, shopOrigin } from "~/server/orders/order-emails.server";
import type { TestPrinterMove } from "~/lib/admin-schemas";
import { localTestPrinter, moveLocalPrintJob } from "./local-test-printer.server";
import { handlePrintWebhook, type WebhookAnswer } from "./print-webhook.server";
import { LULU_COIL_BOUND_LETTER_BW, LULU_DEFAULT_SHIPPING_LEVEL, LULU_PRODUCTION_API, luluPartner } from "./lulu.server";
import { signedPrintFileUrl } from "./print-files.server";
import { PrintJobRefusedError, PrintPartnerUnavailableError, type PrintPartner } from "./print-partner.server";
import { partnerStatus } from "./print-status.server";

export const PRINT_SUBMIT_QUEUE = "print-submissions";
export const PRINT_SUBMIT_DEAD_LETTER_QUEUE = "print-submissions-dlq";

/**
 * Lulu when its keys are set; the local test printer only when switched on in development or
 * tests; otherwise null: no partner, the orders desk's manual moves (decision 015).
 */
export function printPartnerFor(env: Env, db: Database, fetchFn?: typeof fetch): PrintPartner | null {
  if (env.LULU_CLIENT_KEY && env.LULU_CLIENT_SECRET) {
    return luluPartner(
      {
        clientKey: env.LULU_CLIENT_KEY,
        clientSecret: env.LULU_CLIENT_SECRET,
        apiBase: (env.LULU_API_BASE || LULU_PRODUCTION_API).replace(/\/+$/, ""),
        podPackageId: env.LULU_POD_PACKAGE_ID || LULU_COIL_BOUND_LETTER_BW,
        shippingLevel: env.LULU_SHIPPING_LEVEL || LULU_DEFAULT_SHIPPING_LEVEL,
        contactEmail: env.PRINT_CONTACT_EMAIL || "",
        contactPhone: env.PRINT_CONTACT_PHONE || "",
      },
      fetchFn,
    );
  }
  if (env.LOCAL_TEST_PRINTER === "on" && isLocalEnvironment(env)) return localTestPrinter(db);
  return null;
}

/** Our external id for the order's current job: the order number, then `-2`, `-3` after Send again. */
export function printExternalId(order: Pick<Order, "orderNumber" | "printAttempt">): string {
  return order.printAttempt <= 1 ? order.orderNumber : `${order.orderNumber}-${order.printAttempt}`;
}

export type SendOutcome =
  | { status: "sent"; jobId: string }
  | { status: "refused"; reason: string }
  | { status: "skipped"; reason: string }
  /** Another message holds a fresh claim on it: this one is retried later. */
  | { status: "busy" };

export async function sendOrderToPrinter(
  env: Env,
  db: Database,
  partner: PrintPartner,
  orderId: number,
  now = new Date(),
): Promise<SendOutcome> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, orderId) });
  if (!order) return { status: "skipped", reason: "the order does not exist" };
  if (order.paymentStatus !== "paid") return { status: "skipped", reason: `the order is ${order.paymentStatus}` };
  if (order.refundedAt) return { status: "skipped", reason: "the order was refunded" };
  if (!order.pdfKey) return { status: "skipped", reason: "its print PDF is not made yet" };
  if (order.shippedAt) return { status: "skipped", reason: "the order has shipped" };
  if (order.printStatus && order.printStatus !== "sending") return { status: "skipped", reason: `already ${order.printStatus}` };

  const staleBefore = new Date(now.getTime() - PRINT_CLAIM_STALE_SECONDS * 1000);
  const [claimed] = await db
    .update(orders)
    .set({ printStatus: "sending", printClaimedAt: now, printAttempt: sql`max(${orders.printAttempt}, 1)` })
    .where(
      and(
        eq(orders.id, order.id),
        isNull(orders.shippedAt),
        or(isNull(orders.printStatus), and(eq(orders.printStatus, "sending"), lt(orders.printClaimedAt, staleBefore))),
      ),
    )
    .returning();
  if (!claimed) {
    const fresh = await db.query.orders.findFirst({ where: eq(orders.id, order.id) });
    return fresh?.printStatus === "sending" ? { status: "busy" } : { status: "skipped", reason: `already ${fresh?.printStatus}` };
  }

  const book = await db.query.books.findFirst({ where: eq(books.id, claimed.bookId), columns: { title: true } });
  if (!claimed.customerInfo) return recordRefusal(db, claimed, partner, "the order has no delivery address");
  const origin = shopOrigin(env);
  const interiorPageCount = partnerInteriorPageCount(claimed.printPages?.length ?? claimed.pricing.photos);
  let job;
  try {
    if (partner.coverSize) {
      const wanted = await partner.coverSize(interiorPageCount);
      if (!sameCoverSize(wanted, claimed)) return remakeCover(env, db, claimed, wanted);
    }
    if (partner.jobCost) await logJobCost(partner, claimed, interiorPageCount);
    job = await partner.submitJob({
      externalId: printExternalId(claimed),
      title: book?.title ?? "Coloring book",
      quantity: claimed.pricing.quantity,
      interiorUrl: await signedPrintFileUrl(env, origin, claimed.orderNumber, "interior", now),
      coverUrl: await signedPrintFileUrl(env, origin, claimed.orderNumber, "cover", now),
      shipTo: claimed.customerInfo,
    });
  } catch (error) {
    if (error instanceof PrintJobRefusedError) return recordRefusal(db, claimed, partner, error.reason);
    // Unavailable, or anything unexpected: give the claim back so the retry can take it at once.
    await db
      .update(orders)
      .set({ printStatus: null, printClaimedAt: null })
      .where(and(eq(orders.id, claimed.id), eq(orders.printStatus, "sending")));
    throw error;
  }
  const mapped = partnerStatus(job.status);
  const status = mapped === "in-production" || mapped === "shipped" ? mapped : "sent";
  await db
    .update(orders)
    .set({
      printPartner: partner.name,
      printJobId: job.id,
      printStatus: status === "shipped" ? "in-production" : status,
      printStatusDetail: null,
      orderStatus: "printing",
      sentToPrintAt: claimed.sentToPrintAt ?? now,
    })
    .where(and(eq(orders.id, claimed.id), eq(orders.printStatus, "sending")));
  return { status: "sent", jobId: job.id };
}

/** Within half a point: Lulu states sizes to a thousandth of a point. */
function sameCoverSize(wanted: CoverSize, order: Pick<Order, "coverWidthPt" | "coverHeightPt">): boolean {
  return (
    order.coverWidthPt !== null &&
    order.coverHeightPt !== null &&
    Math.abs(wanted.widthPt - order.coverWidthPt) < 0.5 &&
    Math.abs(wanted.heightPt - order.coverHeightPt) < 0.5
  );
}

/**
 * The partner asks for another cover size than ours was made at (or we do not know ours): the
 * size is recorded on the order, the cover removed, and the print job makes it again at that size;
 * once it exists, the order comes back here (print-submissions) and is sent. The claim is given back.
 */
async function remakeCover(env: Env, db: Database, order: Order, size: CoverSize): Promise<SendOutcome> {
  await db
    .update(orders)
    .set({ coverWidthPt: size.widthPt, coverHeightPt: size.heightPt, printStatus: null, printClaimedAt: null })
    .where(and(eq(orders.id, order.id), eq(orders.printStatus, "sending")));
  await env.IMAGES.delete(coverKeyFor(order.orderNumber));
  await env.PRINT_QUEUE.send({ orderId: order.id } satisfies PrintJob);
  console.log(`order ${order.orderNumber}: the printer asks for a ${size.widthPt} x ${size.heightPt} pt cover; it is made again`);
  return { status: "skipped", reason: "the cover is made again at the printer's size" };
}

/**
 * The partner's price for the job, in the log beside the order (the desk shows what the customer
 * paid; what the printer charges is in the partner's own account too). A failure to price it
 * never holds the job back.
 */
async function logJobCost(partner: PrintPartner, order: Order, interiorPageCount: number): Promise<void> {
  try {
    const cost = await partner.jobCost!({ interiorPageCount, quantity: order.pricing.quantity, shipTo: order.customerInfo! });
    console.log(`order ${order.orderNumber}: the printer charges ${cost.currency} ${cost.totalInclTax} (tax included)`);
  } catch (error) {
    console.warn(`order ${order.orderNumber}: the printer's cost could not be calculated`, error);
  }
}

async function recordRefusal(db: Database, order: Order, partner: PrintPartner, reason: string): Promise<SendOutcome> {
  await db
    .update(orders)
    .set({ printPartner: partner.name, printStatus: "rejected", printStatusDetail: reason })
    .where(and(eq(orders.id, order.id), eq(orders.printStatus, "sending")));
  console.warn(`order ${order.orderNumber}: the printer refused the job: ${reason}`);
  return { status: "refused", reason };
}

/** The queue's wait after the nth failed try: 30 s, 60 s, 2 min ... at most 30 min. */
export function submitRetryDelaySeconds(attempts: number): number {
  return Math.min(PRINT_SUBMIT_RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), PRINT_SUBMIT_RETRY_MAX_SECONDS);
}

/** The app Worker's consumer of print-submissions and its dead-letter queue. */
export async function handlePrintSubmissions(batch: MessageBatch<unknown>, env: Env, fetchFn?: typeof fetch): Promise<void> {
  const db = database(env.DB);
  const deadLetters = batch.queue.endsWith("-dlq");
  for (const message of batch.messages) {
    const orderId = submissionOrderId(message.body);
    if (orderId === null) {
      console.error("print submission without a valid orderId; dropped", message.id);
      message.ack();
      continue;
    }
    if (deadLetters) {
      await markNeedsAttention(db, orderId, "The printer could not be reached after every retry.");
      message.ack();
      continue;
    }
    // The message means the order's PDF now exists: the customer gets its link (once), partner or not.
    await recordPdfReadyEmail(env, db, orderId);
    const partner = printPartnerFor(env, db, fetchFn);
    if (!partner) {
      // No partner: the desk's manual moves print this order.
      message.ack();
      continue;
    }
    try {
      const outcome = await sendOrderToPrinter(env, db, partner, orderId);
      if (outcome.status === "busy") message.retry({ delaySeconds: PRINT_CLAIM_STALE_SECONDS });
      else message.ack();
    } catch (error) {
      const retryable = error instanceof PrintPartnerUnavailableError;
      console.error(`order ${orderId}: print submission attempt ${message.attempts} failed${retryable ? "" : " (unexpected)"}:`, error);
      message.retry({ delaySeconds: submitRetryDelaySeconds(message.attempts) });
    }
  }
}

/** A submission that used up its retries: the desk shows the order as needing attention. */
export async function markNeedsAttention(db: Database, orderId: number, reason: string): Promise<void> {
  await db
    .update(orders)
    .set({ printStatus: "needs-attention", printStatusDetail: reason })
    .where(and(eq(orders.id, orderId), or(isNull(orders.printStatus), eq(orders.printStatus, "sending"))));
}

/**
 * The desk's Send again, after a rejection, a cancellation or a submission that needed attention
 * (the cause fixed): the next job gets a new external id, so the partner makes a new one.
 */
export async function sendAgain(env: Env, db: Database, order: Order): Promise<boolean> {
  const [reset] = await db
    .update(orders)
    .set({
      printStatus: null,
      printJobId: null,
      printStatusDetail: null,
      printStatusChangedAt: null,
      printClaimedAt: null,
      // A job the partner made (rejected, cancelled) keeps its external id; the next one needs another.
      printAttempt: order.printJobId || order.printStatus !== "needs-attention" ? sql`max(${orders.printAttempt}, 1) + 1` : orders.printAttempt,
    })
    .where(and(eq(orders.id, order.id), or(eq(orders.printStatus, "rejected"), eq(orders.printStatus, "cancelled"), eq(orders.printStatus, "needs-attention"))))
    .returning({ id: orders.id });
  if (!reset) return false;
  // No PDF yet (a page could not be printed): build it again, which sends it on once it exists.
  if (!order.pdfKey) await env.PRINT_QUEUE.send({ orderId: order.id } satisfies PrintJob);
  else await env.PRINT_SUBMIT_QUEUE.send({ orderId: order.id } satisfies PrintSubmission);
  return true;
}

function submissionOrderId(body: unknown): number | null {
  const orderId = (body as Partial<PrintSubmission> | null)?.orderId;
  return typeof orderId === "number" && Number.isSafeInteger(orderId) && orderId > 0 ? orderId : null;
}

/**
 * The test printer page's move: the local job moves on, and the shop's webhook handler gets the
 * signed call Lulu would make. Null when the local test printer is not the partner or has no such job.
 */
export async function playTestPrinterMove(env: Env, db: Database, jobId: number, move: TestPrinterMove, now = new Date()): Promise<WebhookAnswer | null> {
  const partner = printPartnerFor(env, db);
  if (partner?.name !== "local-test") return null;
  const request = await moveLocalPrintJob(db, jobId, move, shopOrigin(env), now);
  return request ? handlePrintWebhook(env, db, partner, request, now) : null;
}
