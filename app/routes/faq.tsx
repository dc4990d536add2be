import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { Accordion } from "~/components/accordion";
import { buttonStyles } from "~/components/button-styles";
import { PageHeading } from "~/components/page-heading";
import { PAGE_META, STOREFRONT_LABELS } from "~/lib/customer-copy";
import { FAQ_ITEMS } from "~/lib/content/faq";

export const meta: MetaFunction = () => [
  { title: PAGE_META.faq.title },
  { name: "description", content: PAGE_META.faq.description },
];

const ACCORDION_ITEMS = FAQ_ITEMS.map((item) => ({
  id: item.id,
  heading: item.question,
  content: (
    <div className="space-y-3">
      {item.answer.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </div>
  ),
}));

export default function Faq() {
  return (
    <main>
      <PageHeading title="Frequently Asked Questions">
        <p>Everything about turning your photos into a coloring book.</p>
      </PageHeading>
      <div className="mx-auto max-w-3xl px-4 pb-16">
        <Accordion items={ACCORDION_ITEMS} />
        <div className="mt-10 rounded-xl bg-brand-50 p-6 text-center">
          <h2 className="text-lg font-semibold text-gray-900">Ready to make your book?</h2>
          <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/create-book" className={buttonStyles.primary}>
              {STOREFRONT_LABELS.getStarted}
            </Link>
            <Link to="/" className={buttonStyles.secondary}>
              {STOREFRONT_LABELS.backToHome}
            </Link>
          </div>
        </div>
      </div>
    </main>
  );
}
