import type { MetaFunction } from "@remix-run/cloudflare";
import { buttonStyles } from "~/components/button-styles";
import { ArrowLeftIcon } from "~/components/icons";
import { PlanCard } from "~/components/plan-card";
import { PAGE_META, PROCESSING_TIME_TEXT, STOREFRONT_LABELS } from "~/lib/customer-copy";
import { PLANS } from "~/lib/shop-rules";
import { useGoBack } from "~/lib/go-back";

export const meta: MetaFunction = () => [
  { title: PAGE_META.choosePlan.title },
  { name: "description", content: PAGE_META.choosePlan.description },
];

export default function ChoosePlan() {
  const goBack = useGoBack();
  return (
    <main className="mx-auto max-w-5xl px-4 pb-16 pt-6">
      <button type="button" onClick={goBack} className={buttonStyles.subtle}>
        <ArrowLeftIcon className="h-4 w-4" />
        {STOREFRONT_LABELS.back}
      </button>
      <div className="mt-6 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-gray-900 sm:text-4xl">Choose your coloring book</h1>
        <p className="mx-auto mt-3 max-w-2xl text-lg text-gray-600">
          Both books have a title page, a dedication page and one sketch of your photos per page, printed within{" "}
          {PROCESSING_TIME_TEXT}.
        </p>
      </div>
      <div className="mt-12 grid gap-8 md:grid-cols-2">
        <PlanCard plan={PLANS.standard} to="/create-book?type=standard" />
        <PlanCard plan={PLANS.premium} to="/create-book?type=premium" mostPopular />
      </div>
    </main>
  );
}
