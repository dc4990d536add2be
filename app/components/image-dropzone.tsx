import { useDropzone, type FileRejection } from "react-dropzone";
import { UploadIcon } from "./icons";

export interface ImageDropzoneProps {
  /** MIME type -> extensions, as react-dropzone takes it. */
  accept: Record<string, string[]>;
  onDrop: (accepted: File[], rejected: FileRejection[]) => void;
  disabled?: boolean;
  title: string;
  hint?: string;
  footnote?: string;
}

/** A drop zone that is also a button opening the file picker (keyboard and touch friendly). */
export function ImageDropzone({ accept, onDrop, disabled, title, hint, footnote }: ImageDropzoneProps) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ accept, onDrop, disabled, multiple: true });
  return (
    <div
      {...getRootProps({
        role: "button",
        "aria-label": title,
        "aria-disabled": disabled || undefined,
      })}
      className={`flex cursor-pointer flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-12 text-center transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 ${
        disabled
          ? "cursor-not-allowed border-gray-200 bg-gray-50 opacity-60"
          : isDragActive
            ? "border-brand-500 bg-brand-50"
            : "border-gray-300 bg-white hover:border-brand-500 hover:bg-brand-50/40"
      }`}
    >
      <input {...getInputProps({ "aria-label": "Choose photos" })} />
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
        <UploadIcon className="h-7 w-7" />
      </span>
      <p className="mt-4 text-base font-semibold text-gray-900">{isDragActive ? "Drop your photos here" : title}</p>
      {hint ? <p className="mt-1 text-sm text-gray-600">{hint}</p> : null}
      {footnote ? <p className="mt-3 text-xs text-gray-500">{footnote}</p> : null}
    </div>
  );
}
