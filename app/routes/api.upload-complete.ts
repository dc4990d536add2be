import { json, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/server/db.server";
import { methodNotAllowed } from "~/server/http.server";
import { countDailyUse, requesterOf, requireWithinBurst } from "~/server/preview-limits.server";
import { mintTickets, parseTicketRequest } from "~/server/upload-tickets.server";

/** SPEC: GET /api/upload-complete?count=N&sessionId=...[&bookType=...] → presigned upload tickets. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const { count, sessionId: browserSessionId, bookType } = parseTicketRequest(new URL(request.url));
  const requester = await requesterOf(env, request, context.sessionId);
  const now = new Date();
  // Tickets of the free preview (no book type) are what a script would farm: limited.
  if (!bookType) {
    await requireWithinBurst(env, "free-ticket", requester);
    await countDailyUse(env, db, "free-ticket", requester, now, count);
  }
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
