/**
 * The print partner fetches an order's print files from signed, expiring URLs served by the app
 * Worker (docs/decisions/028): the R2 bucket is never public, and a URL is good for one order's
 * one file until it expires. Signed with the session secret (signing.server.ts).
 */
import { and, eq } from "drizzle-orm";
import { PRINT_FILE_URL_TTL_SECONDS } from "~/lib/shop-rules";
import { coverKeyFor, partnerInteriorKeyFor } from "~/core/contracts/print";
import type { Database } from "~/core/db/database.server";
import { orders } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { hmacBase64Url, verifyHmacBase64Url } from "~/server/http/signing.server";

export const PRINT_FILES = ["interior", "cover"] as const;
export type PrintFile = (typeof PRINT_FILES)[number];

const signedMessage = (orderNumber: string, file: PrintFile, expires: number) => `print-file\n${orderNumber}\n${file}\n${expires}`;

export async function signedPrintFileUrl(env: Env, origin: string, orderNumber: string, file: PrintFile, now: Date): Promise<string> {
  const expires = Math.floor(now.getTime() / 1000) + PRINT_FILE_URL_TTL_SECONDS;
  const signature = await hmacBase64Url(env, signedMessage(orderNumber, file, expires));
  const query = new URLSearchParams({ expires: String(expires), signature });
  return `${origin}/print-files/${encodeURIComponent(orderNumber)}/${file}.pdf?${query}`;
}

/**
 * The file a signed URL names, or null (wrong or expired signature, no such file): the route
 * answers 404 either way, so a URL tells a stranger nothing.
 */
export async function openSignedPrintFile(
  env: Env,
  db: Database,
  orderNumber: string,
  fileName: string,
  search: URLSearchParams,
  now: Date,
): Promise<R2ObjectBody | null> {
  const file = PRINT_FILES.find((candidate) => `${candidate}.pdf` === fileName);
  const expires = Number(search.get("expires"));
  const signature = search.get("signature") ?? "";
  if (!file || !Number.isSafeInteger(expires) || expires * 1000 <= now.getTime()) return null;
  if (!(await verifyHmacBase64Url(env, signedMessage(orderNumber, file, expires), signature))) return null;
  const [order] = await db
    .select({ pdfKey: orders.pdfKey })
    .from(orders)
    .where(and(eq(orders.orderNumber, orderNumber), eq(orders.paymentStatus, "paid")));
  // The plain PDF marks the files done; the partner gets its single-sided interior and the cover.
  const key = order?.pdfKey ? (file === "interior" ? partnerInteriorKeyFor(orderNumber) : coverKeyFor(orderNumber)) : null;
  return key ? env.IMAGES.get(key) : null;
}
