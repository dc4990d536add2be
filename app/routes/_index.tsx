import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { buttonStyles } from "~/components/button-styles";
import { CreateBookForm } from "~/components/book-form";
import { CheckIcon } from "~/components/icons";
import { ShopLogo } from "~/components/shop-logo";
import { MAX_PHOTOS_PER_BOOK, SHOP_NAME, SHOP_TAGLINE } from "~/lib/constants";

export const meta: MetaFunction = () => [
  { title: `${SHOP_NAME} – ${SHOP_TAGLINE}` },
  { name: "description", content: "Turn your family photos into a printed, personalised coloring book." },
];

/** SPEC section 1: the hidden inline mode, reachable only by this query, never from the page's controls. */
const INLINE_CREATE_MODE = "create";

const HIGHLIGHTS = [
  `Upload up to ${MAX_PHOTOS_PER_BOOK} photos`,
  "Custom title and dedication",
  "PDF formatting",
  "Premium paper printing",
  "Available in 43 countries",
];

export default function Index() {
  const [searchParams] = useSearchParams();
  const inlineCreate = searchParams.get("mode") === INLINE_CREATE_MODE;

  return (
    <main>
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center px-4 py-3">
          <ShopLogo />
        </div>
      </header>
      <section className="bg-gradient-to-b from-brand-50 to-gray-50">
        <div
          className={`mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:py-20 ${inlineCreate ? "lg:grid-cols-2 lg:items-start" : ""}`}
        >
          <div>
            <h1 className="text-4xl font-bold tracking-tight text-gray-900 sm:text-5xl">
              Turn your photos into a coloring book
            </h1>
            <p className="mt-4 max-w-xl text-lg text-gray-600">
              We redraw your favourite family photos as clean black-and-white line art and print them as a
              personalised coloring book, delivered to your door.
            </p>
            <ul className="mt-6 grid max-w-xl gap-2 sm:grid-cols-2">
              {HIGHLIGHTS.map((item) => (
                <li key={item} className="flex items-center gap-2 text-gray-700">
                  <CheckIcon className="h-4 w-4 text-brand-600" />
                  {item}
                </li>
              ))}
            </ul>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/preview-test" className={buttonStyles.primary}>
                Try a free preview
              </Link>
              <Link to="/choose-plan" className={buttonStyles.secondary}>
                Choose your book
              </Link>
            </div>
          </div>
          {inlineCreate ? <CreateBookForm /> : null}
        </div>
      </section>
    </main>
  );
}
