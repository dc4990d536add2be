/**
 * Order emails (docs/product.md §12, decision 015): the confirmation when an order is paid and the shipped email
 * with its tracking number. The customer's own PDF link (decision 028) goes out exactly once: in
 * the confirmation when the PDF exists by then, else in the pdf-ready email recorded when the PDF
 * is made (recordPdfReadyEmail; the cron records one that was missed). An email is recorded in D1 (`order_emails`) first and delivered
 * from there, so a failed delivery never loses it and never blocks the payment or the desk.
 *
 * Life of a row (statuses documented in app/core/db/schema.server.ts):
 * - no provider configured (no RESEND_API_KEY/EMAIL_FROM: `npm run dev`, tests): "outbox", the
 *   local outbox /admin shows; nothing is sent.
 * - provider configured: "pending", then one try at once (in the background when the caller
 *   hands in `waitUntil`). A try claims the row by pushing `next_attempt_at` ahead, so the cron
 *   and an inline try never send it side by side. Sent → "sent" with Resend's id. A retryable
 *   failure → attempts + 1, `last_error`, `next_attempt_at` with exponential backoff, until
 *   ORDER_EMAIL_MAX_ATTEMPTS → "failed". A permanent refusal (4xx but 429) → "failed" at once.
 * - the hourly cron (`deliverDueEmails`) tries every due "pending" row, and first records the
 *   emails a recent paid or shipped order is missing (a recording that failed after payment).
 */
import { and, eq, gte, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { createElement } from "react";
import { COUNTRY_NAMES, DELIVERY_RANGE_TEXT, ORDER_EMAIL_TEXT } from "~/lib/customer-copy";
import { LOCAL_SHOP_ORIGIN, ORDER_EMAIL_BATCH_SIZE, ORDER_EMAIL_CLAIM_SECONDS, ORDER_EMAIL_MAX_ATTEMPTS, ORDER_EMAIL_REPAIR_WINDOW_DAYS, ORDER_EMAIL_RETRY_BASE_SECONDS, PDF_READY_EMAIL_REPAIR_AFTER_SECONDS, type DeliveryCountry } from "~/lib/shop-rules";
import { formatDay, formatMoney } from "~/lib/format";
import { OrderConfirmationEmail, orderConfirmationText } from "~/emails/order-confirmation-email";
import { OrderShippedEmail, orderShippedText } from "~/emails/order-shipped-email";
import { PdfReadyEmail, pdfReadyText, type CustomerPdfLink } from "~/emails/pdf-ready-email";
import { renderEmailHtml } from "~/emails/render.server";
import { database, type Database } from "~/core/db/database.server";
import { books, orderEmails, orders, type CustomerInfo, type Order, type OrderEmail, type OrderEmailKind } from "~/core/db/schema.server";
import { emailProviderFor, type EmailProvider } from "./email-provider.server";
import { customerPdfLink } from "./customer-pdf.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";

export interface OrderEmailOptions {
  /**
   * The Worker's waitUntil, e.g. `(promise) => context.cloudflare.ctx.waitUntil(promise)`: the
   * first try then runs after the response is sent. Without it the caller waits for the try
   * (at most ORDER_EMAIL_SEND_TIMEOUT_MS).
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** The origin of the request behind the email; PUBLIC_ORIGIN wins when it is set. */
  origin?: string;
  /** Resend's fetch; tests hand in a fake. */
  fetchFn?: typeof fetch;
  now?: Date;
}

/**
 * Records the `kind` email of an order (at most one per kind and order) and starts its delivery.
 * Safe to call twice: a second call finds the row and sends nothing. Never throws: the caller's
 * work (a payment, a shipment) is done, and the cron records what a failure here left out.
 */
export async function recordOrderEmail(
  env: Env,
  db: Database,
  orderId: number,
  kind: OrderEmailKind,
  options: OrderEmailOptions = {},
): Promise<void> {
  try {
    const now = options.now ?? new Date();
    const provider = emailProviderFor(env, options.fetchFn);
    const emailId = await insertOrderEmail(env, db, orderId, kind, provider !== null, now, options.origin);
    if (emailId === null || !provider) return;
    const delivery = deliverOrderEmail(db, provider, emailId, now).catch((error) => {
      console.error(`order ${orderId}: the ${kind} email was recorded, its first try failed (the cron retries)`, error);
    });
    if (options.waitUntil) options.waitUntil(delivery);
    else await delivery;
  } catch (error) {
    console.error(`order ${orderId}: the ${kind} email was not recorded (the cron records it later)`, error);
  }
}

/**
 * When the order's PDF has been made: the pdf-ready email, unless the customer has no confirmation
 * yet (it will carry the link) or the confirmation already carried it. At most one per order
 * (its row is unique per order and kind). Never throws, as recordOrderEmail.
 */
export async function recordPdfReadyEmail(env: Env, db: Database, orderId: number, options: OrderEmailOptions = {}): Promise<void> {
  try {
    if (!(await needsPdfReadyEmail(db, orderId))) return;
  } catch (error) {
    console.error(`order ${orderId}: could not tell whether its PDF link was emailed (the cron looks again)`, error);
    return;
  }
  await recordOrderEmail(env, db, orderId, "pdf-ready", options);
}

async function needsPdfReadyEmail(db: Database, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ orderId: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), pdfLinkNotEmailed));
  return Boolean(row);
}

