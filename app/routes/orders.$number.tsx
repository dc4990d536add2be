/**
 * /orders/{number}: where "Track Your Order" leads (docs/product.md §5.10). The session that placed the
 * order sees it at once; anyone else is asked for the email address it was placed with (posted,
 * so it never lands in a URL or a log). The rules are app/server/orders/order-tracking.server.ts.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonStyles } from "~/components/button-styles";
import { CheckIcon } from "~/components/icons";
import { Spinner } from "~/components/spinner";
import { CUSTOMER_PDF_TEXT, ORDER_TRACKING_SHIPPED_TEXT, ORDER_TRACKING_TEXT, SHOP_NAME } from "~/lib/customer-copy";
import { formatMoney } from "~/lib/format";
import { database } from "~/core/db/database.server";
import { trackOrderByEmail, trackOwnOrder, type TrackedOrder } from "~/server/orders/order-tracking.server";
import { customerPdfUrl } from "~/server/orders/customer-pdf.server";
import type { Env } from "~/server/http/env.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";
import { readFormFields } from "~/server/http/http.server";

export const meta: MetaFunction = () => [{ title: `Your order – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const order = await trackOwnOrder(database(env.DB), context.sessionId, params.number ?? "");
  const linkExpired = new URL(request.url).searchParams.get("link") === "expired";
  // Not this visitor's (or no such order): the same lookup form either way.
  return json({ order, orderNumber: params.number ?? "", pdfUrl: await pdfLink(env, order), linkExpired }, { status: order ? 200 : 404 });
}

/** A fresh download link of the book's PDF for whoever may see the order (docs/decisions/028). */
async function pdfLink(env: Env, order: TrackedOrder | null): Promise<string | null> {
  return order?.pdfReady ? customerPdfUrl(env, order.orderNumber, new Date()) : null;
}

const lookupSchema = z.object({ email: z.string().trim().email(ORDER_TRACKING_TEXT.invalidEmail).max(254) });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const db = database(env.DB);
  // Each guess counts: an order number and an email cannot be brute-forced.
  await requireShopAllowance(env, db, request, context.sessionId, "order-lookup");
  const parsed = lookupSchema.safeParse(await readFormFields(request));
  if (!parsed.success) return json({ order: null, error: parsed.error.issues[0].message, pdfUrl: null }, { status: 400 });
  const order = await trackOrderByEmail(db, params.number ?? "", parsed.data.email);
  return order
    ? json({ order, error: null, pdfUrl: await pdfLink(env, order) })
    : json({ order: null, error: ORDER_TRACKING_TEXT.notFound, pdfUrl: null }, { status: 404 });
}

export default function OrderTracking() {
  const { order: own, orderNumber, pdfUrl: ownPdfUrl, linkExpired } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const order = own ?? answer?.order ?? null;
  const pdfUrl = own ? ownPdfUrl : (answer?.pdfUrl ?? null);
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      {order ? (
        <TrackedOrderView order={order} pdfUrl={pdfUrl} linkExpired={linkExpired} />
      ) : (
        <LookupForm orderNumber={orderNumber} error={answer?.error ?? null} />
      )}
    </main>
  );
}

function LookupForm({ orderNumber, error }: { orderNumber: string; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section aria-labelledby="lookup-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
      <h1 id="lookup-heading" className="text-2xl font-bold text-gray-900">
        {ORDER_TRACKING_TEXT.lookupTitle}
      </h1>
      <p className="mt-2 text-gray-600">
        Order <span className="font-semibold text-gray-900">{orderNumber}</span>. {ORDER_TRACKING_TEXT.lookupIntro}
      </p>
      <Form method="post" className="mt-6 space-y-4" noValidate>
        <div>
          <label htmlFor="lookup-email" className="mb-1 block text-sm font-medium text-gray-800">
            Email
          </label>
          <input
            id="lookup-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            aria-describedby={error ? "lookup-error" : undefined}
            className="block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
          {error ? (
            <p id="lookup-error" role="alert" className="mt-1 text-sm text-red-600">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" disabled={busy} className={buttonStyles.primary}>
          {busy ? <Spinner className="h-4 w-4" /> : null}
          Show my order
        </button>
      </Form>
    </section>
  );
}

function TrackedOrderView({ order, pdfUrl, linkExpired }: { order: TrackedOrder; pdfUrl: string | null; linkExpired: boolean }) {
  return (
    <section aria-labelledby="tracking-heading" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
      {linkExpired && pdfUrl ? (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {CUSTOMER_PDF_TEXT.expired}
        </p>
      ) : null}
      <p className="text-sm font-medium text-brand-700">{`Order ${order.orderNumber}`}</p>
      <h1 id="tracking-heading" className="mt-1 text-2xl font-bold text-gray-900">
        “{order.bookTitle}”
      </h1>
      <p className="mt-1 text-sm text-gray-600">
        {order.pages} pages · {order.quantity} {order.quantity === 1 ? "copy" : "copies"} · {formatMoney(order.total, order.currency)}
      </p>
      <ol aria-label="Order progress" className="mt-6 space-y-4">
        {order.steps.map((step) => (
          <li key={step.id} className="flex items-center gap-3" data-testid={`step-${step.id}`} data-done={step.done}>
            <span
              className={`flex h-8 w-8 items-center justify-center rounded-full ${step.done ? "bg-green-100 text-green-700" : "border-2 border-gray-200 text-gray-400"}`}
            >
              {step.done ? <CheckIcon className="h-4 w-4" /> : null}
            </span>
            <span>
              <span className={`block font-medium ${step.done ? "text-gray-900" : "text-gray-500"}`}>{step.label}</span>
              <span className="block text-sm text-gray-500">{step.done ? (step.detail ?? "Done") : "Not yet"}</span>
            </span>
          </li>
        ))}
      </ol>
      {order.shipment ? (
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-green-50 p-3 text-sm text-gray-800">
          <dt>{ORDER_TRACKING_SHIPPED_TEXT.trackingNumber}</dt>
          <dd data-testid="tracking-number" className="break-all font-mono font-semibold">
            {order.shipment.trackingNumber}
          </dd>
          {order.shipment.carrier ? (
            <>
              <dt>{ORDER_TRACKING_SHIPPED_TEXT.carrier}</dt>
              <dd data-testid="carrier">{order.shipment.carrier}</dd>
            </>
          ) : null}
          {order.shipment.trackingUrl ? (
            <>
              <dt className="sr-only">{ORDER_TRACKING_SHIPPED_TEXT.trackingLink}</dt>
              <dd className="col-span-2">
                <a data-testid="tracking-link" href={order.shipment.trackingUrl} rel="noopener noreferrer" className="font-medium text-indigo-700 underline">
                  {ORDER_TRACKING_SHIPPED_TEXT.trackingLink}
                </a>
              </dd>
            </>
          ) : null}
          {order.shipment.shippedOn ? (
            <>
              <dt>{ORDER_TRACKING_SHIPPED_TEXT.shippedOn}</dt>
              <dd>{order.shipment.shippedOn}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {pdfUrl ? (
        <div className="mt-6 rounded-lg bg-brand-50 p-3 text-sm text-gray-700">
          <a href={pdfUrl} data-testid="customer-pdf-link" className="font-semibold text-brand-700 underline">
            {CUSTOMER_PDF_TEXT.download}
          </a>
          <p className="mt-1">{CUSTOMER_PDF_TEXT.note}</p>
        </div>
      ) : null}
      <p className="mt-6 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
        Estimated delivery: <span className="font-semibold">{order.estimatedDelivery}</span>
      </p>
    </section>
  );
}
