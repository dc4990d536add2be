/**
 * The shop's rules as numbers (docs/decisions/021): prices and plans, the limits of a book and an
 * upload, abuse limits, retention periods, payment and email timings, and the timings of
 * the pages (docs/product.md §8). Import from here; never retype a number elsewhere.
 * Prices are in minor units (pence) so no float ever touches money.
 */
import { type BookType } from "../core/catalog";

export const CURRENCY = "GBP";

export const MB = 1024 * 1024;
export const MAX_UPLOAD_BYTES = 15 * MB;
export const MAX_PHOTOS_PER_BOOK = 50;
export const MAX_TITLE_LENGTH = 100;
export const MAX_PERSONAL_MESSAGE_LENGTH = 500;
export const MAX_CUSTOM_MESSAGE_LENGTH = 2000;
export const EXTRA_PAGES = 2; // title page + dedication page around the selected sketches
export const FREE_PREVIEWS_PER_BROWSER = 1;
export const HIGH_QUALITY_SCORE = 90;

export const POLL_INTERVAL_MS = 2000;
export const FAKE_PROGRESS_STEP = 10;
export const FAKE_PROGRESS_CAP = 90;
export const FAKE_PROGRESS_TICK_MS = 200;
export const TOAST_DURATION_MS = 5000;
/** docs/product.md §5.1: the before/after comparison starts at 50 % and is 320 px high by default. */
export const COMPARISON_START_PERCENT = 50;
export const COMPARISON_DEFAULT_HEIGHT_PX = 320;
export const QUOTE_TTL_SECONDS = 30 * 60;

export const DELIVERY_COUNTRIES = ["US", "CA", "UK", "AU"] as const;
export type DeliveryCountry = (typeof DELIVERY_COUNTRIES)[number];

/**
 * The print partner needs a state or province code for a US or Canadian address (docs/decisions/032):
 * the USPS codes of the states, DC and the territories Lulu ships to by mail, and Canada Post's
 * province and territory codes.
 */
export const STATE_CODES: Partial<Record<DeliveryCountry, readonly string[]>> = {
  US: [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
    "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI",
    "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "PR", "GU", "VI", "AS", "MP", "AA", "AE", "AP",
  ],
  CA: ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"],
};

/** A phone number the carrier can call: 7 to 15 digits (E.164 allows 15), spaces and + ( ) - . around them. */
export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;

export const PAYMENT_METHODS = ["card"] as const;
export const MIN_QUANTITY = 1;
/** The brief showed no upper bound (docs/product.md §3); this one only stops a typo from ordering 10,000 books. */
export const MAX_QUANTITY = 100;

export interface PlanDetails {
  name: string;
  price: number;
  oldPrice: number;
  paper: string;
  binding: string;
  minPhotos: number;
  maxPhotos: number;
}

export const PLANS: Record<BookType, PlanDetails> = {
  standard: {
    name: "Standard Book",
    price: 1999,
    oldPrice: 2599,
    paper: "115 GSM",
    binding: "Paperback",
    minPhotos: 5,
    maxPhotos: 15,
  },
  premium: {
    name: "Premium Book",
    price: 2599,
    oldPrice: 2999,
    paper: "170 GSM bond",
    binding: "Hardcover",
    minPhotos: 16,
    maxPhotos: 50,
  },
};

/** A book made through /book/{id} without a chosen plan is priced as a standard book. */
export const DEFAULT_BOOK_TYPE: BookType = "standard";
/** The "AI processing fee" line of a quote: included in the book price. */
export const PROCESSING_FEE = 0;
/** Shipping is free to every delivery country (docs/product.md §3). */
export const SHIPPING_FEE = 0;

export const BOOK_PAGES_ADVERTISED = 50;
export const DELIVERY_MAX_BUSINESS_DAYS = 15;

export const ACCEPTED_BOOK_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const ACCEPTED_PREVIEW_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/bmp",
  "image/webp",
] as const;
/**
 * docs/product.md §8: a file dialog closed with nothing chosen is noticed 300 ms after the window has
 * its focus back. react-dropzone waits exactly this long and cannot be told otherwise; the browser
 * test holds it to this number.
 */
export const FILE_DIALOG_CANCEL_MS = 300;

