/**
 * The shapes of the JSON API's answers and bodies (docs/product.md §6): what the server's modules
 * build and what the browser's client (api-client.ts) reads. Types only, so the server imports
 * them without the browser's fetch client (docs/decisions/021).
 */
import type { BookType, Pricing } from "../core/catalog";
import type { DetailLevel } from "../core/engine-limits";

export type { Pricing };

export type ProcessingStatus = "pending" | "processing" | "completed" | "failed";

export interface BookDto {
  id: number;
  title: string;
  personalMessage: string | null;
  status: string;
  totalPages: number;
  /** The level every page without its own is drawn at. */
  detailLevel: DetailLevel;
  createdAt: string;
}

export interface ImageDto {
  id: number;
  bookId: number;
  originalFilename: string;
  originalUrl: string;
  sketchUrl: string | null;
  isSelected: boolean;
  /** Typed loosely on purpose: the preview page shows 'none' when the server sends nothing. */
  processingStatus: ProcessingStatus | null;
  qualityScore: number | null;
  fileSize: number;
  width: number | null;
  height: number | null;
  error: string | null;
  /** The level this page is drawn at (or being redrawn at): its own, else the book's. */
  detailLevel: DetailLevel;
  /** The page's own choice; null follows the book. */
  ownDetailLevel: DetailLevel | null;
  /** The level of the sketch at sketchUrl (null without one, or from before levels existed). */
  sketchDetailLevel: DetailLevel | null;
  createdAt: string;
}

/** PATCH /api/books/{id}/detail: the new level, how many pages it redraws, and every page now. */
export interface BookDetailChange {
  detailLevel: DetailLevel;
  redrawing: number;
  images: ImageDto[];
}

export interface BookProgress {
  processedImages: number;
  totalImages: number;
}

/** GET /api/get-stats: the landing page's counters (happyFamilies is shown as unique customers). */
export interface ShopStats {
  booksCreated: number;
  happyFamilies: number;
  photosConverted: number;
}

export interface QuoteResponse {
  success: boolean;
  pricing: Pricing;
  quoteId: string;
}

export interface OrderDto {
  id: number;
  orderNumber: string;
  estimatedDelivery: string | null;
  pricing: Pricing;
  paymentStatus: string;
  orderStatus: string;
}

export interface PaymentResult {
  orderId: number;
  orderNumber: string;
  paymentStatus: string;
  orderStatus: string;
  estimatedDelivery: string | null;
  pricing: Pricing;
  /** Present when the provider wants the buyer on its own checkout page. */
  checkoutUrl?: string;
}

// Free preview and upload tickets (docs/product.md §6).

export interface UploadTicket {
  /** Our own signed, expiring URL: PUT the file there, or name it as presignedUrl to upload-file. */
  url: string;
  key: string;
}

export interface UploadedFile {
  key: string;
  filename: string;
  size: number;
  width: number;
  height: number;
}

// Create book and payments (docs/product.md §6).

export interface BookDataInput {
  sessionId: string;
  bookType: BookType;
  title: string;
  customMessage?: string;
  quantity: number;
  nrPhotos: number;
  newsletterSignup: boolean;
  agreeToTerms: boolean;
}

export interface CheckoutAnswer {
  url: string;
  orderNumber: string;
  orderId: number;
}
