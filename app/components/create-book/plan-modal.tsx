/**
 * docs/product.md §5.4: on first load the create-book page asks which book to make. A real modal
 * dialog: focus moves into it, Escape and the backdrop keep the current choice, focus returns.
 */
import { useEffect, useId, useRef } from "react";
import { BOOK_TYPES, type BookType } from "~/core/catalog";
import { PLANS } from "~/lib/shop-rules";
import { formatMoney } from "~/lib/format";
import { CheckIcon } from "../icons";

export function PlanModal({ onChoose, onClose }: { onChoose: (plan: BookType) => void; onClose: () => void }) {
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-gray-900/50 p-0 sm:items-center sm:p-4" onClick={onClose}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="plan-modal-title"
        className="max-h-[95vh] w-full max-w-2xl overflow-y-auto rounded-t-2xl bg-white p-6 shadow-xl sm:rounded-2xl"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="plan-modal-title" className="text-xl font-bold text-gray-900">
          Which book would you like?
        </h2>
        <p className="mt-1 text-sm text-gray-600">You can switch later on this page.</p>
        <div className="mt-5 grid gap-4 sm:grid-cols-2">
          {BOOK_TYPES.map((plan) => (
            <PlanCard key={plan} plan={plan} onChoose={onChoose} />
          ))}
        </div>
      </div>
    </div>
  );
}

/**
 * The card's button holds only its first lines (the book and its page range), which are its name;
 * the price, the badge and what is included describe it. Its ::after covers the card, so a click
 * anywhere on the card chooses it, with no second control nested in the button.
 */
function PlanCard({ plan, onChoose }: { plan: BookType; onChoose: (plan: BookType) => void }) {
  const details = PLANS[plan];
  const popular = plan === "premium";
  const descriptionId = useId();
  const pages = `${details.minPhotos}-${details.maxPhotos} pages`;
  return (
    <div
      className={`relative flex flex-col rounded-xl border-2 p-5 text-left transition hover:border-brand-500 hover:shadow-md has-[button:focus-visible]:ring-2 has-[button:focus-visible]:ring-brand-600 ${
        popular ? "border-brand-500 bg-brand-50/50" : "border-gray-200"
      }`}
    >
      <button
        type="button"
        onClick={() => onChoose(plan)}
        aria-label={`${details.name}, ${pages}`}
        aria-describedby={descriptionId}
        className="flex flex-col text-left after:absolute after:inset-0 after:rounded-xl focus:outline-none"
      >
        {/* The space keeps "Book" and the page range two words for tools that read text without layout. */}
        <span className="text-lg font-semibold text-gray-900">{details.name} </span>
        <span className="mt-1 text-sm font-medium text-brand-700">{pages}</span>
      </button>
      <div id={descriptionId}>
        {popular ? (
          <span className="pointer-events-none absolute -top-3 right-4 rounded-full bg-brand-600 px-3 py-0.5 text-xs font-bold tracking-wide text-white">
            MOST POPULAR
          </span>
        ) : null}
        <span className="mt-3 flex items-baseline gap-2">
          <span className="text-2xl font-bold text-gray-900">{formatMoney(details.price)}</span>
          <span className="text-sm text-gray-500 line-through">
            <span className="sr-only">was </span>
            {formatMoney(details.oldPrice)}
          </span>
        </span>
        <ul className="mt-3 space-y-1 text-sm text-gray-700">
          {[`${details.binding}, ${details.paper}`, `${details.minPhotos} to ${details.maxPhotos} of your photos`, "Free delivery"].map((line) => (
            <li key={line} className="flex items-center gap-2">
              <CheckIcon className="h-4 w-4 text-brand-600" />
              {line}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
