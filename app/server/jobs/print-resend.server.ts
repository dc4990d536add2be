/**
 * The hourly cron's safety net for printing (docs/decisions/028): a paid order that still has no
 * print PDF after a while (its print job's retries ran out, or a page needed the processing
 * sweep) is queued for its PDF again, and one whose PDF exists but that never reached the print
 * partner (the message was lost) is queued for the partner again. Both queues' consumers are
 * idempotent, so a message too many changes nothing.
 */
import { and, eq, gte, isNotNull, isNull, lt, or } from "drizzle-orm";
import { PRINT_CLAIM_STALE_SECONDS, PRINT_RESEND_AFTER_MINUTES, PRINT_RESEND_BATCH_SIZE, PRINT_RESEND_WINDOW_DAYS } from "~/lib/shop-rules";
import type { PrintJob, PrintSubmission } from "~/core/contracts/print";
import { database } from "~/core/db/database.server";
import { orders } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { printPartnerFor } from "~/server/printing/printing.server";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export async function resendStalledPrints(env: Env, now: Date): Promise<{ pdfs: number; submissions: number }> {
  const db = database(env.DB);
  const waitedSince = new Date(now.getTime() - PRINT_RESEND_AFTER_MINUTES * MINUTE);
  const paidSince = new Date(now.getTime() - PRINT_RESEND_WINDOW_DAYS * DAY);
  const open = and(eq(orders.paymentStatus, "paid"), isNull(orders.refundedAt), isNull(orders.shippedAt), gte(orders.paidAt, paidSince));

  const withoutPdf = await db
    .select({ id: orders.id })
    .from(orders)
    // One that needs attention (a page that cannot be printed) waits for a person's Send again.
    .where(and(open, isNull(orders.pdfKey), isNull(orders.printStatus), lt(orders.paidAt, waitedSince)))
    .limit(PRINT_RESEND_BATCH_SIZE);
  if (withoutPdf.length) await env.PRINT_QUEUE.sendBatch(withoutPdf.map(({ id }) => ({ body: { orderId: id } satisfies PrintJob })));

  // Only with a partner: without one the desk's manual moves print it.
  let unsent: { id: number }[] = [];
  if (printPartnerFor(env, db)) {
    const staleClaim = new Date(now.getTime() - PRINT_CLAIM_STALE_SECONDS * 1000);
    unsent = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          open,
          isNotNull(orders.pdfKey),
          lt(orders.pdfReadyAt, waitedSince),
          or(isNull(orders.printStatus), and(eq(orders.printStatus, "sending"), lt(orders.printClaimedAt, staleClaim))),
        ),
      )
      .limit(PRINT_RESEND_BATCH_SIZE);
    if (unsent.length) await env.PRINT_SUBMIT_QUEUE.sendBatch(unsent.map(({ id }) => ({ body: { orderId: id } satisfies PrintSubmission })));
  }
  return { pdfs: withoutPdf.length, submissions: unsent.length };
}
