import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { readDataUrlUpload, uploadFileFieldsSchema } from "~/server/preview/data-url-upload.server";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, requireMethod } from "~/server/http/http.server";
import { requireUnexpiredTicketOfSession, uploadToTicket } from "~/server/uploads/upload-tickets.server";
import { storedBytesCharge } from "~/server/limits/shop-limits.server";

/** docs/product.md §6: POST /api/upload-file { imageData (data URL), presignedUrl, filename }: the ticket's PUT as JSON. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const now = new Date();
  // The ticket's URL is inside the 20 MB body; a session without a ticket is refused unread.
  await requireUnexpiredTicketOfSession(db, context.sessionId, now);
  const { fields, source } = await readDataUrlUpload(request, uploadFileFieldsSchema);
  const result = await uploadToTicket(env, db, context.sessionId, fields.presignedUrl, source, now, storedBytesCharge(env, db, request, context.sessionId));
  return json(result);
}

export const loader = () => methodNotAllowed(["POST"]);
