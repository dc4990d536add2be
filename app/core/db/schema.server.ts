/**
 * The one source of truth for the D1 data model (docs/design.md §3).
 * drizzle-kit generates migrations/ from this file; both Workers import it.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { BOOK_TYPES, type BookType, type Pricing } from "../catalog";
import { DETAIL_LEVELS, type DetailLevel } from "../engine-limits";

export { BOOK_TYPES, type BookType };

export const BOOK_STATUSES = ["draft", "processing", "ready", "ordered"] as const;
export const PROCESSING_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/**
 * `paying`: claimed by one payment attempt (a provider checkout is open). Only one order of a
 * book may be `paying` or `paid` at a time (a partial unique index below, not only code).
 */
export const PAYMENT_STATUSES = ["pending", "paying", "paid", "failed", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const ORDER_STATUSES = ["placed", "paid", "printing", "shipped", "cancelled"] as const;
export const CHECKOUT_STATUSES = ["open", "paid"] as const;

/**
 * Where an order stands with the print partner (decision 028); null while it has not been sent
 * (no PDF yet, or no partner: the manual desk). `sending`: claimed by one queue message while the
 * partner is asked; `needs-attention`: it could not be sent after every retry. The partner's
 * statuses move it on by rank (print-status.server.ts) and never back.
 */
export const PRINT_STATUSES = ["sending", "sent", "in-production", "shipped", "rejected", "cancelled", "needs-attention"] as const;
export type PrintStatus = (typeof PRINT_STATUSES)[number];
export const UPLOAD_STATUSES = ["ticketed", "uploaded", "converted", "failed"] as const;

/** The two emails an order sends: when it is paid, and when it is shipped (docs/product.md §12). */
/** `pdf-ready`: the link to the customer's own PDF, when it was made after the confirmation went out. */
export const ORDER_EMAIL_KINDS = ["order-confirmation", "order-shipped", "pdf-ready"] as const;
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number];
/**
 * `pending`: waiting for (another) delivery attempt; `sent`: the provider accepted it;
 * `outbox`: no provider key is set (local dev, tests), so it stays here for /admin to show;
 * `failed`: gave up after the last retry (shown on /admin).
 */
export const EMAIL_STATUSES = ["pending", "sent", "outbox", "failed"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

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
    /** The detail level every page of the book is drawn at, unless a page has its own. */
    detailLevel: text("detail_level", { enum: DETAIL_LEVELS }).notNull().default("standard"),
    createdAt: createdAt(),
    /**
     * When retention deleted a paid book's photos, sketches, print PDF and dedication (decision
     * 019); the row stays for its order until the order record itself is deleted.
     */
    filesDeletedAt: integer("files_deleted_at", { mode: "timestamp" }),
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
    /** When a processing run sent this image to the sketch queue; set by the statement that picks it. */
    queuedAt: integer("queued_at", { mode: "timestamp" }),
    /** This page's own detail level; null follows the book's. */
    detailLevel: text("detail_level", { enum: DETAIL_LEVELS }),
    /** How many times this image was sent to the sketch queue; bounds the stuck-image sweep. */
    processAttempts: integer("process_attempts").notNull().default(0),
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
 * (app/server/uploads/upload-tickets.server.ts). A row is a ticket first, then an uploaded original,
 * then (free preview) a converted one. Rows without a book are deleted after 24 hours.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    /** The owner: the signed cookie session. */
    sessionId: text("session_id").notNull(),
    /** The browser's own session id (docs/product.md §2), for display and support only; never decides ownership. */
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
    bookId: integer("book_id").references(() => books.id, { onDelete: "set null" }),
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

/** Free-preview uses, and the shop actions a script could repeat without end (decision 012). */
export const USAGE_ACTIONS = [
  "free-conversion",
  "free-ticket",
  "book",
  "quote",
  "upload",
  "process",
  "order-lookup",
  "upload-ticket",
  "book-data",
  "payment",
  "stored-bytes",
] as const;
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

/**
 * "Book data recorded" by the create-book page (docs/product.md §5.4, record-book-data), and the book
 * and order its checkout made. `sessionId` is the signed cookie session that owns it; the
 * browser's own display id is kept beside it.
 */
export const checkouts = sqliteTable(
  "checkouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id").notNull(),
    browserSessionId: text("browser_session_id"),
    bookType: text("book_type", { enum: BOOK_TYPES }).notNull(),
    title: text("title").notNull(),
    customMessage: text("custom_message"),
    quantity: integer("quantity").notNull().default(1),
    nrPhotos: integer("nr_photos").notNull(),
    newsletterSignup: integer("newsletter_signup", { mode: "boolean" }).notNull().default(false),
    agreeToTerms: integer("agree_to_terms", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    bookId: integer("book_id").references(() => books.id, { onDelete: "set null" }),
    orderId: integer("order_id"),
    /**
     * The create-checkout-session request that is making this checkout's book and order: claimed
     * before anything is written, so a second request (a double click) never makes a second book
     * or undoes the first one's links. A claim older than PAYMENT_CLAIM_STALE_SECONDS with no order
     * is a request that died, and may be taken over.
     */
    claimToken: text("claim_token"),
    claimedAt: integer("claimed_at", { mode: "timestamp" }),
    createdAt: createdAt(),
  },
  (t) => [index("checkouts_session_idx").on(t.sessionId), uniqueIndex("checkouts_book_idx").on(t.bookId)],
);

