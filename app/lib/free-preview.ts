/**
 * Browser-side rules of the free preview (docs/product.md §5.2): which file the drop zone
 * takes, what each failure is called, and the once-per-browser flag.
 */
import type { FileRejection } from "react-dropzone";
import { ApiError } from "./api-client";
import { FREE_PREVIEW_USED_KEY } from "./browser-session";
import { MAX_UPLOAD_BYTES } from "./shop-rules";
import { MESSAGES, PREVIEW_MESSAGES } from "./customer-copy";

/** docs/product.md §5.2: the drop zone itself accepts jpeg, jpg, png and webp, one file. */
export const PREVIEW_DROPZONE_ACCEPT = {
  "image/jpeg": [".jpg", ".jpeg"],
  "image/png": [".png"],
  "image/webp": [".webp"],
};

export interface Notice {
  title: string;
  description: string;
}

/** Why the drop zone refused what it was given, or null when there is one acceptable file. */
export function refusalOf(accepted: File[], rejected: FileRejection[]): Notice | null {
  if (accepted.length + rejected.length > 1 || rejected.some((r) => r.errors.some((e) => e.code === "too-many-files"))) {
    return { title: PREVIEW_MESSAGES.multipleFilesTitle, description: MESSAGES.onlyOneImage };
  }
  const [refused] = rejected;
  if (refused) {
    if (refused.errors.some((e) => e.code === "file-invalid-type")) {
      return { title: PREVIEW_MESSAGES.invalidFileTypeTitle, description: MESSAGES.unsupportedPreviewUpload(refused.file.name) };
    }
    return { title: MESSAGES.previewTooLargeTitle, description: MESSAGES.previewTooLarge };
  }
  if (accepted.length === 0) return null;
  if (accepted[0].size > MAX_UPLOAD_BYTES) return { title: MESSAGES.previewTooLargeTitle, description: MESSAGES.previewTooLarge };
  return null;
}

/** docs/product.md §5.2, 'Conversion Failed'. */
export function conversionFailure(error: unknown): Notice {
  const text = error instanceof Error ? error.message : String(error);
  let description: string;
  if (text.includes("413") || /too large/i.test(text)) description = PREVIEW_MESSAGES.conversionTooLarge;
  else if (error instanceof ApiError) description = PREVIEW_MESSAGES.conversionServerError(error.serverMessage ?? text);
  else description = PREVIEW_MESSAGES.conversionTryAnother;
  return { title: PREVIEW_MESSAGES.conversionFailedTitle, description };
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

export function freePreviewUsed(): boolean {
  try {
    return window.localStorage.getItem(FREE_PREVIEW_USED_KEY) === "true";
  } catch {
    return false;
  }
}

export function markFreePreviewUsed(): void {
  try {
    window.localStorage.setItem(FREE_PREVIEW_USED_KEY, "true");
  } catch {
    // Private mode without storage: the server's daily limits still apply.
  }
}
