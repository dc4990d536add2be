import { Link } from "@remix-run/react";
import { BOOK_PAGES_ADVERTISED, type PlanDetails } from "~/lib/shop-rules";
import { DELIVERY_RANGE_TEXT, STOREFRONT_LABELS } from "~/lib/customer-copy";
import { formatMoney } from "~/lib/format";
import { buttonStyles } from "./button-styles";
import { CheckIcon, InfoIcon } from "./icons";
import { Tooltip } from "./tooltip";

const GSM_EXPLAINED = "GSM is the paper's weight in grams per square metre: the higher, the thicker the page.";

interface PlanCardProps {
  plan: PlanDetails;
  /** Where the card's button leads: the create-book page with this plan chosen. */
  to: string;
  mostPopular?: boolean;
}

export function PlanCard({ plan, to, mostPopular = false }: PlanCardProps) {
  const saving = plan.oldPrice - plan.price;
  const headingId = `plan-${plan.name.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section
      aria-labelledby={headingId}
      className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm sm:p-8 ${
        mostPopular ? "border-2 border-brand-600 shadow-brand-100" : "border border-gray-200"
      }`}
    >
      {mostPopular ? (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-bold tracking-wide text-white">
          {STOREFRONT_LABELS.mostPopular}
        </p>
      ) : null}
      <p className="rounded-lg bg-amber-50 px-3 py-2 text-center text-sm font-medium text-amber-800">
        {STOREFRONT_LABELS.limitedTimeOffer}: save {formatMoney(saving)}
      </p>
      <h2 id={headingId} className="mt-5 text-2xl font-bold text-gray-900">
        {plan.name}
      </h2>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-4xl font-bold text-gray-900">{formatMoney(plan.price)}</span>
        <span className="text-lg text-gray-500 line-through" aria-label={`was ${formatMoney(plan.oldPrice)}`}>
          {formatMoney(plan.oldPrice)}
        </span>
        <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-800">
          Save {formatMoney(saving)}
        </span>
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-gray-700">
        <li className="flex items-start gap-2">
          <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          <span className="flex items-center gap-1">
            {plan.paper} paper
            <Tooltip label={GSM_EXPLAINED}>
              <button
                type="button"
                aria-label="What does GSM mean?"
                className="rounded-full p-0.5 text-gray-400 hover:text-gray-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <InfoIcon className="h-4 w-4" />
              </button>
            </Tooltip>
          </span>
        </li>
        <li className="flex items-start gap-2">
          <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          {plan.binding} binding
        </li>
        <li className="flex items-start gap-2">
          <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          {BOOK_PAGES_ADVERTISED} pages
        </li>
        <li className="flex items-start gap-2">
          <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          {plan.minPhotos}-{plan.maxPhotos} photos
        </li>
        <li className="flex items-start gap-2">
          <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          Free delivery in {DELIVERY_RANGE_TEXT}
        </li>
      </ul>
      <Link
        to={to}
        className={`${mostPopular ? buttonStyles.primary : buttonStyles.secondary} mt-8 w-full py-3 text-base`}
      >
        {plan.name}
      </Link>
    </section>
  );
}
