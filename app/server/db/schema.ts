/**
 * The one source of truth for the D1 data model (DESIGN.md section 3).
 * drizzle-kit generates migrations/ from this file; both Workers import it.
 */
import { sql } from "drizzle-orm";
import type { Pricing } from "../../lib/api-client";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const BOOK_TYPES = ["standard", "premium"] as const;
export type BookType = (typeof BOOK_TYPES)[number];

export const BOOK_STATUSES = ["draft", "processing", "ready", "ordered"] as const;
export const PROCESSING_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

export const PAYMENT_STATUSES = ["pending", "paid", "failed", "refunded"] as const;
export const ORDER_STATUSES = ["placed", "paid", "printing", "shipped", "cancelled"] as const;
export const CHECKOUT_STATUSES = ["open", "paid", "cancelled", "expired"] as const;
export const UPLOAD_STATUSES = ["ticketed", "uploaded", "converted", "failed"] as const;

const createdAt = () =>
  integer("created_at", { mode: "timestamp" }).notNull().default(sql`(unixepoch())`);

export const books = sqliteTable(
  "books",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id").notNull(),
    title: text("title").notNull(),
    personalMessage: text("personal_message"),
    bookType: text("book_type", { enum: BOOK_TYPES }),
    status: text("status", { enum: BOOK_STATUSES }).notNull().default("draft"),
    totalPages: integer("total_pages").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("books_session_idx").on(t.sessionId)],
);

export const images = sqliteTable(
  "images",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    originalFilename: text("original_filename").notNull(),
    originalKey: text("original_key").notNull(),
    sketchKey: text("sketch_key"),
    isSelected: integer("is_selected", { mode: "boolean" }).notNull().default(false),
    processingStatus: text("processing_status", { enum: PROCESSING_STATUSES })
      .notNull()
      .default("pending"),
    qualityScore: integer("quality_score"),
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    width: integer("width"),
    height: integer("height"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("images_book_idx").on(t.bookId),
    uniqueIndex("images_original_key_idx").on(t.originalKey),
    index("images_sketch_key_idx").on(t.sketchKey),
  ],
);

/**
 * Presigned-ticket uploads of the free preview and the create-book page
 * (app/server/upload-tickets.server.ts). A row is a ticket first, then an uploaded original,
 * then (free preview) a converted one. Rows without a book are deleted after 24 hours.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    /** The owner: the signed cookie session. */
    sessionId: text("session_id").notNull(),
    /** SPEC's browser-side session id, for display and support only; never decides ownership. */
    browserSessionId: text("browser_session_id"),
    bookType: text("book_type", { enum: BOOK_TYPES }),
    filename: text("filename"),
    size: integer("size"),
    mimeType: text("mime_type"),
    width: integer("width"),
    height: integer("height"),
    sketchKey: text("sketch_key"),
    /** Set when the conversion stored debug planes: the key they are named after (debugKeysFor). */
    debugKey: text("debug_key"),
    status: text("status", { enum: UPLOAD_STATUSES }).notNull().default("ticketed"),
    /** Customer-facing reason of a failed conversion. */
    error: text("error"),
    /** Set when a checkout turns this upload into a book image; such rows are never cleaned up. */
    bookId: integer("book_id").references(() => books.id),
    /** HMAC of the client address (never the address itself), for the per-address limits. */
    clientHash: text("client_hash"),
    /** When the ticket stops accepting an upload (null only on rows older than tickets). */
    expiresAt: integer("expires_at", { mode: "timestamp" }),
    convertedAt: integer("converted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("uploads_session_idx").on(t.sessionId),
    index("uploads_created_idx").on(t.createdAt),
    index("uploads_book_idx").on(t.bookId),
  ],
);

export const USAGE_ACTIONS = ["free-conversion", "free-ticket"] as const;
export type UsageAction = (typeof USAGE_ACTIONS)[number];

/**
 * Daily counters behind the free preview's abuse limits: one row per action, subject (a cookie
 * session or a hashed client address) and UTC day, bumped by one guarded upsert.
 */
export const usageCounts = sqliteTable(
  "usage_counts",
  {
    action: text("action", { enum: USAGE_ACTIONS }).notNull(),
    subject: text("subject").notNull(),
    day: text("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.action, t.subject, t.day] }), index("usage_counts_day_idx").on(t.day)],
);

/** "Book data recorded" by the create-book page, and its payment session. */
export const checkouts = sqliteTable(
  "checkouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id").notNull(),
    bookType: text("book_type", { enum: BOOK_TYPES }).notNull(),
    title: text("title").notNull(),
    customMessage: text("custom_message"),
    quantity: integer("quantity").notNull().default(1),
    nrPhotos: integer("nr_photos").notNull(),
    newsletterSignup: integer("newsletter_signup", { mode: "boolean" }).notNull().default(false),
    agreeToTerms: integer("agree_to_terms", { mode: "boolean" }).notNull().default(false),
    paymentSessionId: text("payment_session_id"),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    amountTotal: integer("amount_total"),
    currency: text("currency"),
    createdAt: createdAt(),
    paidAt: integer("paid_at", { mode: "timestamp" }),
  },
  (t) => [
    index("checkouts_session_idx").on(t.sessionId),
    uniqueIndex("checkouts_payment_session_idx").on(t.paymentSessionId),
  ],
);

// The price breakdown the API answers with is the one stored with quotes and orders.
export type { Pricing };

export const quotes = sqliteTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    country: text("country").notNull(),
    zipCode: text("zip_code").notNull(),
    pricing: text("pricing", { mode: "json" }).$type<Pricing>().notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("quotes_book_idx").on(t.bookId)],
);

export interface CustomerInfo {
  firstName: string;
  lastName: string;
  email: string;
  address1: string;
  address2?: string;
  city: string;
  zipCode: string;
  country: string;
}

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    quoteId: text("quote_id").references(() => quotes.id),
    orderNumber: text("order_number").notNull(),
    customerInfo: text("customer_info", { mode: "json" }).$type<CustomerInfo>().notNull(),
    pricing: text("pricing", { mode: "json" }).$type<Pricing>().notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    orderStatus: text("order_status", { enum: ORDER_STATUSES }).notNull().default("placed"),
    paymentMethod: text("payment_method"),
    estimatedDelivery: text("estimated_delivery"),
    paymentSessionId: text("payment_session_id"),
    createdAt: createdAt(),
    paidAt: integer("paid_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("orders_order_number_idx").on(t.orderNumber),
    // One order per quote: a double-submitted order form finds the order it already made.
    uniqueIndex("orders_quote_idx").on(t.quoteId),
    index("orders_book_idx").on(t.bookId),
  ],
);

export type Book = typeof books.$inferSelect;
export type Image = typeof images.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
export type UsageCount = typeof usageCounts.$inferSelect;
export type Checkout = typeof checkouts.$inferSelect;
export type Quote = typeof quotes.$inferSelect;
export type Order = typeof orders.$inferSelect;
