import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { API_MESSAGES } from "~/lib/customer-copy";
import { jsonError, methodNotAllowed } from "~/server/http/http.server";
import { isOwnPagesRead } from "~/server/http/request-origin.server";
import { mintTickets, parseTicketRequest, requireTicketAllowance } from "~/server/uploads/upload-tickets.server";

/** docs/product.md §6: GET /api/upload-complete?count=N&sessionId=...[&bookType=...] → presigned upload tickets. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // It writes, so another site's <img> must not be able to spend the visitor's allowance.
  if (!isOwnPagesRead(request)) throw jsonError(403, API_MESSAGES.foreignOrigin);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const { count, sessionId: browserSessionId, bookType } = parseTicketRequest(new URL(request.url));
  const now = new Date();
  const requester = await requireTicketAllowance(env, db, request, context.sessionId, { bookType, count }, now);
  const urls = await mintTickets(env, db, {
    sessionId: context.sessionId,
    browserSessionId: browserSessionId ?? null,
    bookType: bookType ?? null,
    count,
    clientHash: requester.addressHash,
    now,
  });
  return json({ data: { urls } });
}

export const action = () => methodNotAllowed(["GET"]);
