/**
 * /success?session_id=... (docs/product.md §5.5): where the payment provider sends the buyer.
 * The order and its status come from our records (the provider's confirmation, never this
 * visit, marks an order paid); until the confirmation has arrived the page asks again.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { buttonStyles } from "~/components/button-styles";
import { AlertIcon, CheckIcon } from "~/components/icons";
import { PaymentPending } from "~/components/payment-pending";
import { Spinner } from "~/components/spinner";
import { useToast } from "~/components/toast";
import { startNewBrowserSession } from "~/lib/browser-session";
import { BOOK_PAGE_MESSAGES, CREATE_BOOK_LABELS, CUSTOMER_PDF_TEXT, DELIVERY_RANGE_TEXT, LABELS, PROCESSING_TIME_TEXT, SHOP_NAME } from "~/lib/customer-copy";
import { POLL_INTERVAL_MS, SUCCESS_PENDING_MS } from "~/lib/shop-rules";
import { formatMoney } from "~/lib/format";
import { clearPendingOrder } from "~/lib/pending-order";
import { database } from "~/core/db/database.server";
import { findOrderOfCheckoutSession } from "~/server/orders/orders.server";
import { customerPdfUrl } from "~/server/orders/customer-pdf.server";

export const meta: MetaFunction = () => [{ title: `Payment successful – ${SHOP_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const { env } = context.cloudflare;
  const order = await findOrderOfCheckoutSession(database(env.DB), context.sessionId, sessionId);
  // The customer's own PDF, once it is made (this visitor's order only: the query checked the session).
  const pdfUrl = order?.pdfReady ? await customerPdfUrl(env, order.orderNumber, new Date()) : null;
  return json({ order, pdfUrl });
}

const NEXT_STEPS = [
  { title: "Your photos become coloring pages", text: "Our engine draws every photo as clean black outlines, ready to colour." },
  { title: "We print and bind your book", text: `Printing takes ${PROCESSING_TIME_TEXT}, on thick paper made for crayons and pens.` },
  { title: "Your book is posted", text: `Delivery takes ${DELIVERY_RANGE_TEXT}. Shipping is free.` },
  { title: "We keep you posted", text: "A confirmation email with your order details and tracking is on its way." },
];

export default function Success() {
  const { order, pdfUrl } = useLoaderData<typeof loader>();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(true);

  useEffect(() => {
    // The purchase is over: a new browser session id, and no pending order to retry.
    startNewBrowserSession();
    clearPendingOrder();
    const timer = setTimeout(() => setPending(false), SUCCESS_PENDING_MS);
    return () => clearTimeout(timer);
  }, []);

  // Back before the provider's confirmation reached us: ask again until it has; once paid, until
  // the book's PDF is made and its download link can be shown.
  const waiting = order !== null && ((!order.paid && !order.refused) || (order.paid && !pdfUrl));
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);

  const paid = order?.paid === true;
  useEffect(() => {
    if (paid) toast({ title: BOOK_PAGE_MESSAGES.paymentSucceededTitle, description: BOOK_PAGE_MESSAGES.paymentSucceededDescription });
  }, [paid, toast]);

  return (
    <main className="bg-gradient-to-b from-brand-50 to-gray-50 px-4 py-12 sm:py-16">
      {pending ? (
        <PaymentPending label="Confirming your payment…" />
      ) : (
        <section aria-labelledby="success-heading" className="mx-auto max-w-2xl rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-gray-200 sm:p-10">
          <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-green-700">
            {paid ? <CheckIcon className="h-8 w-8" /> : order?.refused ? <AlertIcon className="h-8 w-8" /> : <Spinner className="h-8 w-8" />}
          </span>
          <h1 id="success-heading" className="mt-4 text-3xl font-bold text-gray-900">
            {CREATE_BOOK_LABELS.paymentSuccessful}
          </h1>
          <p className="mt-2 text-gray-600">Thank you for your order. Here is what happens next.</p>

          <dl className="mx-auto mt-6 max-w-md divide-y divide-gray-100 rounded-xl bg-gray-50 px-4 text-left text-sm">
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-gray-600">Order number</dt>
              <dd className="font-semibold text-gray-900" data-testid="success-order-number">
                {order?.orderNumber ?? CREATE_BOOK_LABELS.processingOrderId}
              </dd>
            </div>
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-gray-600">Status</dt>
              <dd className={`font-semibold ${paid ? "text-green-700" : "text-amber-700"}`} data-testid="success-status">
                {paid ? CREATE_BOOK_LABELS.paymentConfirmed : order?.refused ? BOOK_PAGE_MESSAGES.paymentNotMatched : "Waiting for the payment confirmation…"}
              </dd>
            </div>
            {order ? (
              <div className="flex justify-between gap-4 py-3">
                <dt className="text-gray-600">Total</dt>
                <dd className="font-semibold text-gray-900">
                  {formatMoney(order.total, order.currency)}
                  {order.quantity > 1 ? ` (${order.quantity} books)` : ""}
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-gray-600">Processing</dt>
              <dd className="font-semibold text-gray-900">{PROCESSING_TIME_TEXT}</dd>
            </div>
            <div className="flex justify-between gap-4 py-3">
              <dt className="text-gray-600">Delivery</dt>
              <dd className="font-semibold text-gray-900">{order?.estimatedDelivery ?? DELIVERY_RANGE_TEXT}</dd>
            </div>
          </dl>

          {paid ? <CustomerPdf url={pdfUrl} /> : null}

          <h2 className="mt-8 text-left text-lg font-semibold text-gray-900">What happens next</h2>
          <ol className="mt-3 space-y-3 text-left">
            {NEXT_STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-3">
                <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
                  {index + 1}
                </span>
                <span>
                  <span className="block font-medium text-gray-900">{step.title}</span>
                  <span className="block text-sm text-gray-600">{step.text}</span>
                </span>
              </li>
            ))}
          </ol>

          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/" className={buttonStyles.secondary}>
              {CREATE_BOOK_LABELS.backToHome}
            </Link>
            <Link to="/create-book" className={buttonStyles.primary}>
              {CREATE_BOOK_LABELS.createAnotherBook}
            </Link>
            {order ? (
              <Link to={`/orders/${order.orderNumber}`} className={buttonStyles.secondary}>
                {LABELS.trackYourOrder}
              </Link>
            ) : null}
          </div>
        </section>
      )}
    </main>
  );
}

/** The customer's own PDF of the book (docs/decisions/028), or a note while it is being made. */
function CustomerPdf({ url }: { url: string | null }) {
  return (
    <div className="mt-6 rounded-xl bg-brand-50 p-4 text-left text-sm text-gray-700">
      {url ? (
        <>
          <a href={url} data-testid="customer-pdf-link" className={buttonStyles.primary}>
            {CUSTOMER_PDF_TEXT.download}
          </a>
          <p className="mt-2">{CUSTOMER_PDF_TEXT.note}</p>
        </>
      ) : (
        <p data-testid="customer-pdf-pending">{CUSTOMER_PDF_TEXT.beingMade}</p>
      )}
    </div>
  );
}