/** A paid order with its PDF, a confirmation that carried no PDF link, and no pdf-ready email. */
const pdfLinkNotEmailed = and(
  eq(orders.paymentStatus, "paid"),
  isNotNull(orders.pdfKey),
  sql`EXISTS (SELECT 1 FROM ${orderEmails} WHERE ${orderEmails.orderId} = ${orders.id} AND ${orderEmails.kind} = 'order-confirmation' AND ${orderEmails.pdfLinkUntil} IS NULL)`,
  sql`NOT EXISTS (SELECT 1 FROM ${orderEmails} WHERE ${orderEmails.orderId} = ${orders.id} AND ${orderEmails.kind} = 'pdf-ready')`,
)!;

/** The new row's id, or null when the order already has this email (or has no address). */
async function insertOrderEmail(
  env: Env,
  db: Database,
  orderId: number,
  kind: OrderEmailKind,
  willSend: boolean,
  now: Date,
  requestOrigin?: string,
): Promise<number | null> {
  const content = await composeOrderEmail(env, db, orderId, kind, now, requestOrigin);
  if (!content) return null;
  const [recorded] = await db
    .insert(orderEmails)
    .values({ orderId, kind, ...content, status: willSend ? "pending" : "outbox", nextAttemptAt: willSend ? now : null })
    .onConflictDoNothing()
    .returning({ id: orderEmails.id });
  return recorded?.id ?? null;
}

