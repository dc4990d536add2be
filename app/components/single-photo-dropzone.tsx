import { useId } from "react";
import type { FileRejection } from "react-dropzone";
import { MAX_UPLOAD_BYTES } from "~/lib/shop-rules";
import { buttonStyles } from "./button-styles";
import { DropzoneFeedback, useDropzoneWithFeedback } from "./dropzone-feedback";
import { UploadIcon } from "./icons";

export interface SinglePhotoDropzoneProps {
  /** MIME type -> extensions, as react-dropzone takes it. */
  accept: Record<string, string[]>;
  /** Called with whatever was dropped or picked; the caller decides what to say about refusals. */
  onDrop: (accepted: File[], rejected: FileRejection[]) => void;
  disabled?: boolean;
  title: string;
  hint: string;
  pickLabel: string;
  fileInputLabel: string;
}

/**
 * A drop zone for exactly one photo (the free preview) with its picker button inside. The zone
 * takes drops only; the button is the one control that opens the file dialog, so there is no
 * button nested in a button for keyboards and screen readers. What it refused is said under it.
 */
export function SinglePhotoDropzone({ accept, onDrop, disabled, title, hint, pickLabel, fileInputLabel }: SinglePhotoDropzoneProps) {
  const feedbackId = useId();
  const { getRootProps, getInputProps, isDragActive, open, messages } = useDropzoneWithFeedback({
    accept,
    onDrop,
    disabled,
    multiple: false,
    maxFiles: 1,
    maxSize: MAX_UPLOAD_BYTES,
    noClick: true,
    noKeyboard: true,
  });
  return (
    <div>
      <div
        {...getRootProps({ role: "region", "aria-label": title, "aria-disabled": disabled || undefined })}
        className={`flex flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-10 text-center transition sm:py-14 ${
          disabled
            ? "cursor-not-allowed border-gray-200 bg-gray-50 opacity-60"
            : isDragActive
              ? "border-brand-500 bg-brand-50"
              : "border-gray-300 bg-white hover:border-brand-500 hover:bg-brand-50/40"
        }`}
      >
        <input {...getInputProps({ "aria-label": fileInputLabel })} />
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <UploadIcon className="h-7 w-7" />
        </span>
        <p className="mt-4 text-base font-semibold text-gray-900">{title}</p>
        <p className="mt-1 text-sm text-gray-600">{hint}</p>
        <button
          type="button"
          className={`${buttonStyles.secondary} mt-5`}
          disabled={disabled}
          aria-describedby={feedbackId}
          onClick={(event) => {
            event.stopPropagation();
            open();
          }}
        >
          {pickLabel}
        </button>
      </div>
      <DropzoneFeedback id={feedbackId} messages={messages} />
    </div>
  );
}
