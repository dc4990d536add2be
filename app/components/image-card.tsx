import type { ImageDto } from "~/lib/api-types";
import { DETAIL_LEVEL_MESSAGES, LABELS } from "~/lib/customer-copy";
import { HIGH_QUALITY_SCORE } from "~/lib/shop-rules";
import { type DetailLevel } from "~/core/engine-limits";
import { buttonStyles } from "./button-styles";
import { PageDetailSelect } from "./detail-level-picker";
import { AlertIcon, CheckIcon, EyeIcon, TrashIcon } from "./icons";
import { Spinner } from "./spinner";

/**
 * Whether a page is still being drawn. Besides pending and processing, a page whose stored sketch
 * is at another level than the one asked for is waiting for its redraw: a level changed while the
 * old level was being drawn lets that drawing finish first, and the next one follows.
 */
export function isBeingDrawn(image: ImageDto): boolean {
  if (image.processingStatus === "pending" || image.processingStatus === "processing") return true;
  return image.processingStatus === "completed" && image.sketchDetailLevel !== null && image.sketchDetailLevel !== image.detailLevel;
}

interface ImageCardProps {
  image: ImageDto;
  /** Its place in the book (1-based), as the detail select names it. */
  pageNumber: number;
  bookDetailLevel: DetailLevel;
  /** False once the book is ordered: levels and retries are then refused. */
  editable: boolean;
  /** A level change or retry of this page is on its way to the server. */
  busy: boolean;
  onToggle: (image: ImageDto, isSelected: boolean) => void;
  onPreview: (image: ImageDto) => void;
  onRemove: (image: ImageDto) => void;
  onDetailChange: (image: ImageDto, level: DetailLevel | null) => void;
  onRetry: (image: ImageDto) => void;
}

/**
 * One photo on the preview page: its sketch (or the photo while it is first drawn; the old sketch,
 * dimmed, while it is redrawn), status, score, detail level, selection, and "Try again" if it failed.
 */
export function ImageCard({
  image,
  pageNumber,
  bookDetailLevel,
  editable,
  busy,
  onToggle,
  onPreview,
  onRemove,
  onDetailChange,
  onRetry,
}: ImageCardProps) {
  const inProgress = isBeingDrawn(image);
  const completed = image.processingStatus === "completed" && !inProgress;
  const redrawing = inProgress && image.sketchUrl !== null;
  const checkboxId = `select-image-${image.id}`;
  return (
    <li
      className={`flex flex-col overflow-hidden rounded-xl border bg-white shadow-sm transition ${
        image.isSelected ? "border-brand-500 ring-2 ring-brand-500" : "border-gray-200"
      }`}
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-gray-100">
        <img
          src={image.sketchUrl ?? image.originalUrl}
          alt={image.sketchUrl ? `Sketch of ${image.originalFilename}` : image.originalFilename}
          loading="lazy"
          className={`absolute inset-0 h-full w-full object-contain transition-opacity ${
            image.sketchUrl ? `bg-white ${redrawing ? "opacity-30" : ""}` : "opacity-60 grayscale"
          }`}
        />
        {redrawing ? (
          <div className="absolute inset-0 flex items-center justify-center p-3">
            <span className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1.5 text-sm font-medium text-brand-700 shadow">
              <Spinner className="h-4 w-4" />
              <span role="status">{DETAIL_LEVEL_MESSAGES.redrawing(image.detailLevel)}</span>
            </span>
          </div>
        ) : inProgress ? (
          <div className="absolute inset-0 flex items-center justify-center bg-white/40">
            <span className="rounded-full bg-white p-2 text-brand-700 shadow">
              <Spinner className="h-6 w-6" label={`Drawing ${image.originalFilename}`} />
            </span>
          </div>
        ) : null}
        <div className="absolute right-2 top-2 flex gap-1">
          <button
            type="button"
            onClick={() => onPreview(image)}
            aria-label={`Preview ${image.originalFilename}`}
            className="rounded-md bg-white/90 p-1.5 text-gray-700 shadow hover:bg-white hover:text-gray-900"
          >
            <EyeIcon className="h-4 w-4" />
          </button>
          <button
            type="button"
            onClick={() => onRemove(image)}
            aria-label={`Remove ${image.originalFilename}`}
            className="rounded-md bg-white/90 p-1.5 text-gray-700 shadow hover:bg-white hover:text-red-600"
          >
            <TrashIcon className="h-4 w-4" />
          </button>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p className="truncate text-sm font-medium text-gray-900" title={image.originalFilename}>
          {image.originalFilename}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
          <StatusBadge image={image} />
          <QualityScore score={image.qualityScore} />
        </div>
        {image.processingStatus === "failed" ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {image.error ? <p className="min-w-0 flex-1 text-xs text-red-700">{image.error}</p> : null}
            {editable ? (
              <button
                type="button"
                onClick={() => onRetry(image)}
                disabled={busy}
                aria-label={DETAIL_LEVEL_MESSAGES.tryAgainLabel(image.originalFilename)}
                className={`${buttonStyles.secondary} px-3 py-1.5`}
              >
                {DETAIL_LEVEL_MESSAGES.tryAgain}
              </button>
            ) : null}
          </div>
        ) : null}
        <PageDetailSelect
          pageNumber={pageNumber}
          bookLevel={bookDetailLevel}
          ownLevel={image.ownDetailLevel}
          disabled={!editable || busy}
          onChange={(level) => onDetailChange(image, level)}
        />
        <label
          htmlFor={checkboxId}
          className={`mt-auto flex items-center gap-2 rounded-md border px-2 py-1.5 text-sm ${
            completed ? "cursor-pointer border-gray-200 hover:bg-gray-50" : "cursor-not-allowed border-gray-100 text-gray-400"
          }`}
        >
          <input
            id={checkboxId}
            type="checkbox"
            checked={image.isSelected}
            disabled={!completed}
            onChange={(event) => onToggle(image, event.target.checked)}
            aria-label={`Select ${image.originalFilename}`}
            className="h-4 w-4 rounded border-gray-300 accent-brand-600"
          />
          <span aria-hidden="true">Include in book</span>
        </label>
      </div>
    </li>
  );
}

function StatusBadge({ image }: { image: ImageDto }) {
  // A page waiting for its redraw is shown as queued, whatever its old sketch's status.
  switch (isBeingDrawn(image) && image.processingStatus === "completed" ? "pending" : image.processingStatus) {
    case "completed":
      return (
        <span className="inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-0.5 font-medium text-green-700 ring-1 ring-green-600/20">
          <CheckIcon className="h-3 w-3" />
          {LABELS.ready}
        </span>
      );
    case "processing":
    case "pending":
      return (
        <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-700 ring-1 ring-brand-500/20">
          <Spinner className="h-3 w-3" />
          {image.processingStatus === "processing" ? "Drawing…" : "Queued"}
        </span>
      );
    case "failed":
      return (
        <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 font-medium text-red-700 ring-1 ring-red-600/20">
          <AlertIcon className="h-3 w-3" />
          Failed
        </span>
      );
    default:
      return <span className="rounded-full bg-gray-100 px-2 py-0.5 font-medium text-gray-600">{LABELS.noStatus}</span>;
  }
}

function QualityScore({ score }: { score: number | null }) {
  if (score === null) return <span className="text-gray-400">Quality –</span>;
  const high = score >= HIGH_QUALITY_SCORE;
  return (
    <span className={high ? "font-medium text-green-700" : "text-gray-600"} title={high ? "Print it as is" : undefined}>
      Quality {score}%
    </span>
  );
}