export interface EmailRunReport {
  recorded: number;
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * The hourly Cron Trigger's part: record the emails recent orders are missing, then try every
 * pending email that is due (at most ORDER_EMAIL_BATCH_SIZE a run; the rest wait an hour).
 */
export async function deliverDueEmails(env: Env, now: Date, options: Pick<OrderEmailOptions, "fetchFn"> = {}): Promise<EmailRunReport> {
  const db = database(env.DB);
  const report: EmailRunReport = { recorded: 0, sent: 0, retrying: 0, failed: 0 };
  const provider = emailProviderFor(env, options.fetchFn);

  for (const { orderId, kind } of await ordersMissingEmails(db, now)) {
    // Recorded as due now: the pass below sends it with the others.
    try {
      if ((await insertOrderEmail(env, db, orderId, kind, provider !== null, now)) !== null) report.recorded += 1;
    } catch (error) {
      console.error(`order ${orderId}: the missing ${kind} email could not be recorded`, error);
    }
  }
  if (!provider) return report;

  const due = await db
    .select({ id: orderEmails.id })
    .from(orderEmails)
    .where(and(eq(orderEmails.status, "pending"), or(isNull(orderEmails.nextAttemptAt), lte(orderEmails.nextAttemptAt, now))))
    .orderBy(orderEmails.nextAttemptAt)
    .limit(ORDER_EMAIL_BATCH_SIZE);
  for (const { id } of due) {
    const outcome = await deliverOrderEmail(db, provider, id, now).catch((error) => {
      console.error(`order email ${id}: delivery failed`, error);
      return "skipped" as const;
    });
    if (outcome === "sent") report.sent += 1;
    else if (outcome === "retrying") report.retrying += 1;
    else if (outcome === "failed") report.failed += 1;
  }
  return report;
}

type DeliveryOutcome = "sent" | "retrying" | "failed" | "skipped";

/** One try of one email, if it is pending, due, and no other try holds it. */
async function deliverOrderEmail(db: Database, provider: EmailProvider, emailId: number, now: Date): Promise<DeliveryOutcome> {
  const [email] = await db
    .update(orderEmails)
    .set({ nextAttemptAt: new Date(now.getTime() + ORDER_EMAIL_CLAIM_SECONDS * 1000) })
    .where(
      and(
        eq(orderEmails.id, emailId),
        eq(orderEmails.status, "pending"),
        or(isNull(orderEmails.nextAttemptAt), lte(orderEmails.nextAttemptAt, now)),
      ),
    )
    .returning();
  if (!email) return "skipped";

  const outcome = await provider.send({
    to: email.toAddress,
    subject: email.subject,
    html: email.html,
    text: email.textBody,
    idempotencyKey: idempotencyKeyOf(email),
  });
  const attempts = email.attempts + 1;
  if (outcome.status === "sent") {
    await db
      .update(orderEmails)
      .set({ status: "sent", attempts, sentAt: now, providerMessageId: outcome.providerMessageId, lastError: null, nextAttemptAt: null })
      .where(eq(orderEmails.id, email.id));
    return "sent";
  }
  const givingUp = outcome.status === "permanent" || attempts >= ORDER_EMAIL_MAX_ATTEMPTS;
  await db
    .update(orderEmails)
    .set({
      status: givingUp ? "failed" : "pending",
      attempts,
      lastError: outcome.error,
      nextAttemptAt: givingUp ? null : new Date(now.getTime() + retryDelaySeconds(attempts) * 1000),
    })
    .where(eq(orderEmails.id, email.id));
  if (givingUp) console.error(`order ${email.orderId}: the ${email.kind} email failed for good: ${outcome.error}`);
  return givingUp ? "failed" : "retrying";
}

/** Resend sends an email once per key (for 24 hours): one key per email, whatever the try. */
function idempotencyKeyOf(email: Pick<OrderEmail, "orderId" | "kind">): string {
  return `order-${email.orderId}-${email.kind}`;
}

/** 1, 2, 4 ... minutes after the 1st, 2nd, 3rd ... failed try. */
export function retryDelaySeconds(failedAttempts: number): number {
  return ORDER_EMAIL_RETRY_BASE_SECONDS * 2 ** Math.max(0, failedAttempts - 1);
}

/** Recent paid orders without a confirmation, recent shipped orders without a shipped email. */
async function ordersMissingEmails(db: Database, now: Date): Promise<{ orderId: number; kind: OrderEmailKind }[]> {
  const since = new Date(now.getTime() - ORDER_EMAIL_REPAIR_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const missing = (kind: OrderEmailKind) =>
    sql`NOT EXISTS (SELECT 1 FROM ${orderEmails} WHERE ${orderEmails.orderId} = ${orders.id} AND ${orderEmails.kind} = ${kind})`;
  const unconfirmed = await db
    .select({ orderId: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentStatus, "paid"), gte(orders.paidAt, since), missing("order-confirmation")))
    .limit(ORDER_EMAIL_BATCH_SIZE);
  const pdfLinkMissing = await db
    .select({ orderId: orders.id })
    .from(orders)
    .where(and(gte(orders.paidAt, since), lte(orders.pdfReadyAt, new Date(now.getTime() - PDF_READY_EMAIL_REPAIR_AFTER_SECONDS * 1000)), pdfLinkNotEmailed))
    .limit(ORDER_EMAIL_BATCH_SIZE);
  const unannounced = await db
    .select({ orderId: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentStatus, "paid"), isNotNull(orders.shippedAt), gte(orders.shippedAt, since), missing("order-shipped")))
    .limit(ORDER_EMAIL_BATCH_SIZE);
  return [
    ...unconfirmed.map(({ orderId }) => ({ orderId, kind: "order-confirmation" as const })),
    ...unannounced.map(({ orderId }) => ({ orderId, kind: "order-shipped" as const })),
    ...pdfLinkMissing.map(({ orderId }) => ({ orderId, kind: "pdf-ready" as const })),
  ];
}

interface ComposedEmail {
  toAddress: string;
  subject: string;
  html: string;
  textBody: string;
  pdfLinkUntil: Date | null;
}