// Landing page
/** GET /api/get-stats may be a minute old (the Workers cache, the edge and browsers keep it). */
export const STATS_CACHE_MAX_AGE_SECONDS = 60;
/** docs/product.md §5.1: six quotes, three a page, two pages; five gallery sketches. */
export const TESTIMONIALS_PER_PAGE = 3;
export const GALLERY_EXAMPLE_COUNT = 5;

// Create book and payments (docs/product.md §5.4-§5.6, §8)
/** Stripe accepts a Checkout Session's expires_at from 30 minutes to 24 hours after it creates the session. */
export const STRIPE_CHECKOUT_MIN_TTL_SECONDS = 30 * 60;
export const STRIPE_CHECKOUT_MAX_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a checkout of the provider stays open: Stripe's minimum and 5 minutes. expires_at is
 * counted from our clock when the request began and checked against Stripe's when it creates the
 * session; D1 round trips, a retried call (20 s each) and clock skew lie between, and exactly 30
 * minutes would be refused.
 */
export const CHECKOUT_TTL_SECONDS = STRIPE_CHECKOUT_MIN_TTL_SECONDS + 5 * 60;
/** A claimed payment whose provider call never came back is released after this long. */
export const PAYMENT_CLAIM_STALE_SECONDS = 2 * 60;
export const SUCCESS_PENDING_MS = 1000;
export const STOCK_PHOTO_DELAY_MS = 1000;

// Free preview
/** A presigned upload ticket (GET /api/upload-complete) can be used for this long. */
export const UPLOAD_TICKET_TTL_SECONDS = 60 * 60;
/** Free-preview uploads (not part of a book) and their sketches are deleted after this. */
export const FREE_PREVIEW_RETENTION_HOURS = 24;
/**
 * Daily caps (per UTC day) that stop the free preview being scripted into a free sketch
 * service. Each visitor gets FREE_PREVIEWS_PER_BROWSER in the browser; the server allows a few
 * more per cookie session (a retry after a failure, a second tab) and per client address (a
 * household behind one router).
 */
export const FREE_CONVERSIONS_PER_DAY_PER_SESSION = 5;
export const FREE_CONVERSIONS_PER_DAY_PER_ADDRESS = 5;
/** Tickets minted without a book type (the free preview asks for one at a time). */
export const FREE_TICKETS_PER_DAY_PER_SESSION = 20;
export const FREE_TICKETS_PER_DAY_PER_ADDRESS = 20;
/** The free preview's result is the page's main picture: taller than the landing page's comparison. */
export const PREVIEW_COMPARISON_HEIGHT_PX = 420;
/** The base64 of a 15 MB file plus the JSON around it: the cap of POST /api/upload-file. */
export const MAX_UPLOAD_FILE_BODY_BYTES = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 64 * 1024;

/** docs/product.md §5: a tooltip opens after 700 ms, or at once within 300 ms of another closing. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** docs/product.md §5: a toast dragged more than 50 px to the right is dismissed. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** docs/product.md §5: one toast at a time (a new one replaces the one showing), F8 focuses them. */
export const TOAST_LIMIT = 1;
export const TOAST_HOTKEY = "F8";
/** docs/product.md §5: a dismissed toast is dropped from the list 1,000,000 ms later. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** The cheapest book, for "from £19.99" texts. */
export const LOWEST_BOOK_PRICE = Math.min(...Object.values(PLANS).map((plan) => plan.price));

