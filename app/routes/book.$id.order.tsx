import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { withZod } from "@remix-validated-form/with-zod";
import { useEffect, useState } from "react";
import { ValidatedForm, useIsSubmitting } from "remix-validated-form";
import { BookPageHeader } from "~/components/book-page-header";
import { buttonStyles } from "~/components/button-styles";
import { DeliveryFields } from "~/components/delivery-fields";
import { AlertIcon, ArrowLeftIcon, LockIcon } from "~/components/icons";
import { OrderConfirmation } from "~/components/order-confirmation";
import { OrderSummary, type QuoteState } from "~/components/order-summary";
import { Spinner } from "~/components/spinner";
import { useToast } from "~/components/toast";
import { apiErrorMessage, createOrder, payForOrder, requestQuote } from "~/lib/api-client";
import { BOOK_PAGE_MESSAGES, LABELS, MESSAGES, SHOP_NAME } from "~/lib/customer-copy";
import { DELIVERY_COUNTRIES, POLL_INTERVAL_MS, type DeliveryCountry } from "~/lib/shop-rules";
import { deliveryFormSchema, type DeliveryFormInput } from "~/lib/schemas";
import { loadVisitorBook } from "~/server/books/book-pages.server";
import { database } from "~/core/db/database.server";
import { orderPageState } from "~/server/orders/orders.server";

export const meta: MetaFunction = () => [{ title: `Order your book – ${SHOP_NAME}` }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  const book = await loadVisitorBook(context, params.id);
  const search = new URL(request.url).searchParams;
  const state = await orderPageState(database(context.cloudflare.env.DB), book.id, search.get("session_id"));
  return json({ ...book, ...state, cancelled: search.has("cancelled"), returnedFromPayment: search.has("session_id") });
}

const FORM_ID = "delivery-form";
const validator = withZod(deliveryFormSchema);
/** Wait for typing to pause before asking for a price. */
const QUOTE_DEBOUNCE_MS = 400;
const PAYMENT_OPTIONS = [{ id: "card" as const, label: "Credit or debit card", note: "Visa, Mastercard, American Express" }];
type PaymentMethod = (typeof PAYMENT_OPTIONS)[number]["id"];

const isDeliveryCountry = (value: string): value is DeliveryCountry =>
  (DELIVERY_COUNTRIES as readonly string[]).includes(value);

