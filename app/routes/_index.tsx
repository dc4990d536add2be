import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { BeforeAfter } from "~/components/before-after";
import { buttonStyles } from "~/components/button-styles";
import { ExampleGallery } from "~/components/example-gallery";
import { BookIcon, CheckIcon, ImageIcon, UploadIcon } from "~/components/icons";
import { ShopStatsCounters } from "~/components/shop-stats";
import { TestimonialCarousel } from "~/components/testimonial-carousel";
import { COMPARISON_DEFAULT_HEIGHT_PX, MAX_PHOTOS_PER_BOOK, PLANS, TESTIMONIALS_PER_PAGE } from "~/lib/shop-rules";
import { DELIVERY_RANGE_TEXT, LANDING_CTA, LANDING_HIGHLIGHTS, SHOP_NAME, SHOP_TAGLINE, SOCIAL_PREVIEW_IMAGE } from "~/lib/customer-copy";
import { EXAMPLES, HERO_EXAMPLE } from "~/lib/content/examples";
import { TESTIMONIALS } from "~/lib/content/testimonials";
import { formatMoney } from "~/lib/format";

const PAGE_TITLE = `${SHOP_NAME} – ${SHOP_TAGLINE}`;
const PAGE_DESCRIPTION =
  "Turn your family photos into a printed, personalised coloring book: upload your photos, get clean line-art sketches, add a title and a dedication, and we print and deliver it.";

/** Social cards need an absolute image address, so the page learns its own origin. */
export function loader({ request }: LoaderFunctionArgs) {
  return json({ origin: new URL(request.url).origin });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const origin = data?.origin ?? "";
  return [
    { title: PAGE_TITLE },
    { name: "description", content: PAGE_DESCRIPTION },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SHOP_NAME },
    { property: "og:title", content: PAGE_TITLE },
    { property: "og:description", content: PAGE_DESCRIPTION },
    { property: "og:url", content: `${origin}/` },
    { property: "og:image", content: `${origin}${SOCIAL_PREVIEW_IMAGE}` },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: "A photo of rowing boats and the coloring page sketch made from it" },
    { name: "twitter:card", content: "summary_large_image" },
  ];
};

/** docs/product.md §5.1: the hidden inline mode, reachable only by this query, never from the page's controls. */
const INLINE_CREATE_MODE = "create";
/**
 * Loaded only in that mode: the form brings its validation libraries (about 30 KB gzipped),
 * which every other visitor of the landing page would download for nothing. It is drawn in
 * the browser only (InlineCreateForm), so it never shows before it can validate and submit.
 */
const CreateBookForm = lazy(() => import("~/components/book-form").then((module) => ({ default: module.CreateBookForm })));

const STEPS = [
  {
    icon: UploadIcon,
    title: "Upload your photos",
    text: `Pick up to ${MAX_PHOTOS_PER_BOOK} favourite photos from your phone or computer: family days out, pets, birthdays, holidays.`,
  },
  {
    icon: ImageIcon,
    title: "We draw them as line art",
    text: "Each photo becomes a clean black-and-white sketch with clear outlines and white space to colour. Keep the ones you love.",
  },
  {
    icon: BookIcon,
    title: "We print and deliver",
    text: `Add a title and a dedication; we print your book on premium paper and post it to you in ${DELIVERY_RANGE_TEXT}.`,
  },
];