// Abuse limits of the shop's own actions (docs/decisions/012). A family making a book needs a
// handful of each a day; these stop a script, not a customer.
export const SHOP_DAILY_LIMITS = {
  book: { perSession: 50, perAddress: 200 },
  quote: { perSession: 300, perAddress: 1000 },
  upload: { perSession: 300, perAddress: 1000 },
  process: { perSession: 300, perAddress: 1000 },
  /** Order number + email guesses on /orders/{number}. */
  "order-lookup": { perSession: 20, perAddress: 100 },
  /**
   * Upload tickets with a book type (the create-book page asks for one per photo), counted per
   * ticket: each one is an uploads row and admits a 15 MB file into R2. Four premium books a day.
   */
  "upload-ticket": { perSession: 4 * MAX_PHOTOS_PER_BOOK, perAddress: 20 * MAX_PHOTOS_PER_BOOK },
  /** POST /api/record-book-data: a checkouts row per call (an abandoned cart is kept). */
  "book-data": { perSession: 50, perAddress: 200 },
  /**
   * Payment starts that reach the payment provider (a new checkout, and closing the book's other
   * one): each is up to two writes at Stripe, whose rate limit is the whole shop's. A buyer who
   * cancels and pays again a few times stays far below.
   */
  payment: { perSession: 20, perAddress: 200 },
  /**
   * Bytes of photos stored for books (uploaded to a book, or to a create-book ticket), kept up to
   * a year if never paid for: two premium books of the largest photos a session, and a day's
   * books of many customers behind one address (a carrier's NAT, decision 024).
   */
  "stored-bytes": { perSession: 2 * MAX_PHOTOS_PER_BOOK * MAX_UPLOAD_BYTES, perAddress: 10 * 1024 * MB },
} as const;
/**
 * An IPv6 client's /48 (a site: 65,536 /64s) is counted beside its /64, with this many times each
 * per-address daily cap (decision 024): room for a household or office with several networks,
 * none for a script walking through the /64s of one /48.
 */
export const IPV6_BLOCK_LIMIT_FACTOR = 4;
/** The period of API_LIMITER's `simple` setting in wrangler.toml. */
export const SHOP_BURST_PERIOD_SECONDS = 60;

// Retention (docs/decisions/013 and 019). The daily Cron Trigger applies these numbers and the
// privacy notice, FAQ and help center state them through RETENTION_TEXTS below: one source for both.
/** A book never paid for is deleted, photos, sketches, title and message included, a year after it was made. */
export const BOOK_RETENTION_DAYS = 365;
/**
 * A book that never got a price quote was never on its way to an order: it goes this long after it
 * was made, not after BOOK_RETENTION_DAYS (photos uploaded and left are most of what is stored).
 */
export const UNQUOTED_BOOK_RETENTION_DAYS = 30;
/**
 * Once a book is paid for, its other orders (another quote's, never paid) hold a name and an
 * address for nothing: they go this long after the payment, time enough for a late payment
 * through one of their checkouts to arrive and be refunded with the order in view.
 */
export const UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS = 30;
/**
 * A paid book's photos, sketches, region hierarchies, print PDF and dedication are kept this long
 * after it is posted (or refunded): the terms promise a reprint for a book lost or damaged in the
 * post and reported within 30 days, after a delivery of up to DELIVERY_MAX_BUSINESS_DAYS; 90 days
 * covers both with room for the reprint itself. One never posted nor refunded is counted from its
 * payment with BOOK_RETENTION_DAYS instead.
 */
export const ORDERED_BOOK_FILES_RETENTION_DAYS = 90;
/**
 * A payment still `paying` this long after its checkout closed will never complete: Stripe retries
 * a webhook for up to three days. Its book is then treated as never paid for.
 */
export const PAYMENT_CONFIRMATION_GRACE_DAYS = 3;
/**
 * Book data recorded on the create-book page (title, message) that never became a book: its photos
 * are gone after FREE_PREVIEW_RETENTION_HOURS, so it can no longer become one; a day's margin.
 */
export const UNUSED_CHECKOUT_RETENTION_DAYS = 2;
/**
 * A paid order (number, title, price, name, addresses, its emails) is accounting: UK law keeps
 * records 6 years from the end of the financial year they belong to, so at most 7 from payment.
 */
export const ORDER_RECORD_RETENTION_YEARS = 7;
/**
 * A payment to review (money that did not pay for an order as it stood, and its refund) is an
 * accounting record like an order: kept as long, counted from when it arrived.
 */
export const PAYMENT_PROBLEM_RETENTION_YEARS = ORDER_RECORD_RETENTION_YEARS;
/** An object in R2 that no row names is deleted once it is this old (an upload half-recorded). */
export const ORPHAN_OBJECT_GRACE_HOURS = 24;

