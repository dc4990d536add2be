/**
 * Which of the files a visitor adds on the create-book page go into the book (docs/product.md §5.4):
 * at most 50 in all (else the whole addition is refused), JPEG/PNG/GIF/BMP/WebP only, 15 MB
 * each; invalid files are skipped with a message each. Pure, so the rules are tested alone.
 */
import { ACCEPTED_PREVIEW_TYPES, MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES } from "./shop-rules";
import { CREATE_BOOK_MESSAGES } from "./customer-copy";

export interface PhotoProblem {
  title: string;
  description: string;
}

export interface PhotoSelection {
  accepted: File[];
  problems: PhotoProblem[];
}

/** Some systems leave `type` empty (a .bmp on Windows): then the name's extension decides. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  bmp: "image/bmp",
  webp: "image/webp",
};

export function photoType(file: Pick<File, "name" | "type">): string {
  if (file.type) return file.type === "image/x-ms-bmp" ? "image/bmp" : file.type;
  return TYPE_BY_EXTENSION[file.name.split(".").pop()?.toLowerCase() ?? ""] ?? "";
}

export function selectNewPhotos(currentCount: number, files: File[]): PhotoSelection {
  if (currentCount + files.length > MAX_PHOTOS_PER_BOOK) {
    return {
      accepted: [],
      problems: [{ title: CREATE_BOOK_MESSAGES.tooManyFilesTitle, description: CREATE_BOOK_MESSAGES.tooManyFiles(currentCount, files.length) }],
    };
  }
  const accepted: File[] = [];
  const problems: PhotoProblem[] = [];
  for (const file of files) {
    if (!(ACCEPTED_PREVIEW_TYPES as readonly string[]).includes(photoType(file))) {
      problems.push({ title: CREATE_BOOK_MESSAGES.invalidFileTypeTitle, description: CREATE_BOOK_MESSAGES.invalidFileType(file.name) });
    } else if (file.size > MAX_UPLOAD_BYTES) {
      problems.push({ title: CREATE_BOOK_MESSAGES.imageTooLargeTitle, description: CREATE_BOOK_MESSAGES.imageTooLarge(file.name) });
    } else {
      accepted.push(file);
    }
  }
  return { accepted, problems };
}
