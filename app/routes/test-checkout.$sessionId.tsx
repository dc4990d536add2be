/**
 * The local test checkout (development and tests only): plays Stripe Checkout's part. It shows
 * what would be charged, asks for the delivery address when the order has none (as Stripe's page
 * does for a create-book order), and its Pay button confirms through the same fulfilment code
 * as Stripe's webhook; its Cancel follows the same cancel link as Stripe's back link, which
 * closes the checkout. Anywhere else it does not exist (404).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { withZod } from "@remix-validated-form/with-zod";
import { ValidatedForm, validationError } from "remix-validated-form";
import { buttonStyles } from "~/components/button-styles";
import { DeliveryFields } from "~/components/delivery-fields";
import { LockIcon } from "~/components/icons";
import { Spinner } from "~/components/spinner";
import { PLANS } from "~/lib/shop-rules";
import { SHOP_NAME } from "~/lib/customer-copy";
import { formatMoney } from "~/lib/format";
import { deliveryFormSchema } from "~/lib/schemas";
import { database } from "~/core/db/database.server";
import { cancelLocalCheckoutUrl, findLocalCheckout, payLocalCheckout } from "~/server/payments/local-checkout.server";
import { localTestCheckoutEnabled } from "~/server/payments/local-test-provider.server";

export const meta: MetaFunction = () => [{ title: `Test payment – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

const deliveryValidator = withZod(deliveryFormSchema);

async function openCheckout({ params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  if (!localTestCheckoutEnabled(env)) throw new Response("Not Found", { status: 404 });
  const db = database(env.DB);
  const found = await findLocalCheckout(db, context.sessionId, params.sessionId ?? "");
  if (!found) throw new Response("Not Found", { status: 404 });
  return { db, env, ...found };
}

export async function loader(args: LoaderFunctionArgs) {
  const { order, bookTitle } = await openCheckout(args);
  return json({
    orderNumber: order.orderNumber,
    bookTitle,
    pricing: order.pricing,
    state: order.paymentStatus,
    needsAddress: order.customerInfo === null,
  });
}

export async function action(args: ActionFunctionArgs) {
  const { db, env, order } = await openCheckout(args);
  const origin = new URL(args.request.url).origin;
  const form = await args.request.formData();
  if (form.get("intent") === "cancel") return redirect(await cancelLocalCheckoutUrl(env, db, order, origin));
  let customer = null;
  if (order.customerInfo === null) {
    const result = await deliveryValidator.validate(form);
    if (result.error) return validationError(result.error);
    customer = result.data;
  }
  return redirect(await payLocalCheckout(env, db, order, customer, origin));
}

export default function TestCheckout() {
  const { orderNumber, bookTitle, pricing, state, needsAddress } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const paying = busy && navigation.formData?.get("intent") !== "cancel";

  return (
    <main className="min-h-screen bg-gray-100 px-4 py-10">
      <div className="mx-auto max-w-lg">
        <p
          role="note"
          className="mb-6 rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-sm font-medium text-amber-900"
        >
          <strong className="block text-base">Test payment</strong>
          This is the shop's local test checkout. No card is asked for and no money moves. With a Stripe key
          configured, customers see Stripe Checkout here instead.
        </p>
        <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
          <h1 className="text-xl font-semibold text-gray-900">Pay {SHOP_NAME}</h1>
          <p className="mt-1 text-sm text-gray-600">Order {orderNumber}</p>
          <dl className="mt-5 space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-gray-700">
                {PLANS[pricing.plan].name}: “{bookTitle}” × {pricing.quantity}
                <span className="block text-xs text-gray-500">{pricing.pages} pages</span>
              </dt>
              <dd className="font-medium">{formatMoney(pricing.basePrice, pricing.currency)}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-gray-700">Shipping</dt>
              <dd className="font-medium">{pricing.shipping === 0 ? "FREE" : formatMoney(pricing.shipping, pricing.currency)}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-gray-200 pt-2 text-base font-semibold">
              <dt>Total due</dt>
              <dd data-testid="test-checkout-total">{formatMoney(pricing.total, pricing.currency)}</dd>
            </div>
          </dl>

          {state === "paid" ? (
            <p role="status" className="mt-6 rounded-lg bg-green-50 p-3 text-sm text-green-800">
              This order is already paid.
            </p>
          ) : needsAddress ? (
            <ValidatedForm validator={deliveryValidator} method="post" className="mt-6 space-y-4" noValidate>
              <h2 className="text-sm font-semibold uppercase tracking-wide text-gray-500">Shipping address</h2>
              <DeliveryFields />
              <PayButton busy={busy} paying={paying} total={formatMoney(pricing.total, pricing.currency)} />
            </ValidatedForm>
          ) : (
            <Form method="post" className="mt-6">
              <PayButton busy={busy} paying={paying} total={formatMoney(pricing.total, pricing.currency)} />
            </Form>
          )}
          <Form method="post" className="mt-3">
            <button type="submit" name="intent" value="cancel" disabled={busy} className={`${buttonStyles.secondary} w-full`}>
              Cancel
            </button>
          </Form>
          <p className="mt-4 flex items-center justify-center gap-2 text-xs text-gray-500">
            <LockIcon className="h-4 w-4" /> Test mode
          </p>
        </section>
      </div>
    </main>
  );
}

function PayButton({ busy, paying, total }: { busy: boolean; paying: boolean; total: string }) {
  return (
    <button type="submit" name="intent" value="pay" disabled={busy} className={`${buttonStyles.primary} w-full py-3 text-base`}>
      {paying ? <Spinner className="h-4 w-4" /> : null}
      Pay {total}
    </button>
  );
}
