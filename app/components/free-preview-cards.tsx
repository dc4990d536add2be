/** The cards of the free preview page (/preview-test) around the uploader. */
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { debugImageUrl, getDebugFiles } from "~/lib/api-client";
import { PREVIEW_LABELS, PREVIEW_MESSAGES } from "~/lib/customer-copy";
import { buttonStyles } from "./button-styles";
import { BookIcon, CheckIcon } from "./icons";

/** docs/product.md §5.2: the preview was used in this browser, so the uploader is replaced by this. */
export function UsedPreviewCard() {
  return (
    <section
      aria-labelledby="used-preview-title"
      className="rounded-2xl border border-brand-100 bg-white p-6 text-center shadow-sm sm:p-10"
    >
      <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
        <CheckIcon className="h-7 w-7" />
      </span>
      <h2 id="used-preview-title" className="mt-4 text-xl font-bold text-gray-900 sm:text-2xl">
        {PREVIEW_MESSAGES.alreadyUsedTitle}
      </h2>
      <p className="mx-auto mt-3 max-w-md text-gray-600">{PREVIEW_MESSAGES.alreadyUsedText}</p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/choose-plan" className={buttonStyles.primary}>
          {PREVIEW_LABELS.choosePlan}
        </Link>
        <Link to="/" className={buttonStyles.secondary}>
          {PREVIEW_LABELS.backToHome}
        </Link>
      </div>
    </section>
  );
}

/** After a conversion: the call to make a whole book. */
export function CreateBookCallToAction() {
  return (
    <section
      aria-labelledby="create-book-cta"
      className="flex flex-col gap-4 rounded-2xl bg-brand-700 p-6 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-8"
    >
      <div className="flex gap-4">
        <span className="hidden h-12 w-12 shrink-0 items-center justify-center rounded-full bg-white/15 sm:flex">
          <BookIcon className="h-6 w-6" />
        </span>
        <div>
          <h2 id="create-book-cta" className="text-lg font-bold sm:text-xl">
            {PREVIEW_LABELS.ctaHeading}
          </h2>
          <p className="mt-1 text-sm text-brand-50">{PREVIEW_LABELS.ctaText}</p>
        </div>
      </div>
      <div className="flex shrink-0 flex-col gap-3 sm:flex-row">
        <Link
          to="/create-book"
          className="inline-flex items-center justify-center rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-brand-700 shadow-sm transition hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {PREVIEW_LABELS.createFullBook}
        </Link>
        <Link
          to="/choose-plan"
          className="inline-flex items-center justify-center rounded-lg border border-white/40 px-5 py-2.5 text-sm font-semibold text-white transition hover:bg-white/10 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {PREVIEW_LABELS.seePlans}
        </Link>
      </div>
    </section>
  );
}

/**
 * The debug view (docs/product.md §5.2) of the visitor's own last conversion: input plane, edge/line
 * mask and final page. Only rendered where the server has it switched on.
 */
export function DebugPanel({ conversion }: { conversion: string }) {
  const [latest, setLatest] = useState<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    getDebugFiles()
      .then((answer) => !cancelled && setLatest(answer.latest))
      .catch((error) => console.warn("debug view unavailable", error));
    return () => {
      cancelled = true;
    };
  }, [conversion]);
  if (latest === null) return null;
  const planes = [
    { plane: "image", label: PREVIEW_LABELS.debugInput },
    { plane: "mask", label: PREVIEW_LABELS.debugMask },
    { plane: "sketch", label: PREVIEW_LABELS.debugPage },
  ] as const;
  return (
    <details className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm" data-testid="debug-view">
      <summary className="cursor-pointer text-sm font-semibold text-gray-700">{PREVIEW_LABELS.debugHeading}</summary>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        {planes.map(({ plane, label }) => (
          <figure key={plane} className="overflow-hidden rounded-lg border border-gray-200 bg-gray-50">
            <img src={debugImageUrl(plane, latest)} alt={label} className="h-40 w-full bg-white object-contain" />
            <figcaption className="px-3 py-2 text-xs text-gray-600">{label}</figcaption>
          </figure>
        ))}
      </div>
    </details>
  );
}
