import type { Pricing } from "~/lib/api-types";
import { BOOK_SPECS } from "~/lib/customer-copy";
import { bookPageCount } from "~/lib/pricing";
import { formatMoney } from "~/lib/format";
import { BookIcon } from "./icons";
import { Spinner } from "./spinner";

export type QuoteState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; quoteId: string; pricing: Pricing }
  | { status: "error"; message: string };

/** The order page's book details and, once a quote is loaded, its price lines. */
export function OrderSummary({ title, photoCount, quote }: { title: string; photoCount: number; quote: QuoteState }) {
  return (
    <section aria-labelledby="order-summary-heading" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id="order-summary-heading" className="flex items-center gap-2 text-lg font-semibold text-gray-900">
        <BookIcon className="h-5 w-5 text-brand-600" /> Order summary
      </h2>
      <p className="mt-1 truncate text-sm text-gray-600" title={title}>
        “{title}”
      </p>
      <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-gray-500">Book details</h3>
      <dl className="mt-2 space-y-1.5 text-sm">
        <Row term="Pages" value={`${bookPageCount(photoCount)} (${photoCount} sketches + title and dedication)`} />
        <Row term="Size" value={BOOK_SPECS.size} />
        <Row term="Binding" value={BOOK_SPECS.binding} />
        <Row term="Paper" value={BOOK_SPECS.paper} />
      </dl>

      <h3 className="mt-5 text-xs font-semibold uppercase tracking-wide text-gray-500">Price</h3>
      <div className="mt-2" aria-live="polite">
        {quote.status === "ready" ? (
          <dl className="space-y-1.5 text-sm" aria-label="Price quote">
            <Row term="Base price" value={formatMoney(quote.pricing.basePrice, quote.pricing.currency)} />
            <Row term="AI processing fee" value={formatMoney(quote.pricing.processingFee, quote.pricing.currency)} />
            <Row
              term="Shipping"
              value={quote.pricing.shipping === 0 ? "FREE" : formatMoney(quote.pricing.shipping, quote.pricing.currency)}
              highlight={quote.pricing.shipping === 0}
            />
            <div className="flex justify-between border-t border-gray-200 pt-2 text-base font-semibold text-gray-900">
              <dt>Total</dt>
              <dd>{formatMoney(quote.pricing.total, quote.pricing.currency)}</dd>
            </div>
          </dl>
        ) : quote.status === "loading" ? (
          <p className="flex items-center gap-2 text-sm text-gray-600">
            <Spinner className="h-4 w-4" /> Getting your price…
          </p>
        ) : quote.status === "error" ? (
          <p role="alert" className="text-sm text-red-600">
            {quote.message}
          </p>
        ) : (
          <p className="text-sm text-gray-600">Enter your ZIP code and country to see your price.</p>
        )}
      </div>
    </section>
  );
}

function Row({ term, value, highlight }: { term: string; value: string; highlight?: boolean }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-gray-600">{term}</dt>
      <dd className={`text-right font-medium ${highlight ? "text-green-700" : "text-gray-900"}`}>{value}</dd>
    </div>
  );
}
