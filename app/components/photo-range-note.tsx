/**
 * The preview page's note on the plan's photo range (docs/product.md §5.8): the range, and when the
 * selection does not fit it, the plan's range text and what to do, so a visitor learns it before Create
 * My Book rather than on the order page.
 */
import { Link } from "@remix-run/react";
import { BOOK_PAGE_MESSAGES } from "~/lib/customer-copy";
import { PLANS } from "~/lib/shop-rules";
import { type BookType } from "~/core/catalog";
import type { PhotoCountAdvice } from "~/lib/pricing";

interface PhotoRangeNoteProps {
  plan: BookType;
  /** No plan was chosen: the book is priced by its selected count. */
  planByCount: boolean;
  advice: PhotoCountAdvice;
  uploadHref: string;
}

export function PhotoRangeNote({ plan, planByCount, advice, uploadHref }: PhotoRangeNoteProps) {
  const { name, minPhotos, maxPhotos } = PLANS[plan];
  const problem = advice.kind === "upload-more" || advice.kind === "deselect" ? advice.problem : null;
  return (
    <section aria-label={BOOK_PAGE_MESSAGES.photoRangeHeading} className="mt-4 rounded-lg bg-gray-50 p-3 text-sm" aria-live="polite">
      <p className="font-medium text-gray-900">{BOOK_PAGE_MESSAGES.planPhotoRange(name, minPhotos, maxPhotos)}</p>
      {planByCount ? (
        <p className="mt-1 text-xs text-gray-500">{BOOK_PAGE_MESSAGES.planByCount(PLANS.standard.maxPhotos, PLANS.premium.name)}</p>
      ) : null}
      {advice.kind === "fits" ? null : (
        <div className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-amber-900">
          {problem ? (
            <>
              <p className="font-semibold">{problem.title}</p>
              <p>{problem.description}</p>
            </>
          ) : null}
          <p className={problem ? "mt-1" : undefined}>
            {advice.kind === "upload-more"
              ? BOOK_PAGE_MESSAGES.uploadMore(advice.count)
              : advice.kind === "select-more"
                ? BOOK_PAGE_MESSAGES.selectMore(advice.count)
                : BOOK_PAGE_MESSAGES.deselect(advice.count)}
          </p>
          {advice.kind === "upload-more" ? (
            <Link to={uploadHref} className="mt-1 inline-block font-medium text-brand-700 underline">
              {BOOK_PAGE_MESSAGES.uploadMoreLink}
            </Link>
          ) : null}
        </div>
      )}
    </section>
  );
}
