/**
 * The sample stock photos on the create-book page (docs/product.md §5.4): two tabs of four pictures,
 * each added to the book as a file, as if the visitor had picked it from disk.
 */
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { CREATE_BOOK_MESSAGES } from "~/lib/customer-copy";
import {
  loadStockPhotoFile,
  STOCK_PHOTO_GROUPS,
  STOCK_PHOTOS,
  STOCK_PICKER_TEXT,
  type StockPhoto,
  type StockPhotoGroup,
} from "~/lib/stock-photos";
import { buttonStyles } from "./button-styles";
import { Spinner } from "./spinner";
import { useToast } from "./toast";

export function StockPhotoPicker({ onAdd, disabled }: { onAdd: (file: File) => void; disabled?: boolean }) {
  const toast = useToast();
  const idPrefix = useId();
  const [group, setGroup] = useState<StockPhotoGroup>("coloringPages");
  // Several photos may be on their way at once; each button shows only its own.
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());
  const tabRefs = useRef<Partial<Record<StockPhotoGroup, HTMLButtonElement | null>>>({});

  async function add(photo: StockPhoto) {
    setAdding((current) => new Set(current).add(photo.id));
    try {
      const file = await loadStockPhotoFile(photo);
      onAdd(file);
      toast({ title: CREATE_BOOK_MESSAGES.stockPhotoAdded });
    } catch (error) {
      console.error(error);
      toast({
        title: STOCK_PICKER_TEXT.addFailedTitle,
        description: STOCK_PICKER_TEXT.addFailed(photo.title),
        variant: "destructive",
      });
    } finally {
      setAdding((current) => {
        const next = new Set(current);
        next.delete(photo.id);
        return next;
      });
    }
  }

  // WAI-ARIA tabs: arrows and Home/End move between tabs (roving tabindex).
  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = STOCK_PHOTO_GROUPS.indexOf(group);
    const last = STOCK_PHOTO_GROUPS.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = STOCK_PHOTO_GROUPS[target];
    setGroup(next);
    tabRefs.current[next]?.focus();
  }

  const headingId = `${idPrefix}-heading`;
  const tabId = (g: StockPhotoGroup) => `${idPrefix}-tab-${g}`;
  const panelId = (g: StockPhotoGroup) => `${idPrefix}-panel-${g}`;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-gray-900">
            {STOCK_PICKER_TEXT.heading}
          </h2>
          <p className="mt-0.5 text-sm text-gray-600">{STOCK_PICKER_TEXT.intro}</p>
        </div>
        <div role="tablist" aria-labelledby={headingId} className="flex shrink-0 gap-1 rounded-lg bg-gray-100 p-1">
          {STOCK_PHOTO_GROUPS.map((g) => {
            const selected = g === group;
            return (
              <button
                key={g}
                ref={(element) => {
                  tabRefs.current[g] = element;
                }}
                id={tabId(g)}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={panelId(g)}
                tabIndex={selected ? 0 : -1}
                onClick={() => setGroup(g)}
                onKeyDown={onTabKeyDown}
                className={`flex-1 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium transition focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 ${
                  selected ? "bg-white text-brand-700 shadow-sm" : "text-gray-600 hover:text-gray-900"
                }`}
              >
                {STOCK_PICKER_TEXT.groupLabels[g]}
              </button>
            );
          })}
        </div>
      </div>

      {STOCK_PHOTO_GROUPS.map((g) => (
        <div key={g} id={panelId(g)} role="tabpanel" aria-labelledby={tabId(g)} hidden={g !== group}>
          {/* A swipeable row on a phone (the next card peeks in), four columns from sm up. */}
          <ul className="-mx-4 mt-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-4 sm:overflow-visible sm:px-0 sm:pb-0">
            {STOCK_PHOTOS[g].map((photo) => (
              <StockPhotoCard
                key={photo.id}
                photo={photo}
                adding={adding.has(photo.id)}
                disabled={disabled}
                onAdd={() => void add(photo)}
              />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function StockPhotoCard({
  photo,
  adding,
  disabled,
  onAdd,
}: {
  photo: StockPhoto;
  adding: boolean;
  disabled?: boolean;
  onAdd: () => void;
}) {
  const text = adding ? STOCK_PICKER_TEXT.adding : STOCK_PICKER_TEXT.add;
  return (
    // relative: the button's sr-only name is positioned from the card, so the strip clips it; from
    // the page it would sit where the card sits, off the right edge, and the page would scroll sideways.
    <li className="relative flex w-44 shrink-0 snap-start flex-col overflow-hidden rounded-xl border border-gray-200 bg-white sm:w-auto">
      <img
        src={photo.url}
        alt={photo.title}
        width={400}
        height={300}
        loading="lazy"
        className="aspect-[4/3] w-full bg-gray-100 object-cover"
      />
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="text-sm font-semibold text-gray-900">{photo.title}</h3>
        <p className="text-xs leading-snug text-gray-600">{photo.description}</p>
        <div className="mt-auto pt-2">
          <button
            type="button"
            onClick={onAdd}
            disabled={disabled || adding}
            aria-busy={adding || undefined}
            className={`${buttonStyles.secondary} w-full px-3 py-1.5`}
          >
            {adding ? <Spinner className="h-4 w-4" /> : null}
            <span>
              {text.before}
              <span className="sr-only"> {photo.title}</span>
              {text.after}
            </span>
          </button>
        </div>
      </div>
    </li>
  );
}