/**
 * Where the daily orphan sweep of each R2 prefix stopped (app/server/jobs/retention.server.ts): the
 * last key it listed, so the next run goes on from there; null starts at the prefix's first key.
 */
export const sweepCursors = sqliteTable("sweep_cursors", {
  prefix: text("prefix").primaryKey(),
  startAfter: text("start_after"),
  updatedAt: integer("updated_at", { mode: "timestamp" }).notNull().default(sql`(unixepoch())`),
});

// The price breakdown the API answers with is the one stored with quotes and orders.
export type { Pricing };

export const quotes = sqliteTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    /** Null for a create-book quote: it is priced before the checkout page asks for the address. */
    country: text("country"),
    zipCode: text("zip_code"),
    pricing: text("pricing", { mode: "json" }).$type<Pricing>().notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("quotes_book_idx").on(t.bookId)],
);

/**
 * One page an order pays for: a photo of the book, the level it is drawn at, and the drawing.
 * The sketch key names the original, the engine and the level (app/core/contracts/sketch.ts
 * sketchKeyFor), so it is the exact page the buyer saw; null for a page not drawn yet when paid
 * for (a create-book order, a page being redrawn), which prints as drawn at its level.
 */
export interface PrintPage {
  imageId: number;
  detailLevel: DetailLevel;
  sketchKey: string | null;
}

