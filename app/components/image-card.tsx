import type { ImageDto } from "~/lib/api-client";
import { HIGH_QUALITY_SCORE, LABELS } from "~/lib/constants";
import { AlertIcon, CheckIcon, EyeIcon, TrashIcon } from "./icons";
import { Spinner } from "./spinner";

interface ImageCardProps {
  image: ImageDto;
  onToggle: (image: ImageDto, isSelected: boolean) => void;
  onPreview: (image: ImageDto) => void;
  onRemove: (image: ImageDto) => void;
}

/** One photo on the preview page: its sketch (or the photo while it is drawn), status, score, selection. */
export function ImageCard({ image, onToggle, onPreview, onRemove }: ImageCardProps) {
  const completed = image.processingStatus === "completed";
  const inProgress = image.processingStatus === "pending" || image.processingStatus === "processing";
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
          className={`absolute inset-0 h-full w-full object-contain ${image.sketchUrl ? "bg-white" : "opacity-60 grayscale"}`}
        />
        {inProgress ? (
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
        {image.processingStatus === "failed" && image.error ? (
          <p className="text-xs text-red-700">{image.error}</p>
        ) : null}
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
  switch (image.processingStatus) {
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
