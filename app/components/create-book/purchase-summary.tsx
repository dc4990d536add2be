/**
 * The create-book order summary (docs/product.md §5.4): book type with a switch, photos, the required
 * range, delivery, quantity, free shipping and the total, all from pricing.ts, the same
 * functions the server prices the checkout with.
 */
import type { ReactNode } from "react";
import { CREATE_BOOK_LABELS, DELIVERY_RANGE_TEXT } from "~/lib/customer-copy";
import { MAX_QUANTITY, MIN_QUANTITY, PLANS } from "~/lib/shop-rules";
import { type BookType } from "~/core/catalog";
import { formatMoney } from "~/lib/format";
import { bookPageCount, priceBook } from "~/lib/pricing";

interface PurchaseSummaryProps {
  plan: BookType;
  photoCount: number;
  quantity: number;
  onQuantity: (quantity: number) => void;
  onSwitchPlan: () => void;
  disabled: boolean;
}

export function PurchaseSummary({ plan, photoCount, quantity, onQuantity, onSwitchPlan, disabled }: PurchaseSummaryProps) {
  const details = PLANS[plan];
  const pricing = priceBook(plan, photoCount, quantity);
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id="summary-heading" className="text-lg font-semibold text-gray-900">
        Order summary
      </h2>
      <dl className="mt-4 space-y-2 text-sm">
        <Row term="Book type">
          <span className="font-medium text-gray-900">{details.name}</span>
          <button type="button" onClick={onSwitchPlan} disabled={disabled} className="ml-2 text-brand-700 underline hover:text-brand-600 disabled:opacity-50">
            {plan === "standard" ? CREATE_BOOK_LABELS.switchToPremium : CREATE_BOOK_LABELS.switchToStandard}
          </button>
        </Row>
        <Row term="Photos">
          <span className="font-medium text-gray-900" data-testid="summary-photos">
            {photoCount}
          </span>
        </Row>
        <Row term="Required">
          {details.minPhotos}-{details.maxPhotos} photos
        </Row>
        <Row term="Pages">{bookPageCount(photoCount)}</Row>
        <Row term="Delivery">{DELIVERY_RANGE_TEXT}</Row>
        <Row term="Quantity">
          <span className="inline-flex items-center rounded-lg border border-gray-300">
            <button
              type="button"
              aria-label="Decrease quantity"
              disabled={disabled || quantity <= MIN_QUANTITY}
              onClick={() => onQuantity(quantity - 1)}
              className="h-8 w-8 text-lg text-gray-700 hover:bg-gray-100 disabled:opacity-40"
            >
              −
            </button>
            <output aria-label="Quantity" aria-live="polite" className="w-8 text-center font-semibold text-gray-900">
              {quantity}
            </output>
            <button
              type="button"
              aria-label="Increase quantity"
              disabled={disabled || quantity >= MAX_QUANTITY}
              onClick={() => onQuantity(quantity + 1)}
              className="h-8 w-8 text-lg text-gray-700 hover:bg-gray-100 disabled:opacity-40"
            >
              +
            </button>
          </span>
        </Row>
        <Row term="Shipping">
          <span className="font-semibold text-green-700">FREE</span>
        </Row>
        <div className="flex items-baseline justify-between border-t border-gray-200 pt-3 text-base font-semibold text-gray-900">
          <dt>Total</dt>
          <dd data-testid="summary-total">{formatMoney(pricing.total, pricing.currency)}</dd>
        </div>
      </dl>
      {/* Outside the list: a <dl> holds only term and definition groups. */}
      <p className="mt-2 text-right text-xs text-gray-500">
        {formatMoney(pricing.unitPrice, pricing.currency)} × {quantity}
      </p>
    </section>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-gray-600">{term}</dt>
      <dd className="text-right text-gray-800">{children}</dd>
    </div>
  );
}