export interface CustomerInfo {
  firstName: string;
  lastName: string;
  email: string;
  address1: string;
  address2?: string;
  city: string;
  zipCode: string;
  country: string;
  /** For the carrier; absent on orders placed before the delivery form asked (decision 032). */
  phone?: string;
  /** The state or province code of a US or Canadian address (decision 032). */
  stateCode?: string;
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
    /** Null until known: a create-book order gets its delivery address from the checkout page. */
    customerInfo: text("customer_info", { mode: "json" }).$type<CustomerInfo>(),
    pricing: text("pricing", { mode: "json" }).$type<Pricing>().notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    orderStatus: text("order_status", { enum: ORDER_STATUSES }).notNull().default("placed"),
    paymentMethod: text("payment_method"),
    estimatedDelivery: text("estimated_delivery"),
    /** The provider's checkout of the current payment attempt, its page, and when it closes. */
    paymentSessionId: text("payment_session_id"),
    paymentUrl: text("payment_url"),
    paymentExpiresAt: integer("payment_expires_at", { mode: "timestamp" }),
    /** Counts payment attempts: each gets its own provider idempotency key. */
    paymentAttempt: integer("payment_attempt").notNull().default(0),
    /** When the current attempt claimed the order (`paying`), before the provider was called. */
    paymentClaimedAt: integer("payment_claimed_at", { mode: "timestamp" }),
    /**
     * The pages the current payment attempt pays for, in print order, recorded when it claimed the
     * order (decision 018); the print job prints these. Null on orders claimed before they were
     * recorded: their print follows the book's selection, frozen since they were paid.
     */
    printPages: text("print_pages", { mode: "json" }).$type<PrintPage[]>(),
    createdAt: createdAt(),
    paidAt: integer("paid_at", { mode: "timestamp" }),
    /** The print-ready PDF in R2 (print/<orderNumber>.pdf), set by the sketch Worker's print job. */
    pdfKey: text("pdf_key"),
    pdfReadyAt: integer("pdf_ready_at", { mode: "timestamp" }),
    /** Fulfilment, set from the orders desk (/admin). */
    sentToPrintAt: integer("sent_to_print_at", { mode: "timestamp" }),
    shippedAt: integer("shipped_at", { mode: "timestamp" }),
    trackingNumber: text("tracking_number"),
    refundedAt: integer("refunded_at", { mode: "timestamp" }),
    /** The print partner's job (decision 028): which partner, its job id, where it stands. */
    printPartner: text("print_partner"),
    printJobId: text("print_job_id"),
    printStatus: text("print_status", { enum: PRINT_STATUSES }),
    /** The partner's time of the last status applied: an older webhook body changes nothing. */
    printStatusChangedAt: integer("print_status_changed_at", { mode: "timestamp" }),
    /** The partner's reason for a rejection or cancellation, for the desk; never shown to customers. */
    printStatusDetail: text("print_status_detail"),
    /** Counts jobs sent for this order: a job after a rejection gets a new external id. */
    printAttempt: integer("print_attempt").notNull().default(0),
    /** When the current `sending` claim was taken: a claim older than the partner's timeout is stale. */
    printClaimedAt: integer("print_claimed_at", { mode: "timestamp" }),
    carrier: text("carrier"),
    trackingUrl: text("tracking_url"),
    /**
     * The cover's size in points as the print partner gave it for the product and page count
     * (Lulu's /cover-dimensions/); null: the size our own specification gives (decision 028).
     */
    coverWidthPt: real("cover_width_pt"),
    coverHeightPt: real("cover_height_pt"),
  },
  (t) => [
    uniqueIndex("orders_order_number_idx").on(t.orderNumber),
    index("orders_print_job_idx").on(t.printJobId),
    // One order per quote: a double-submitted order form finds the order it already made.
    uniqueIndex("orders_quote_idx").on(t.quoteId),
    uniqueIndex("orders_payment_session_idx").on(t.paymentSessionId),
    index("orders_book_idx").on(t.bookId),
    // A book is paid for at most once, and only one attempt at a time may be under way: the
    // database refuses a second `paying` or `paid` order of a book, whatever the code does.
    uniqueIndex("orders_one_payment_per_book_idx")
      .on(t.bookId)
      .where(sql`payment_status IN ('paying', 'paid')`),
  ],
);

/**
 * Every provider checkout session opened for an order, one row per session, written when the
 * provider answers. A payment confirmation is accepted only for a session listed here for its
 * order: any other completed session on the same provider account (a Payment Link, another
 * integration) that names the order and its amount pays for nothing (docs/decisions/026).
 */
export const paymentSessions = sqliteTable(
  "payment_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** pagesDigest of the pages the session was opened for; null on sessions opened before it was kept. */
    pagesDigest: text("pages_digest"),
    createdAt: createdAt(),
  },
  (t) => [index("payment_sessions_order_idx").on(t.orderId)],
);

