/**
 * The customer's own PDF of their book, to print at home (docs/decisions/028): once the print
 * PDF exists, the success page and /orders/{number} give a signed link valid
 * CUSTOMER_PDF_LINK_DAYS; each visit to those pages gives a fresh one. The order confirmation
 * email carries one when the PDF exists by then, else the pdf-ready email does, once
 * (order-emails.server.ts). The file is streamed
 * from the private R2 bucket by the app Worker, never a public URL.
 */
import { and, eq } from "drizzle-orm";
import { CUSTOMER_PDF_LINK_DAYS } from "~/lib/shop-rules";
import type { Database } from "~/core/db/database.server";
import { orders } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { hmacBase64Url, verifyHmacBase64Url } from "~/server/http/signing.server";

const signedMessage = (orderNumber: string, expires: number) => `customer-pdf\n${orderNumber}\n${expires}`;

/** A relative link (the pages it is shown on are the shop's own). */
export async function customerPdfUrl(env: Env, orderNumber: string, now: Date): Promise<string> {
  return (await customerPdfLink(env, orderNumber, now)).path;
}

/** The link's path and until when it works (an email puts the shop's origin before it and names the date). */
export async function customerPdfLink(env: Env, orderNumber: string, now: Date): Promise<{ path: string; expiresAt: Date }> {
  const expires = Math.floor(now.getTime() / 1000) + CUSTOMER_PDF_LINK_DAYS * 24 * 60 * 60;
  const query = new URLSearchParams({ expires: String(expires), signature: await hmacBase64Url(env, signedMessage(orderNumber, expires)) });
  return { path: `/orders/${encodeURIComponent(orderNumber)}/book.pdf?${query}`, expiresAt: new Date(expires * 1000) };
}

export type CustomerPdf = { status: "ok"; object: R2ObjectBody } | { status: "expired" } | { status: "not-found" };

/** An expired link is told apart (the page offers a fresh one); any other wrong link is not found. */
export async function openCustomerPdf(env: Env, db: Database, orderNumber: string, search: URLSearchParams, now: Date): Promise<CustomerPdf> {
  const expires = Number(search.get("expires"));
  const signature = search.get("signature") ?? "";
  if (!Number.isSafeInteger(expires) || !(await verifyHmacBase64Url(env, signedMessage(orderNumber, expires), signature))) {
    return { status: "not-found" };
  }
  if (expires * 1000 <= now.getTime()) return { status: "expired" };
  const [order] = await db
    .select({ pdfKey: orders.pdfKey })
    .from(orders)
    .where(and(eq(orders.orderNumber, orderNumber), eq(orders.paymentStatus, "paid")));
  const object = order?.pdfKey ? await env.IMAGES.get(order.pdfKey) : null;
  return object ? { status: "ok", object } : { status: "not-found" };
}
