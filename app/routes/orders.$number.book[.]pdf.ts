import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { openCustomerPdf } from "~/server/orders/customer-pdf.server";

/** The customer's PDF of their book, behind a signed link (docs/decisions/028). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const orderNumber = params.number ?? "";
  const pdf = await openCustomerPdf(env, database(env.DB), orderNumber, new URL(request.url).searchParams, new Date());
  // An old link: the order page explains, and gives a fresh one to whoever may see the order.
  if (pdf.status === "expired") return redirect(`/orders/${encodeURIComponent(orderNumber)}?link=expired`, 303);
  if (pdf.status === "not-found") return new Response("Not found", { status: 404 });
  return new Response(pdf.object.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.object.size),
      "Content-Disposition": `attachment; filename="coloring-book-${orderNumber}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
