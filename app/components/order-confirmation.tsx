import { Link, useLocation } from "@remix-run/react";
import type { Pricing } from "~/lib/api-types";
import { BOOK_PAGE_MESSAGES, LABELS } from "~/lib/customer-copy";
import { formatMoney } from "~/lib/format";
import { buttonStyles } from "./button-styles";
import { CheckIcon } from "./icons";

export interface ConfirmedOrder {
  orderNumber: string;
  pricing: Pricing;
  estimatedDelivery: string | null;
}

/** Replaces the order form once the order is paid (docs/product.md §5.9). */
export function OrderConfirmation({ order }: { order: ConfirmedOrder }) {
  const { pathname, search } = useLocation();
  return (
    <section
      aria-labelledby="order-confirmed-heading"
      className="mx-auto max-w-xl rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm"
    >
      <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-green-100 text-green-700">
        <CheckIcon className="h-7 w-7" />
      </span>
      <h1 id="order-confirmed-heading" className="mt-4 text-3xl font-bold text-gray-900">
        {LABELS.orderConfirmed}
      </h1>
      <p className="mt-2 text-gray-600">Thank you! Your coloring book is on its way to the printer.</p>
      <dl className="mt-6 divide-y divide-gray-100 rounded-xl bg-gray-50 px-4 text-left text-sm">
        <div className="flex justify-between py-3">
          <dt className="text-gray-600">Order number</dt>
          <dd className="font-semibold text-gray-900">{order.orderNumber}</dd>
        </div>
        <div className="flex justify-between py-3">
          <dt className="text-gray-600">Total paid</dt>
          <dd className="font-semibold text-gray-900">{formatMoney(order.pricing.total, order.pricing.currency)}</dd>
        </div>
        <div className="flex justify-between py-3">
          <dt className="text-gray-600">Estimated delivery</dt>
          <dd className="font-semibold text-gray-900">{order.estimatedDelivery ?? "–"}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-gray-600">{BOOK_PAGE_MESSAGES.confirmationEmailNote}</p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={`/orders/${order.orderNumber}`} className={buttonStyles.primary}>
          {LABELS.trackYourOrder}
        </Link>
        {/* docs/product.md §5.9: Create Another Book reloads the page (a document load of this very URL). */}
        <Link to={`${pathname}${search}`} reloadDocument className={buttonStyles.secondary}>
          {LABELS.createAnotherBook}
        </Link>
      </div>
    </section>
  );
}
