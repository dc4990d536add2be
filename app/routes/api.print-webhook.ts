import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, requireMethod } from "~/server/http/http.server";
import { printPartnerFor } from "~/server/printing/printing.server";
import { handlePrintWebhook } from "~/server/printing/print-webhook.server";

export const loader = () => methodNotAllowed(["POST"]);

/** The print partner's status changes of our print jobs (docs/decisions/028). */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const db = database(env.DB);
  const { status, body } = await handlePrintWebhook(env, db, printPartnerFor(env, db), request);
  return json(body, { status });
}
