import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { openSignedPrintFile } from "~/server/printing/print-files.server";

/** A print file for the print partner, behind a signed, expiring URL (docs/decisions/028). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const url = new URL(request.url);
  const object = await openSignedPrintFile(env, database(env.DB), params.number ?? "", params.file ?? "", url.searchParams, new Date());
  if (!object) return new Response("Not found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
    },
  });
}
