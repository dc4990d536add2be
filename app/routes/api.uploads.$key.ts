import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, requireMethod } from "~/server/http/http.server";
import { putUploadSource, uploadToTicket } from "~/server/uploads/upload-tickets.server";
import { storedBytesCharge } from "~/server/limits/shop-limits.server";

/** The signed URL of an upload ticket: PUT the raw file bytes (S3-like), once. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["PUT"]);
  const { env } = context.cloudflare;
  const ticketUrl = new URL(request.url);
  const result = await uploadToTicket(
    env,
    database(env.DB),
    context.sessionId,
    ticketUrl.pathname + ticketUrl.search,
    putUploadSource(request),
    new Date(),
    storedBytesCharge(env, database(env.DB), request, context.sessionId),
  );
  return json(result);
}

export const loader = () => methodNotAllowed(["PUT"]);
