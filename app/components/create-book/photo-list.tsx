/**
 * The create-book page's photos: a drop zone and picker, the count badge, Clear All, and a
 * thumbnail per photo with its own remove button. Thumbnails are object URLs, released when a
 * photo leaves the list.
 */
import { useEffect, useMemo } from "react";
import { CREATE_BOOK_LABELS } from "~/lib/customer-copy";
import { MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES } from "~/lib/shop-rules";
import { formatBytes } from "~/lib/format";
import { ImageDropzone } from "../image-dropzone";

/** The picker offers the five types of docs/product.md §5.4; files of other types still arrive and get a message. */
const PICKER_ACCEPT = {
  "image/jpeg": [".jpg", ".jpeg"],
  "image/png": [".png"],
  "image/gif": [".gif"],
  "image/bmp": [".bmp"],
  "image/webp": [".webp"],
};

export interface ChosenPhoto {
  id: string;
  file: File;
}

interface PhotoListProps {
  photos: ChosenPhoto[];
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
  disabled: boolean;
  requiredRange: string;
}

export function PhotoList({ photos, onAdd, onRemove, onClear, disabled, requiredRange }: PhotoListProps) {
  const previews = useMemo(() => photos.map((photo) => ({ ...photo, url: URL.createObjectURL(photo.file) })), [photos]);
  useEffect(() => () => previews.forEach((preview) => URL.revokeObjectURL(preview.url)), [previews]);

  return (
    <section aria-labelledby="photos-heading" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="photos-heading" className="flex items-center gap-2 text-lg font-semibold text-gray-900">
          Your photos
          <span
            data-testid="photo-count"
            className="rounded-full bg-brand-100 px-2.5 py-0.5 text-sm font-semibold text-brand-700"
            aria-label={`${photos.length} of ${MAX_PHOTOS_PER_BOOK} photos`}
          >
            {photos.length}/{MAX_PHOTOS_PER_BOOK}
          </span>
        </h2>
        {photos.length > 0 ? (
          <button type="button" onClick={onClear} disabled={disabled} className="text-sm font-medium text-red-600 hover:text-red-700 disabled:opacity-50">
            {CREATE_BOOK_LABELS.clearAll}
          </button>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-gray-600">Your book needs {requiredRange} photos. Each becomes one coloring page.</p>

      <div className="mt-4">
        <ImageDropzone
          compact
          accept={PICKER_ACCEPT}
          disabled={disabled}
          maxFiles={MAX_PHOTOS_PER_BOOK}
          maxSize={MAX_UPLOAD_BYTES}
          // The zone says what it refused; our own rules (photo-selection.ts) decide what is added
          // and explain it in a toast, so refused files are passed on too.
          onDrop={(accepted, rejected) => onAdd([...accepted, ...rejected.map((r) => r.file)])}
          title={CREATE_BOOK_LABELS.addPhotos}
          hint={`JPG, PNG, GIF, BMP or WebP, up to 15 MB each, ${MAX_PHOTOS_PER_BOOK} in all`}
        />
      </div>

      {previews.length > 0 ? (
        <ul aria-label="Chosen photos" className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4 lg:grid-cols-5">
          {previews.map((preview) => (
            <li key={preview.id} className="group relative overflow-hidden rounded-lg border border-gray-200 bg-gray-50">
              <img src={preview.url} alt={preview.file.name} className="aspect-square w-full object-cover" />
              <span className="block truncate px-1.5 py-1 text-[11px] text-gray-600" title={preview.file.name}>
                {formatBytes(preview.file.size)}
              </span>
              <button
                type="button"
                onClick={() => onRemove(preview.id)}
                disabled={disabled}
                aria-label={`Remove ${preview.file.name}`}
                className="absolute right-1 top-1 flex h-7 w-7 items-center justify-center rounded-full bg-white/90 text-gray-700 shadow ring-1 ring-gray-300 hover:bg-red-50 hover:text-red-600 disabled:opacity-50"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
