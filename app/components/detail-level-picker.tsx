import { DETAIL_LEVEL_MESSAGES, DETAIL_LEVEL_TEXT } from "~/lib/customer-copy";
import { DETAIL_LEVELS, type DetailLevel } from "~/core/engine-limits";

/**
 * A tiny drawing of how busy a page gets at each level: a sun with more rays and a face as the
 * level rises. Decorative; the label and explanation carry the meaning.
 */
function LevelGlyph({ level }: { level: DetailLevel }) {
  const rays = level === "simple" ? 0 : level === "standard" ? 4 : 8;
  return (
    <svg
      viewBox="0 0 40 40"
      className="h-10 w-10 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeLinecap="round"
      aria-hidden="true"
    >
      <circle cx="20" cy="20" r="9" strokeWidth={level === "simple" ? 3.5 : 2.5} />
      {Array.from({ length: rays }, (_, n) => {
        const angle = (n * 2 * Math.PI) / rays;
        const [x1, y1, x2, y2] = [13, 13, 17, 17].map(
          (r, i) => 20 + r * (i % 2 === 0 ? Math.cos(angle) : Math.sin(angle))
        );
        return <line key={n} x1={x1} y1={y1} x2={x2} y2={y2} strokeWidth={2} />;
      })}
      {level === "detailed" ? (
        <>
          <circle cx="16.5" cy="18" r="1" fill="currentColor" stroke="none" />
          <circle cx="23.5" cy="18" r="1" fill="currentColor" stroke="none" />
          <path d="M16 22.5c2.2 2.4 5.8 2.4 8 0" strokeWidth={1.5} />
        </>
      ) : null}
    </svg>
  );
}

interface BookDetailPickerProps {
  value: DetailLevel;
  disabled?: boolean;
  onChange: (level: DetailLevel) => void;
}

/** The book's detail level: three radio cards, each with its one-line explanation. */
export function BookDetailPicker({ value, disabled = false, onChange }: BookDetailPickerProps) {
  return (
    // The card is a div around a borderless fieldset: a bordered fieldset draws its legend on the border.
    <div className="mb-6 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
      <fieldset disabled={disabled} aria-describedby="book-detail-level-intro">
        <legend className="text-base font-semibold text-gray-900">{DETAIL_LEVEL_MESSAGES.bookPickerTitle}</legend>
        <p id="book-detail-level-intro" className="mt-1 text-sm text-gray-600">
          {DETAIL_LEVEL_MESSAGES.bookPickerIntro}
        </p>
        {/* Phones: three compact choices in a row, the chosen one's explanation under them. */}
        <div className="mt-3 grid grid-cols-3 gap-2">
          {DETAIL_LEVELS.map((level) => {
            const checked = level === value;
            const titleId = `detail-level-${level}-title`;
            const explanationId = `detail-level-${level}-explanation`;
            return (
              <label
                key={level}
                className={`flex cursor-pointer flex-col items-center gap-1 rounded-lg border p-2 text-center transition has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 sm:flex-row sm:items-start sm:gap-3 sm:p-3 sm:text-left ${
                  checked ? "border-brand-500 bg-brand-50 ring-1 ring-brand-500" : "border-gray-200 hover:bg-gray-50"
                }`}
              >
                <input
                  type="radio"
                  name="book-detail-level"
                  value={level}
                  checked={checked}
                  onChange={() => onChange(level)}
                  aria-labelledby={titleId}
                  aria-describedby={explanationId}
                  className="sr-only"
                />
                <span className={checked ? "text-brand-700" : "text-gray-500"}>
                  <LevelGlyph level={level} />
                </span>
                <span className="min-w-0">
                  <span id={titleId} className="block text-sm font-semibold text-gray-900">
                    {DETAIL_LEVEL_TEXT[level].label}
                  </span>
                  <span id={explanationId} className="hidden text-xs text-gray-600 sm:block">
                    {DETAIL_LEVEL_TEXT[level].explanation}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        <p aria-hidden="true" className="mt-2 text-xs text-gray-600 sm:hidden">
          {DETAIL_LEVEL_TEXT[value].explanation}
        </p>
      </fieldset>
    </div>
  );
}

interface PageDetailSelectProps {
  pageNumber: number;
  bookLevel: DetailLevel;
  /** The page's own level; null follows the book. */
  ownLevel: DetailLevel | null;
  disabled?: boolean;
  onChange: (level: DetailLevel | null) => void;
}

const FOLLOW_BOOK = "book";

/** One page's level: the book's (the first option), or one of its own. */
export function PageDetailSelect({
  pageNumber,
  bookLevel,
  ownLevel,
  disabled = false,
  onChange,
}: PageDetailSelectProps) {
  const id = `page-detail-${pageNumber}`;
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="shrink-0 text-gray-600" aria-hidden="true">
        Detail
      </span>
      <select
        id={id}
        aria-label={DETAIL_LEVEL_MESSAGES.pageLevelLabel(pageNumber)}
        value={ownLevel ?? FOLLOW_BOOK}
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.target.value === FOLLOW_BOOK ? null : (event.target.value as DetailLevel);
          if (chosen !== ownLevel) onChange(chosen);
        }}
        className="min-w-0 flex-1 rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:bg-gray-50 disabled:text-gray-400"
      >
        <option value={FOLLOW_BOOK}>{DETAIL_LEVEL_MESSAGES.followBook(bookLevel)}</option>
        {DETAIL_LEVELS.map((level) => (
          <option key={level} value={level}>
            {DETAIL_LEVEL_TEXT[level].label}
          </option>
        ))}
      </select>
    </div>
  );
}