/**
 * The order emails, written in the same D1 batch as the change that causes them (paid, shipped),
 * so an email is never lost when its delivery fails: delivery is retried from here.
 */
export const orderEmails = sqliteTable(
  "order_emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ORDER_EMAIL_KINDS }).notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    textBody: text("text_body").notNull(),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp" }),
    /** The provider's last refusal, for the desk; never shown to customers. */
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    /** Until when the link to the customer's own PDF in this email works; null: it carries none. */
    pdfLinkUntil: integer("pdf_link_until", { mode: "timestamp" }),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp" }),
  },
  (t) => [
    // One email of each kind per order: a redelivered webhook or a double click sends nothing twice.
    uniqueIndex("order_emails_order_kind_idx").on(t.orderId, t.kind),
    index("order_emails_status_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * Why a payment did not make its order paid, or was one payment too many (decision 018): money that
 * arrived and must be refunded or looked at by staff, so the orders desk lists it.
 * `pages-changed`: the book's pages are not the ones the payment was for; `amount-mismatch`: the
 * amount or currency is not the order's; `paid-twice`: the book was already paid for;
 * `unknown-session`: a session this shop never opened for the order (decision 026);
 * `no-address`: a create-book order paid without a delivery address: paid, but held back from
 * print until staff have an address (decision 026).
 */
export const PAYMENT_PROBLEM_KINDS = ["pages-changed", "amount-mismatch", "paid-twice", "unknown-session", "no-address"] as const;
export type PaymentProblemKind = (typeof PAYMENT_PROBLEM_KINDS)[number];

export const paymentProblems = sqliteTable(
  "payment_problems",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Null once the order is gone (retention): the money still has to be given back. */
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** Kept with the row, so the desk can name the order whatever happens to it. */
    orderNumber: text("order_number").notNull(),
    /** The provider's checkout session the money came through: what staff refund. */
    sessionId: text("session_id").notNull(),
    kind: text("kind", { enum: PAYMENT_PROBLEM_KINDS }).notNull(),
    amount: integer("amount"),
    currency: text("currency"),
    /** What was found, for the desk; never shown to customers. */
    detail: text("detail").notNull(),
    createdAt: createdAt(),
    /** Set from the desk once the payment was refunded by hand. */
    refundedAt: integer("refunded_at", { mode: "timestamp" }),
  },
  (t) => [
    // One row per payment: a redelivered webhook records nothing twice.
    uniqueIndex("payment_problems_session_idx").on(t.sessionId),
    index("payment_problems_order_idx").on(t.orderId),
  ],
);

/**
 * The local test printer's jobs (decision 028): what the partner would hold, kept in D1 so that
 * `npm run dev` and the tests can play the partner's part. Never used when a real partner is set.
 */
export const localPrintJobs = sqliteTable("local_print_jobs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Our external id (the order number, with a suffix after a rejection): one job each. */
  externalId: text("external_id").notNull().unique(),
  orderNumber: text("order_number").notNull(),
  /** The partner's status names (Lulu's: CREATED, IN_PRODUCTION, SHIPPED ...). */
  status: text("status").notNull(),
  /** The job as it was sent (files, address, quantity), for the test printer's page. */
  request: text("request", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  trackingId: text("tracking_id"),
  createdAt: createdAt(),
});

export type Book = typeof books.$inferSelect;
export type Image = typeof images.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
export type UsageCount = typeof usageCounts.$inferSelect;
export type Checkout = typeof checkouts.$inferSelect;
export type Quote = typeof quotes.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type OrderEmail = typeof orderEmails.$inferSelect;
export type PaymentProblem = typeof paymentProblems.$inferSelect;
export type PaymentSession = typeof paymentSessions.$inferSelect;
export type SweepCursor = typeof sweepCursors.$inferSelect;
export type LocalPrintJob = typeof localPrintJobs.$inferSelect;
