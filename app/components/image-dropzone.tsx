import { useId } from "react";
import type { FileRejection } from "react-dropzone";
import { DROPZONE_TEXT } from "~/lib/customer-copy";
import { DropzoneFeedback, useDropzoneWithFeedback } from "./dropzone-feedback";
import { UploadIcon } from "./icons";

export interface ImageDropzoneProps {
  /** MIME type -> extensions, as react-dropzone takes it. */
  accept: Record<string, string[]>;
  onDrop: (accepted: File[], rejected: FileRejection[]) => void;
  disabled?: boolean;
  title: string;
  hint?: string;
  footnote?: string;
  /** More files than this in one drop are all refused ('Too many files'). */
  maxFiles?: number;
  /** Larger files are refused ('File is larger than N bytes'). */
  maxSize?: number;
  /** A smaller zone, for a page where the photos are one part of a longer form. */
  compact?: boolean;
}

/**
 * A drop zone for photos whose title is the button that opens the file picker. The button's
 * ::after covers the zone, so a click anywhere in it opens the picker, while the file input stays
 * outside the button (no control nested in a control) and the button's name is its visible title.
 * The zone's messages (what it refused, a cancelled dialog) are said under it.
 */
export function ImageDropzone({ accept, onDrop, disabled, title, hint, footnote, maxFiles, maxSize, compact }: ImageDropzoneProps) {
  const hintId = useId();
  const feedbackId = useId();
  const { getRootProps, getInputProps, isDragActive, open, messages } = useDropzoneWithFeedback({
    accept,
    onDrop,
    disabled,
    multiple: true,
    maxFiles,
    maxSize,
    // The button opens the picker, by click or by keyboard; the zone itself takes drops.
    noClick: true,
    noKeyboard: true,
  });
  return (
    <div>
      <div
        {...getRootProps()}
        className={`relative flex flex-col items-center justify-center border-2 border-dashed text-center transition has-[button:focus-visible]:ring-2 has-[button:focus-visible]:ring-brand-600 has-[button:focus-visible]:ring-offset-2 ${
          compact ? "rounded-xl px-4 py-8" : "rounded-2xl px-6 py-12"
        } ${
          disabled
            ? "cursor-not-allowed border-gray-200 bg-gray-50 opacity-60"
            : isDragActive
              ? "border-brand-500 bg-brand-50"
              : "cursor-pointer border-gray-300 bg-white hover:border-brand-500 hover:bg-brand-50/40"
        }`}
      >
        <input {...getInputProps({ "aria-label": DROPZONE_TEXT.chooseFiles })} />
        {compact ? (
          <UploadIcon className="h-8 w-8 text-brand-600" />
        ) : (
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
            <UploadIcon className="h-7 w-7" />
          </span>
        )}
        <button
          type="button"
          onClick={open}
          disabled={disabled}
          aria-describedby={`${hint || footnote ? `${hintId} ` : ""}${feedbackId}`}
          className={`font-semibold text-gray-900 after:absolute after:inset-0 focus:outline-none disabled:cursor-not-allowed ${
            compact ? "mt-2 after:rounded-xl" : "mt-4 text-base after:rounded-2xl"
          }`}
        >
          {isDragActive ? DROPZONE_TEXT.dropHere : title}
        </button>
        {hint || footnote ? (
          <div id={hintId}>
            {hint ? <p className={compact ? "mt-1 text-xs text-gray-500" : "mt-1 text-sm text-gray-600"}>{hint}</p> : null}
            {footnote ? <p className="mt-3 text-xs text-gray-500">{footnote}</p> : null}
          </div>
        ) : null}
      </div>
      <DropzoneFeedback id={feedbackId} messages={messages} />
    </div>
  );
}
