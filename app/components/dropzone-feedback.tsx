/**
 * What a drop zone tells the visitor under itself (docs/product.md §8, the file-drop messages):
 * react-dropzone's own message for each file it refused ('File type must be ...', 'File is larger
 * than N bytes'), 'Too many files' once for a drop over the limit, and, when the file dialog closed
 * with nothing chosen, that nothing was. react-dropzone notices that close FILE_DIALOG_CANCEL_MS
 * (FILE_DIALOG_CANCEL_MS, docs/product.md §8) after the window has its focus back with no file in the input.
 */
import { useState } from "react";
import { useDropzone, type DropzoneOptions, type FileRejection } from "react-dropzone";
import { DROPZONE_TEXT } from "~/lib/customer-copy";

/** react-dropzone's messages for a drop, each once, named by file where it is about one file. */
export function rejectionMessages(rejections: readonly FileRejection[]): string[] {
  const lines: string[] = [];
  for (const { file, errors } of rejections) {
    for (const error of errors) {
      // A drop over the limit refuses every file with the same error: one line says it.
      const line = error.code === "too-many-files" ? error.message : `${file.name}: ${error.message}`;
      if (!lines.includes(line)) lines.push(line);
    }
  }
  return lines;
}

/** useDropzone, plus the lines its zone shows: the last drop's refusals, or a cancelled dialog. */
export function useDropzoneWithFeedback(options: DropzoneOptions) {
  const [dialogCancelled, setDialogCancelled] = useState(false);
  const dropzone = useDropzone({
    ...options,
    onDrop: (accepted, rejected, event) => {
      setDialogCancelled(false);
      options.onDrop?.(accepted, rejected, event);
    },
    onFileDialogOpen: () => setDialogCancelled(false),
    onFileDialogCancel: () => setDialogCancelled(true),
  });
  const messages = dialogCancelled ? [DROPZONE_TEXT.nothingChosen] : rejectionMessages(dropzone.fileRejections);
  return { ...dropzone, messages };
}

/**
 * The lines under a zone, in a polite live region that is always in the page (a region added
 * together with its text is not announced).
 */
export function DropzoneFeedback({ id, messages }: { id: string; messages: string[] }) {
  return (
    <div id={id} role="status" data-testid="dropzone-feedback" className="text-sm text-red-700">
      {messages.length > 0 ? (
        <ul className="mt-2 space-y-0.5">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