async function composeOrderEmail(
  env: Env,
  db: Database,
  orderId: number,
  kind: OrderEmailKind,
  now: Date,
  requestOrigin: string | undefined,
): Promise<ComposedEmail | null> {
  const [row] = await db
    .select({ order: orders, title: books.title })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(eq(orders.id, orderId));
  const customer = row?.order.customerInfo;
  if (!row || !customer?.email) {
    console.error(`order ${orderId}: no ${kind} email, the order has no email address`);
    return null;
  }
  const { order, title } = row;
  const origin = shopOrigin(env, requestOrigin);
  const common = {
    origin,
    firstName: customer.firstName,
    orderNumber: order.orderNumber,
    bookTitle: title,
    trackingUrl: orderTrackingUrl(origin, order),
  };
  if (kind === "pdf-ready") {
    if (!order.pdfKey) return null;
    const link = await pdfLinkOf(env, origin, order, now);
    const props = { ...common, pdf: link.pdf };
    return {
      toAddress: customer.email,
      subject: ORDER_EMAIL_TEXT.pdfReadySubject(order.orderNumber),
      html: await renderEmailHtml(createElement(PdfReadyEmail, props)),
      textBody: pdfReadyText(props),
      pdfLinkUntil: link.expiresAt,
    };
  }
  if (kind === "order-confirmation") {
    // The link goes out once: here when the PDF exists by now, unless a pdf-ready email has it.
    const link = order.pdfKey && !(await hasEmail(db, order.id, "pdf-ready")) ? await pdfLinkOf(env, origin, order, now) : null;
    const props = {
      ...common,
      pdf: link?.pdf ?? null,
      pages: order.pricing.pages,
      quantity: order.pricing.quantity,
      total: formatMoney(order.pricing.total, order.pricing.currency),
      estimatedDelivery: order.estimatedDelivery ?? DELIVERY_RANGE_TEXT,
      addressLines: addressLines(customer),
    };
    return {
      toAddress: customer.email,
      subject: ORDER_EMAIL_TEXT.confirmationSubject(order.orderNumber),
      html: await renderEmailHtml(createElement(OrderConfirmationEmail, props)),
      textBody: orderConfirmationText(props),
      pdfLinkUntil: link?.expiresAt ?? null,
    };
  }
  const props = { ...common, trackingNumber: order.trackingNumber, carrier: order.carrier, carrierTrackingUrl: order.trackingUrl };
  return {
    toAddress: customer.email,
    subject: ORDER_EMAIL_TEXT.shippedSubject(order.orderNumber),
    html: await renderEmailHtml(createElement(OrderShippedEmail, props)),
    textBody: orderShippedText(props),
    pdfLinkUntil: null,
  };
}

async function hasEmail(db: Database, orderId: number, kind: OrderEmailKind): Promise<boolean> {
  const [row] = await db
    .select({ id: orderEmails.id })
    .from(orderEmails)
    .where(and(eq(orderEmails.orderId, orderId), eq(orderEmails.kind, kind)));
  return Boolean(row);
}

/** The customer's signed PDF link, absolute (an email is read outside the shop). */
async function pdfLinkOf(env: Env, origin: string, order: Order, now: Date): Promise<{ pdf: CustomerPdfLink; expiresAt: Date }> {
  const { path, expiresAt } = await customerPdfLink(env, order.orderNumber, now);
  return { pdf: { url: `${origin}${path}`, until: formatDay(expiresAt) }, expiresAt };
}

/**
 * Links in emails point at PUBLIC_ORIGIN; else at the origin of the request that caused the
 * email; else (`npm run dev`, tests, or a production shop that forgot PUBLIC_ORIGIN, which is
 * logged) at LOCAL_SHOP_ORIGIN.
 */
export function shopOrigin(env: Pick<Env, "PUBLIC_ORIGIN" | "APP_ENV">, requestOrigin?: string): string {
  for (const candidate of [env.PUBLIC_ORIGIN, requestOrigin]) {
    if (!candidate) continue;
    try {
      return new URL(candidate).origin;
    } catch {
      console.error(`not an origin for email links: ${candidate}`);
    }
  }
  if (!isLocalEnvironment(env)) console.error(`PUBLIC_ORIGIN is not set: order emails link to ${LOCAL_SHOP_ORIGIN}`);
  return LOCAL_SHOP_ORIGIN;
}

function orderTrackingUrl(origin: string, order: Pick<Order, "orderNumber">): string {
  return `${origin}/orders/${encodeURIComponent(order.orderNumber)}`;
}

function addressLines(customer: CustomerInfo): string[] {
  const country = COUNTRY_NAMES[customer.country as DeliveryCountry] ?? customer.country;
  return [
    `${customer.firstName} ${customer.lastName}`,
    customer.address1,
    customer.address2,
    `${customer.city} ${customer.zipCode}`,
    country,
  ].filter((line): line is string => Boolean(line?.trim()));
}
