/**
 * The browser's one way to talk to the shop's JSON API (docs/product.md §6).
 *
 * Every call sends credentials (the signed session cookie owns books, images, quotes and
 * orders). A non-ok answer becomes an `ApiError` whose text is '{status}: {body text}' (the
 * status text when the body is empty); toasts show the server's JSON `message` through
 * `apiErrorMessage`, falling back to the caller's default (docs/product.md §5). No retries.
 * The shapes of the answers are api-types.ts, which the server imports too.
 */
import type { BookType } from "../core/catalog";
import type { DetailLevel } from "../core/engine-limits";
import type {
  BookDataInput,
  BookDetailChange,
  BookDto,
  BookProgress,
  CheckoutAnswer,
  ImageDto,
  OrderDto,
  PaymentResult,
  QuoteResponse,
  ShopStats,
  UploadedFile,
  UploadTicket,
} from "./api-types";
import type { BookDetailRequest, BookFormInput, DeliveryFormInput, PageDetailRequest } from "./schemas";
import type { DeliveryCountry } from "./shop-rules";

export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.statusText = statusText;
    this.bodyText = bodyText;
  }

  /** The `message` field of a JSON error body, if the server sent one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === "object" && "message" in parsed) {
        const { message } = parsed as { message: unknown };
        if (typeof message === "string" && message.trim() !== "") return message;
      }
    } catch {
      // Not JSON: the caller's default message is shown instead.
    }
    return undefined;
  }
}

/** What a toast shows for a failed call: the server's message when present, else the default. */
export function apiErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, credentials: "include" });
  if (!response.ok) {
    const bodyText = await response.text().catch(() => "");
    throw new ApiError(response.status, response.statusText, bodyText);
  }
  return (await response.json()) as T;
}

function sendJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  return request<T>(path, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export function createBook(input: BookFormInput): Promise<BookDto> {
  return sendJson("POST", "/api/books", input);
}

export function getShopStats(): Promise<ShopStats> {
  return request("/api/get-stats", { headers: { Accept: "application/json" } });
}

export function listBookImages(bookId: number): Promise<ImageDto[]> {
  return request(`/api/books/${bookId}/images`, { headers: { Accept: "application/json" } });
}

/** One multipart request; callers send a few files at a time so a phone never posts one giant body. */
export function uploadBookImages(bookId: number, files: File[]): Promise<{ images: ImageDto[] }> {
  const body = new FormData();
  for (const file of files) body.append("images", file, file.name);
  return request(`/api/books/${bookId}/images`, { method: "POST", body });
}

export function startBookProcessing(bookId: number): Promise<{ queued: number }> {
  return sendJson("POST", `/api/books/${bookId}/process`);
}

export function getBookProgress(bookId: number): Promise<BookProgress> {
  return request(`/api/books/${bookId}/progress`, { headers: { Accept: "application/json" } });
}

export function setImageSelection(imageId: number, isSelected: boolean): Promise<ImageDto> {
  return sendJson("PATCH", `/api/images/${imageId}/selection`, { isSelected });
}

export function setBookDetailLevel(bookId: number, detailLevel: DetailLevel): Promise<BookDetailChange> {
  return sendJson("PATCH", `/api/books/${bookId}/detail`, { detailLevel } satisfies BookDetailRequest);
}

/** null: the page follows the book's level again. */
export function setPageDetailLevel(imageId: number, detailLevel: DetailLevel | null): Promise<ImageDto> {
  return sendJson("PATCH", `/api/images/${imageId}/detail`, { detailLevel } satisfies PageDetailRequest);
}

/** A failed photo goes back into the queue. */
export function retryImage(imageId: number): Promise<ImageDto> {
  return sendJson("POST", `/api/images/${imageId}/retry`);
}

export function requestQuote(
  bookId: number,
  deliveryAddress: { country: DeliveryCountry; zipCode: string },
): Promise<QuoteResponse> {
  return sendJson("POST", `/api/books/${bookId}/quote`, { deliveryAddress });
}

export function createOrder(input: {
  bookId: number;
  quoteId: string;
  deliveryInfo: DeliveryFormInput;
  paymentMethod: "card";
}): Promise<OrderDto> {
  return sendJson("POST", "/api/orders", input);
}

export function payForOrder(orderId: number, paymentMethod: "card"): Promise<PaymentResult> {
  return sendJson("POST", `/api/orders/${orderId}/payment`, { paymentMethod, paymentDetails: {} });
}

// Free preview and upload tickets (docs/product.md §6).

/** GET /api/upload-complete: `count` tickets; bookType only on the create-book page. */
export async function requestUploadTickets(
  count: number,
  sessionId: string,
  bookType?: "standard" | "premium",
): Promise<UploadTicket[]> {
  const query = new URLSearchParams({ count: String(count), sessionId });
  if (bookType) query.set("bookType", bookType);
  const answer = await request<{ data: { urls: UploadTicket[] } }>(`/api/upload-complete?${query}`, {
    headers: { Accept: "application/json" },
  });
  return answer.data.urls;
}

// Create book and payments (docs/product.md §6).

/**
 * PUT one file to its ticket URL, as to an S3 presigned URL, reporting upload progress (fetch
 * cannot). A failure is an ApiError carrying the status text the page's message shows.
 */
export function putFileToTicket(ticket: UploadTicket, file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", ticket.url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.setRequestHeader("X-Filename", encodeURIComponent(file.name));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadedFile);
        } catch {
          reject(new ApiError(xhr.status, "Unreadable answer", xhr.responseText));
        }
      } else {
        reject(new ApiError(xhr.status, xhr.statusText || "Upload failed", xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, "Network error", ""));
    xhr.send(file);
  });
}

export function recordBookData(input: BookDataInput): Promise<{ success: boolean; checkoutId: number }> {
  return sendJson("POST", "/api/record-book-data", input);
}

export function createCheckoutSession(input: {
  bookType: BookType;
  quantity: number;
  title: string;
  customMessage?: string;
  filesCount: number;
  sessionId: string;
  newsletterSignup: boolean;
  agreeToTerms: boolean;
  uploadKeys: string[];
  checkoutId?: number;
}): Promise<CheckoutAnswer> {
  return sendJson("POST", "/api/create-checkout-session", input);
}

export function retryPayment(input: {
  sessionId: string;
  bookType: BookType;
  title: string;
  filesCount: number;
  quantity: number;
  checkoutId?: number;
}): Promise<CheckoutAnswer> {
  return sendJson("POST", "/api/retry-payment", input);
}

/** POST /api/upload-file: the file as a data URL to the ticket's URL. */
export function uploadFileToTicket(imageData: string, presignedUrl: string, filename: string): Promise<UploadedFile> {
  return sendJson("POST", "/api/upload-file", { imageData, presignedUrl, filename });
}

/** POST /api/convert-image: the uploaded file's key → data.convertedImageUrl. */
export function convertUploadedImage(key: string): Promise<{ data: { convertedImageUrl?: string } }> {
  return sendJson("POST", "/api/convert-image", { id: key });
}

/** GET /api/debug-files: the timestamp naming the caller's last debug images, or null. */
export function getDebugFiles(): Promise<{ latest: number | null }> {
  return request("/api/debug-files", { headers: { Accept: "application/json" } });
}

/** The /debug/ image of one plane of that conversion. */
export function debugImageUrl(plane: "image" | "mask" | "sketch", latest: number): string {
  return `/debug/debug-${plane}-${latest}.png`;
}