export default function Index() {
  const [searchParams] = useSearchParams();
  const inlineCreate = searchParams.get("mode") === INLINE_CREATE_MODE;

  return (
    <>
      <main>
        <Hero inlineCreate={inlineCreate} />

        <section aria-labelledby="stats-heading" className="border-y border-gray-200 bg-gray-50">
          <div className="mx-auto max-w-6xl px-4 py-12">
            <h2 id="stats-heading" className="text-center text-sm font-semibold uppercase tracking-wide text-brand-700">
              Made with {SHOP_NAME} so far
            </h2>
            <div className="mt-6">
              <ShopStatsCounters />
            </div>
          </div>
        </section>

        <section aria-labelledby="features-heading" className="bg-white">
          <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:py-20 lg:grid-cols-2 lg:items-center">
            <div>
              <h2 id="features-heading" className="text-3xl font-bold tracking-tight text-gray-900">
                A coloring book that is all about your family
              </h2>
              <p className="mt-4 text-lg text-gray-600">
                Every page is one of your own photos, redrawn as an outline ready for crayons, pencils or felt tips.
                Books start at {formatMoney(PLANS.standard.price)} with free delivery.
              </p>
            </div>
            <ul className="grid gap-3 sm:grid-cols-2">
              {LANDING_HIGHLIGHTS.map((item) => (
                <li key={item} className="flex items-center gap-3 rounded-xl bg-brand-50 px-4 py-3 font-medium text-gray-800">
                  <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white">
                    <CheckIcon className="h-4 w-4" />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="how-heading" className="bg-gray-50">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
            <h2 id="how-heading" className="text-center text-3xl font-bold tracking-tight text-gray-900">
              How it works
            </h2>
            <ol className="mt-10 grid gap-6 md:grid-cols-3">
              {STEPS.map((step, index) => (
                <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
                  <div className="flex items-center gap-3">
                    <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-100 text-brand-700">
                      <step.icon />
                    </span>
                    <span className="text-sm font-semibold text-brand-700">Step {index + 1}</span>
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-gray-900">{step.title}</h3>
                  <p className="mt-2 text-gray-600">{step.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section aria-labelledby="gallery-heading" className="bg-white py-16 sm:py-20">
          <div className="mx-auto max-w-6xl px-4">
            <h2 id="gallery-heading" className="text-center text-3xl font-bold tracking-tight text-gray-900">
              Pages our customers colour
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-center text-gray-600">
              Real photos, drawn by the same engine that will draw yours.
            </p>
          </div>
          <div className="mt-10">
            <ExampleGallery examples={EXAMPLES} />
          </div>
        </section>

        <section aria-labelledby="testimonials-heading" className="bg-gray-50">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
            <h2 id="testimonials-heading" className="text-center text-3xl font-bold tracking-tight text-gray-900">
              Families love their books
            </h2>
            <div className="mt-10">
              <TestimonialCarousel testimonials={TESTIMONIALS} perPage={TESTIMONIALS_PER_PAGE} />
            </div>
          </div>
        </section>

        <section aria-labelledby="closing-heading" className="bg-brand-700">
          <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-20">
            <h2 id="closing-heading" className="text-3xl font-bold tracking-tight text-white">
              See your own photo as a coloring page
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-lg text-brand-100">
              Your first sketch is free and takes a few seconds. No account needed.
            </p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <Link
                to="/preview-test"
                className="inline-flex items-center justify-center rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-brand-700 shadow-sm transition hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
              >
                {LANDING_CTA.freePreview}
              </Link>
              <Link
                to="/choose-plan"
                className="inline-flex items-center justify-center rounded-lg border border-white/60 px-5 py-2.5 text-sm font-semibold text-white transition hover:bg-white/10 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
              >
                {LANDING_CTA.choosePlan}
              </Link>
            </div>
          </div>
        </section>
      </main>
    </>
  );
}

/** As wide as the example photo is at the comparison's height, so the photo fills the frame. */
const heroFrameWidth = Math.round((COMPARISON_DEFAULT_HEIGHT_PX * HERO_EXAMPLE.width) / HERO_EXAMPLE.height);

function Hero({ inlineCreate }: { inlineCreate: boolean }) {
  return (
    <section aria-labelledby="hero-heading" className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2 lg:items-center">
        <div>
          <h1 id="hero-heading" className="text-4xl font-bold tracking-tight text-gray-900 sm:text-5xl">
            Turn your photos into a coloring book
          </h1>
          <p className="mt-4 max-w-xl text-lg text-gray-600">
            We redraw your favourite family photos as clean black-and-white line art and print them as a
            personalised coloring book, delivered to your door.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/preview-test" className={buttonStyles.primary}>
              {LANDING_CTA.freePreview}
            </Link>
            <Link to="/choose-plan" className={buttonStyles.secondary}>
              {LANDING_CTA.choosePlan}
            </Link>
          </div>
          <p className="mt-4 text-sm text-gray-500">One photo, free, no account needed.</p>
        </div>
        {inlineCreate ? (
          <InlineCreateForm />
        ) : (
          <figure className="mx-auto w-full" style={{ maxWidth: heroFrameWidth }}>
            <BeforeAfter
              beforeSrc={HERO_EXAMPLE.photoSrc}
              afterSrc={HERO_EXAMPLE.sketchSrc}
              beforeAlt={HERO_EXAMPLE.photoAlt}
              afterAlt={HERO_EXAMPLE.sketchAlt}
              label="Compare the photo with its sketch"
              height={COMPARISON_DEFAULT_HEIGHT_PX}
            />
            <figcaption className="mt-3 text-center text-sm text-gray-500">
              Drag the handle: a real photo on the left, the page our engine drew from it on the right.
            </figcaption>
          </figure>
        )}
      </div>
    </section>
  );
}

function InlineCreateForm() {
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  const placeholder = (
    <div className="flex min-h-96 items-center justify-center rounded-2xl border border-gray-200 bg-white text-gray-500">
      Loading the form…
    </div>
  );
  if (!inBrowser) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <CreateBookForm />
    </Suspense>
  );
}
