import { json, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { database } from "~/core/db/database.server";
import { methodNotAllowed, requireMethod } from "~/server/http/http.server";
import { handleStripeWebhook } from "~/server/payments/stripe-webhook.server";

export const loader = () => methodNotAllowed(["POST"]);

/** Stripe's confirmation of a payment: the only way a card payment marks an order paid. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ["POST"]);
  const { env } = context.cloudflare;
  const { status, body } = await handleStripeWebhook(env, database(env.DB), request);
  return json(body, { status });
}