// Order emails (docs/product.md §12; app/emails, app/server/orders/order-emails.server.ts)
/** A failed send is tried this many times in all (the first try included), then marked failed. */
export const ORDER_EMAIL_MAX_ATTEMPTS = 8;
/**
 * The wait after the nth failed try is this times 2^(n-1): 1, 2, 4 ... 64 minutes. The hourly
 * Cron Trigger is what retries, so in practice tries are about an hour apart, and all eight fit
 * well inside the 24 hours Resend honours an Idempotency-Key (a retry never sends twice).
 */
export const ORDER_EMAIL_RETRY_BASE_SECONDS = 60;
/** A try claims its email this long (`next_attempt_at`), so the cron never sends it alongside. */
export const ORDER_EMAIL_CLAIM_SECONDS = 5 * 60;
/** A send that has not answered by then is a failed try (and retried under the same key). */
export const ORDER_EMAIL_SEND_TIMEOUT_MS = 10_000;
/** Emails one cron run sends at most (each is one subrequest). */
export const ORDER_EMAIL_BATCH_SIZE = 40;
/**
 * The cron records a missing email only for orders paid (or shipped) this recently: enough to
 * catch a recording that failed, without mailing customers about orders from before emails existed.
 */
export const ORDER_EMAIL_REPAIR_WINDOW_DAYS = 3;
/**
 * The cron records a missed pdf-ready email only for a PDF made this long ago: the print-submissions
 * consumer records it within seconds, and the cron must not race it.
 */
export const PDF_READY_EMAIL_REPAIR_AFTER_SECONDS = 15 * 60;
/** Where an email's links point when PUBLIC_ORIGIN is not set and no request says (`npm run dev`). */
export const LOCAL_SHOP_ORIGIN = "http://localhost:8787";

// Orders desk (/admin)
/** How long a local (dev/test) admin sign-in lasts; production relies on Cloudflare Access. */
export const ADMIN_SESSION_MINUTES = 120;
export const ADMIN_ORDERS_PAGE_SIZE = 25;
/** The newest order emails the desk's outbox lists. */
export const ADMIN_OUTBOX_LIMIT = 50;
/**
 * Payments to review: every unrefunded one is listed, first, however many and however old; below
 * them this many of the newest refunded ones stay listed, to show what was done.
 */
export const ADMIN_REFUNDED_PAYMENTS_SHOWN = 50;
/** Carriers' numbers are 8-30 characters; this leaves room without inviting essays. */
export const MAX_TRACKING_NUMBER_LENGTH = 40;
/** An image `queued` or `processing` longer than this (since images.queued_at) is stuck: the hourly sweep sends it again. */
export const PROCESSING_STUCK_MINUTES = 30;
/** Sends to the sketch queue after which the sweep stops re-queueing a stuck image and marks it failed. */
export const MAX_PROCESS_ATTEMPTS = 3;

// Print partner (docs/decisions/028)
/** How long a print file's signed URL lets the partner fetch it (it may fetch again while it normalises). */
export const PRINT_FILE_URL_TTL_SECONDS = 14 * 24 * 60 * 60;
/** One call to the partner's API; past it the call counts as failed and the queue retries. */
export const PRINT_PARTNER_TIMEOUT_MS = 15_000;
/** A `sending` claim older than this was left by a call that never came back: it may be taken again. */
export const PRINT_CLAIM_STALE_SECONDS = 2 * 60;
/** The queue's retry delays for a partner that is down: doubling from the base, capped. */
export const PRINT_SUBMIT_RETRY_BASE_SECONDS = 30;
export const PRINT_SUBMIT_RETRY_MAX_SECONDS = 30 * 60;
/** A cached partner token is renewed this long before the partner says it expires. */
export const PRINT_TOKEN_RENEW_MARGIN_SECONDS = 60;
/** The hourly cron sends a paid order's PDF or print job again once it has waited this long for it. */
export const PRINT_RESEND_AFTER_MINUTES = 30;
/** ...for orders paid this recently; an older one is for a person (the desk shows it). */
export const PRINT_RESEND_WINDOW_DAYS = 14;
/** Orders one cron run sends again at most (each is one queue message). */
export const PRINT_RESEND_BATCH_SIZE = 50;
/** The customer's own download link of their book's PDF lasts this long; their order page gives a fresh one. */
export const CUSTOMER_PDF_LINK_DAYS = 30;
