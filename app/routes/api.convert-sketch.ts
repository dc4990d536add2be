import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { convertSketchFieldsSchema, readDataUrlUpload } from "~/server/preview/data-url-upload.server";
import { database } from "~/core/db/database.server";
import { convertUpload } from "~/server/preview/free-preview.server";
import { methodNotAllowed, requireMethod } from "~/server/http/http.server";
import { mintTickets, requireTicketAllowance, uploadToTicket } from "~/server/uploads/upload-tickets.server";

/**
 * The older free-preview call (docs/product.md §6): POST /api/convert-sketch { imageData, filename } → { sketchUrl }.
 * Ticket, upload and conversion in one request, through the same functions (and limits) as the
 * three calls of the current flow.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const now = new Date();
  // The limits first: the body is about 20 MB of base64, not worth reading for a refusal.
  const requester = await requireTicketAllowance(env, db, request, context.sessionId, { count: 1 }, now);
  const { source } = await readDataUrlUpload(request, convertSketchFieldsSchema);
  const [ticket] = await mintTickets(env, db, {
    sessionId: context.sessionId,
    browserSessionId: null,
    bookType: null,
    count: 1,
    clientHash: requester.addressHash,
    now,
  });
  const { key } = await uploadToTicket(env, db, context.sessionId, ticket.url, source, now);
  const { convertedImageUrl } = await convertUpload(env, db, requester, key, now);
  return json({ sketchUrl: convertedImageUrl });
}

export const loader = () => methodNotAllowed(["POST"]);