export default function OrderPage() {
  const book = useLoaderData<typeof loader>();
  const toast = useToast();
  const [country, setCountry] = useState("");
  const [zipCode, setZipCode] = useState("");
  const [quote, setQuote] = useState<QuoteState>({ status: "idle" });
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod>("card");
  const [redirecting, setRedirecting] = useState(false);
  const revalidator = useRevalidator();

  // Back from the payment page before its confirmation arrived: ask again until it has.
  useEffect(() => {
    if (!book.confirming) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [book.confirming, revalidator]);

  const justPaid = book.paidOrder !== null && book.returnedFromPayment;
  useEffect(() => {
    if (justPaid) toast({ title: BOOK_PAGE_MESSAGES.paymentSucceededTitle, description: BOOK_PAGE_MESSAGES.paymentSucceededDescription });
  }, [justPaid, toast]);

  // docs/product.md §5.9: a quote is requested whenever country and ZIP code are both set.
  useEffect(() => {
    const zip = zipCode.trim();
    if (!isDeliveryCountry(country) || zip === "") {
      setQuote({ status: "idle" });
      return;
    }
    let cancelled = false;
    setQuote({ status: "loading" });
    const timer = setTimeout(async () => {
      try {
        const answer = await requestQuote(book.id, { country, zipCode: zip });
        if (cancelled) return;
        setQuote(
          answer.success
            ? { status: "ready", quoteId: answer.quoteId, pricing: answer.pricing }
            : { status: "error", message: MESSAGES.quoteRequiredDescription },
        );
      } catch (error) {
        if (!cancelled) setQuote({ status: "error", message: apiErrorMessage(error, MESSAGES.quoteRequiredDescription) });
      }
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [book.id, country, zipCode]);

  async function placeOrder(deliveryInfo: DeliveryFormInput) {
    if (quote.status !== "ready") {
      toast({ title: MESSAGES.quoteRequiredTitle, description: MESSAGES.quoteRequiredDescription, variant: "destructive" });
      return;
    }
    // The server keeps one order per quote: after a declined card, submitting again updates and
    // pays that same pending order instead of placing a second one.
    let orderId: number;
    try {
      orderId = (await createOrder({ bookId: book.id, quoteId: quote.quoteId, deliveryInfo, paymentMethod })).id;
    } catch (error) {
      toast({ title: BOOK_PAGE_MESSAGES.errorTitle, description: apiErrorMessage(error, MESSAGES.orderFailed), variant: "destructive" });
      return;
    }
    try {
      // The provider's page takes the card and sends the buyer back here (?session_id=...).
      const payment = await payForOrder(orderId, paymentMethod);
      if (!payment.checkoutUrl) throw new Error("no checkout page to go to");
      setRedirecting(true);
      window.location.assign(payment.checkoutUrl);
    } catch (error) {
      toast({ title: BOOK_PAGE_MESSAGES.errorTitle, description: apiErrorMessage(error, MESSAGES.paymentFailed), variant: "destructive" });
    }
  }

  if (book.paidOrder) {
    return (
      <>
        <BookPageHeader step="order" complete />
        <main className="px-4 py-12">
          <OrderConfirmation order={book.paidOrder} />
        </main>
      </>
    );
  }

  if (book.confirming) {
    return (
      <>
        <BookPageHeader step="order" />
        <main className="px-4 py-16">
          <section role="status" className="mx-auto max-w-md rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm">
            <Spinner className="mx-auto h-8 w-8 text-brand-600" />
            <h1 className="mt-4 text-xl font-semibold text-gray-900">Confirming your payment…</h1>
            <p className="mt-2 text-sm text-gray-600">This takes a few seconds. Please keep this page open.</p>
          </section>
        </main>
      </>
    );
  }

  return (
    <>
      <BookPageHeader step="order" />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
        <Link to={`/book/${book.id}/preview`} className={`${buttonStyles.subtle} -ml-3 mb-4`}>
          <ArrowLeftIcon className="h-4 w-4" />
          {LABELS.backToPreview}
        </Link>
        <div className="mb-8">
          <p className="text-sm font-medium text-brand-700">Step 3 of 3</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-gray-900">Order your printed book</h1>
          <p className="mt-2 max-w-2xl text-gray-600">Tell us where to send “{book.title}”. Shipping is free to every country we deliver to.</p>
        </div>

        {book.paymentRefused ? (
          <div role="alert" className="mb-6 flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
            <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
            <p>{BOOK_PAGE_MESSAGES.paymentNotMatched}</p>
          </div>
        ) : null}

        {book.cancelled ? (
          <div role="status" className="mb-6 rounded-xl border border-gray-200 bg-white p-4 text-sm text-gray-700 shadow-sm">
            <strong className="font-semibold text-gray-900">Payment cancelled.</strong> No charges were made. Your details are
            below: complete the order whenever you are ready.
          </div>
        ) : null}

        {book.selectedImageCount === 0 ? (
          <div role="alert" className="mb-6 flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
            <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
            <p>
              No sketches are selected for this book yet.{" "}
              <Link to={`/book/${book.id}/preview`} className="font-semibold underline">
                Choose your sketches
              </Link>{" "}
              before you order.
            </p>
          </div>
        ) : null}

        {/* minmax(0, 1fr), not auto: a long book title is cut with an ellipsis on a phone instead of widening the page. */}
        <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <ValidatedForm
            id={FORM_ID}
            validator={validator}
            method="post"
            noValidate
            className="space-y-6"
            onSubmit={async (data, event) => {
              // The browser talks to the JSON API itself; nothing is posted to this route.
              event.preventDefault();
              await placeOrder(data);
            }}
          >
            <fieldset className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm sm:p-6">
              <legend className="sr-only">Delivery details</legend>
              <h2 className="text-lg font-semibold text-gray-900" aria-hidden="true">
                Delivery details
              </h2>
              <div className="mt-4">
                <DeliveryFields onZipCodeChange={setZipCode} onCountryChange={setCountry} />
              </div>
            </fieldset>

            <fieldset className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm sm:p-6">
              <legend className="sr-only">Payment method</legend>
              <h2 className="text-lg font-semibold text-gray-900" aria-hidden="true">
                Payment method
              </h2>
              <div className="mt-4 space-y-2">
                {PAYMENT_OPTIONS.map((option) => (
                  <label
                    key={option.id}
                    className={`flex cursor-pointer items-center gap-3 rounded-lg border p-3 ${
                      paymentMethod === option.id ? "border-brand-500 bg-brand-50" : "border-gray-200"
                    }`}
                  >
                    <input
                      type="radio"
                      name="paymentMethod"
                      value={option.id}
                      checked={paymentMethod === option.id}
                      onChange={() => setPaymentMethod(option.id)}
                      className="h-4 w-4 accent-brand-600"
                    />
                    <span>
                      <span className="block text-sm font-medium text-gray-900">{option.label}</span>
                      <span className="block text-xs text-gray-600">{option.note}</span>
                    </span>
                  </label>
                ))}
              </div>
              <p className="mt-3 flex items-center gap-2 text-xs text-gray-500">
                <LockIcon className="h-4 w-4" /> Payments are processed securely. Card details never reach our servers.
              </p>
            </fieldset>

            <SubmitButton redirecting={redirecting} />
          </ValidatedForm>

          <aside className="order-first lg:order-none lg:sticky lg:top-6 lg:self-start">
            <OrderSummary title={book.title} photoCount={book.selectedImageCount} quote={quote} />
          </aside>
        </div>
      </main>
    </>
  );
}

function SubmitButton({ redirecting }: { redirecting: boolean }) {
  const pending = useIsSubmitting(FORM_ID) || redirecting;
  return (
    <button type="submit" disabled={pending} className={`${buttonStyles.primary} w-full py-3 text-base`}>
      {pending ? (
        <>
          <Spinner className="h-4 w-4" />
          {LABELS.processingOrder}
        </>
      ) : (
        LABELS.completeOrder
      )}
    </button>
  );
}
