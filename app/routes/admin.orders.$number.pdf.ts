/**
 * /admin/orders/{number}/pdf: an order's print-ready PDF, streamed from R2 (print/<number>.pdf)
 * to an admin only. The bucket is never public; this route is the only way to the file.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { adminNotFound, requireAdmin } from "~/server/admin/admin-access.server";
import { openPrintPdf } from "~/server/admin/admin-orders.server";
import { database } from "~/core/db/database.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const orderNumber = params.number ?? "";
  const pdf = await openPrintPdf(env, database(env.DB), orderNumber);
  // Not made yet (or no such order): the desk shows "PDF being made" instead of this link.
  if (!pdf) throw adminNotFound();
  return new Response(pdf.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.size),
      "Content-Disposition": `inline; filename="${orderNumber}.pdf"`,
      // A customer's book and address: never in a shared cache.
      "Cache-Control": "private, no-store",
    },
  });
}
