/**
 * Order emails (issue 10 item 3): the confirmation when an order is paid and the shipped email
 * with its tracking number. An email is recorded in D1 (`order_emails`) first and delivered
 * from there, so a failed delivery never loses it and never blocks the payment or the desk.
 *
 * FIRST VERSION (contract only): records a plain-text email; no provider, no React templates,
 * no retries yet. The signature of `recordOrderEmail` is what callers rely on.
 */
import { eq } from "drizzle-orm";
import type { Database } from "./db.server";
import { books, orderEmails, orders, type OrderEmailKind } from "./db/schema";
import type { Env } from "./env.server";

/**
 * Records the `kind` email of an order (at most one per kind and order) and starts its delivery.
 * Safe to call twice. Never throws for a delivery problem: the caller's work is already done.
 */
export async function recordOrderEmail(
  env: Env,
  db: Database,
  orderId: number,
  kind: OrderEmailKind,
): Promise<void> {
  const [row] = await db
    .select({ order: orders, title: books.title })
    .from(orders)
    .innerJoin(books, eq(books.id, orders.bookId))
    .where(eq(orders.id, orderId));
  const to = row?.order.customerInfo?.email;
  if (!row || !to) return;
  const subject =
    kind === "order-confirmation"
      ? `Order ${row.order.orderNumber} confirmed`
      : `Order ${row.order.orderNumber} shipped`;
  const text =
    kind === "order-confirmation"
      ? `Thank you for your order of "${row.title}".`
      : `Your book "${row.title}" is on its way. Tracking number: ${row.order.trackingNumber ?? ""}`;
  await db
    .insert(orderEmails)
    .values({
      orderId,
      kind,
      toAddress: to,
      subject,
      html: `<p>${escapeHtml(text)}</p>`,
      textBody: text,
      status: "outbox",
    })
    .onConflictDoNothing();
  void env;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
