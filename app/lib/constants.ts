/**
 * Every business constant, limit, price and user-facing message of SPEC.md in one place.
 * Import from here; never retype a number or a message elsewhere.
 * Prices are in minor units (pence) so no float ever touches money.
 */
/** The two books on sale; the D1 schema's enum is this list. */
export const BOOK_TYPES = ["standard", "premium"] as const;
export type BookType = (typeof BOOK_TYPES)[number];

export const SHOP_NAME = "Coloring Book Shop";
export const SHOP_TAGLINE = "your photos as a coloring book";

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

/**
 * A photo whose header claims more pixels than this is refused before any decoding: a Worker
 * isolate has 128 MB in all, and a decoded 24 MP photo is already ~96 MB of RGBA.
 */
export const MAX_SOURCE_PIXELS = 24_000_000;
/**
 * PNG and WebP are decoded by jSquash, whose wasm memory holds the file and the RGBA (4 bytes per
 * pixel), copied out once more: about 8 bytes per pixel, and a wasm memory never shrinks. Our
 * pages downscale to print size before upload, so this leaves room to spare for them.
 * Measured with bench/memory.mjs (docs/decisions/005).
 */
export const MAX_PNG_WEBP_SOURCE_PIXELS = 8_500_000;
/** 11 in at 300 dpi: the long edge of a printed page. */
export const PRINT_LONG_EDGE_PX = 3300;

/**
 * How much of the photo a page draws: Simple (few bold lines, for young children), Standard,
 * Detailed. An engine parameter of the sketch Worker (workers/sketch/kernel/tuning.ts).
 */
export const DETAIL_LEVELS = ["simple", "standard", "detailed"] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];
export const DEFAULT_DETAIL_LEVEL: DetailLevel = "standard";

export const POLL_INTERVAL_MS = 2000;
export const FAKE_PROGRESS_STEP = 10;
export const FAKE_PROGRESS_CAP = 90;
export const FAKE_PROGRESS_TICK_MS = 200;
export const TOAST_DURATION_MS = 5000;
/** SPEC sections 1 and 9: the before/after comparison starts at 50 % and is 320 px high by default. */
export const COMPARISON_START_PERCENT = 50;
export const COMPARISON_DEFAULT_HEIGHT_PX = 320;
export const QUOTE_TTL_SECONDS = 30 * 60;

export const DELIVERY_COUNTRIES = ["US", "CA", "UK", "AU"] as const;
export type DeliveryCountry = (typeof DELIVERY_COUNTRIES)[number];
export const COUNTRY_NAMES: Record<DeliveryCountry, string> = {
  US: "United States",
  CA: "Canada",
  UK: "United Kingdom",
  AU: "Australia",
};

export const PAYMENT_METHODS = ["card"] as const;
export const MIN_QUANTITY = 1;
/** No upper bound is shown (SPEC section 5); this one only stops a typo from ordering 10,000 books. */
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
/** Shipping is free to every delivery country (SPEC section 9). */
export const SHIPPING_FEE = 0;

export const BOOK_PAGES_ADVERTISED = 50;
export const DELIVERY_RANGE_TEXT = "3-15 business days";
export const PROCESSING_TIME_TEXT = "2-3 business days";
export const DELIVERY_MAX_BUSINESS_DAYS = 15;

export const BOOK_SPECS = {
  size: '8.5x11" Letter',
  binding: "Spiral binding",
  paper: "120gsm paper",
};

export const ACCEPTED_BOOK_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const ACCEPTED_PREVIEW_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/bmp",
  "image/webp",
] as const;

export const MESSAGES = {
  titleRequired: "Book title is required",
  titleTooLong: "Title must be less than 100 characters",
  messageTooLong: "Message must be less than 500 characters",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  invalidEmail: "Invalid email address",
  addressRequired: "Address is required",
  cityRequired: "City is required",
  zipRequired: "ZIP code is required",
  countryRequired: "Country is required",
  quoteRequired: "Quote required: Please provide valid delivery information to get a price quote.",
  quoteRequiredTitle: "Quote required",
  quoteRequiredDescription: "Please provide valid delivery information to get a price quote.",
  tooManyImagesPerBook: "You can upload a maximum of 50 images per book.",
  unsupportedBookUpload: (name: string) => `${name} is not a supported image format.`,
  unsupportedPreviewUpload: (name: string) =>
    `File '${name}' is not a supported image format. Allowed: JPG, PNG, GIF, BMP, WebP`,
  previewTooLarge: "Please upload an image smaller than 15 MB.",
  previewTooLargeTitle: "Image Too Large",
  fileTooLarge: (name: string) => `File '${name}' is larger than 15 MB. Please choose a smaller image.`,
  onlyOneImage: "Only one image can be uploaded at a time. Please select a single image.",
  bookCreated: "Book created successfully!",
  bookCreatedDescription: "You can now upload images for your coloring book.",
  errorCreatingBook: "Error creating book",
  uploadFailed: "Upload failed",
  imagesUploaded: "Images uploaded successfully!",
  processingFailed: "Processing failed",
  processingStarted: "Processing started!",
  processingStartedDescription: "This may take a few minutes.",
  selectionFailed: "Failed to update selection.",
  orderFailed: "Failed to create order.",
  paymentFailed: "Payment failed.",
  paymentSucceeded: "Payment successful! Your order has been placed successfully.",
  fullPreviewSoon: "Full-size preview coming soon!",
  noSizeLimit: "There is no size limit.",
  notFound: "Page Not Found",
  unsafeText: "Please remove control characters and unmatched text-direction marks.",
  unsafeFileName: (name: string) => `The file name of ${name} has control characters or unmatched text-direction marks. Please rename the file.`,
} as const;

/** Toast titles and texts of the /book/{id} pages that complete SPEC's messages above. */
export const BOOK_PAGE_MESSAGES = {
  errorTitle: "Error",
  photosNotLoaded: "Could not load your photos.",
  invalidFileTypeTitle: "Invalid file type",
  tooManyImagesTitle: "Too many images",
  uploadRejectedTitle: "Upload Rejected",
  paymentSucceededTitle: "Payment successful!",
  paymentSucceededDescription: "Your order has been placed successfully.",
  // SPEC: the remove-image button only shows a message and does not delete.
  removeImageUnavailable:
    "Photos can't be removed from a book yet. Leave it unselected and it won't be printed.",
  confirmationEmailNote:
    "A confirmation email with your order details and tracking information is on its way.",
  /** A payment refused because it no longer matched the book or the order (issue 23). */
  paymentNotMatched:
    "We received your payment, but it no longer matches your book as it is now, so we haven't sent the book to print. Our team will refund that payment. Please check your book and order it again.",
  // The preview page's photo range (issue 23 item 8): said before Create My Book, with what to do.
  photoRangeHeading: "Photos in your book",
  planPhotoRange: (planName: string, min: number, max: number) => `${planName}: ${min}-${max} photos`,
  /** A book of the /book/{id} pages with no plan chosen is priced by its selected count. */
  planByCount: (standardMax: number, premiumName: string) => `More than ${standardMax} selected sketches make it a ${premiumName}.`,
  selectMore: (count: number) => `Select ${count} more ${count === 1 ? "sketch" : "sketches"} below to continue.`,
  uploadMore: (count: number) => `Upload at least ${count} more ${count === 1 ? "photo" : "photos"}, then select them here.`,
  uploadMoreLink: "Upload more photos",
  deselect: (count: number) => `Deselect ${count} ${count === 1 ? "sketch" : "sketches"} to continue.`,
} as const;

/** The photo drop zones' own words; what they refuse is said by react-dropzone (SPEC section 5). */
export const DROPZONE_TEXT = {
  dropHere: "Drop your photos here",
  chooseFiles: "Choose photos",
  nothingChosen: "No photo was chosen.",
} as const;
/**
 * SPEC section 4: a file dialog closed with nothing chosen is noticed 300 ms after the window has
 * its focus back. react-dropzone waits exactly this long and cannot be told otherwise; the browser
 * test holds it to this number.
 */
export const FILE_DIALOG_CANCEL_MS = 300;

/** Button and heading texts SPEC.md spells out (product copy, used exactly). */
export const LABELS = {
  createBookFormTitle: "Create Your Custom Coloring Book",
  continueToUpload: "Continue to Upload Images",
  creating: "Creating...",
  admin: "Admin",
  connectWallet: "Connect Wallet",
  next: "Next",
  back: "Back",
  createMyBook: "Create My Book",
  selectAll: "Select All",
  deselectAll: "Deselect All",
  selectHighQualityOnly: "Select High Quality Only",
  ready: "Ready",
  noStatus: "none",
  backToPreview: "Back to Preview",
  completeOrder: "Complete Order",
  processingOrder: "Processing...",
  orderConfirmed: "Order Confirmed",
  trackYourOrder: "Track Your Order",
  createAnotherBook: "Create Another Book",
} as const;

// Landing page
/** GET /api/get-stats may be a minute old (the Workers cache, the edge and browsers keep it). */
export const STATS_CACHE_MAX_AGE_SECONDS = 60;
/** Shown in each counter while the statistics load (SPEC section 1). */
export const STATS_LOADING_TEXT = "...";
export const STATS_LABELS = {
  booksCreated: "Books created",
  happyFamilies: "Unique customers",
  photosConverted: "Photos converted",
} as const;
/** SPEC sections 1 and 9: six quotes, three a page, two pages; five gallery sketches. */
export const TESTIMONIALS_PER_PAGE = 3;
export const GALLERY_EXAMPLE_COUNT = 5;
/** SPEC section 1's marketing copy (fixed text). */
export const SHIPPING_COUNTRY_COUNT = 43;
export const LANDING_HIGHLIGHTS = [
  `Upload up to ${MAX_PHOTOS_PER_BOOK} photos`,
  "Custom title and dedication",
  "PDF formatting",
  "Premium paper printing",
  `Available in ${SHIPPING_COUNTRY_COUNT} countries`,
] as const;
export const SOCIAL_PREVIEW_IMAGE = "/og-image.png";
export const LANDING_CTA = {
  freePreview: "Try a free preview",
  choosePlan: "Choose your book",
} as const;

/**
 * Messages of the JSON API that SPEC.md has no text for. Answers are
 * `{ message, fieldErrors? }` with a 4xx status; SPEC's own texts above are used wherever they exist.
 */
export const API_MESSAGES = {
  notFound: "Not found",
  methodNotAllowed: "Method not allowed",
  invalidJson: "The request body must be valid JSON.",
  unsupportedBody: "Send the data as JSON or as a form.",
  jsonRequired: "Send the data as JSON (Content-Type: application/json).",
  foreignOrigin: "This request came from another site and was refused.",
  noImagesUploaded: "Please choose at least one image to upload.",
  unreadableUpload: "The upload could not be read. Please try again.",
  uploadTooLarge: "This upload is too large. Please upload fewer or smaller images at a time.",
  bodyTooLarge: "The request is too large.",
  imageTooManyPixels: (name: string, limitPixels: number) =>
    `${name} has too many pixels to print (over ${limitPixels / 1_000_000} megapixels). Please upload a smaller photo.`,
  bookHasNoImages: "Please upload at least one image before processing.",
  onlyCompletedSelectable: "Only completed images can be selected or deselected.",
  noImagesSelected: "Please select at least one image for your book.",
  quoteNotFound: "No price quote was found for this book. Please request a new quote.",
  quoteExpired: "Your price quote has expired. Please request a new quote.",
  quoteAddressMismatch:
    "The delivery address does not match your price quote. Please request a new quote.",
  orderAlreadyPaid: "This order has already been paid.",
  bookChangedSinceQuote: "Your book changed since the price quote. Please request a new quote.",
  bookAlreadyOrdered: "This book has already been ordered and can no longer be changed.",
  paymentsUnavailable: "Payments are not available right now. Please try again later.",
} as const;

// Create book and payments (SPEC sections 2, 4, 5, 8)
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

export const CREATE_BOOK_MESSAGES = {
  agreementRequiredTitle: "Agreement Required",
  agreementRequired: "You must agree to the Terms and Conditions before purchasing.",
  notEnoughPhotosTitle: "Not enough photos",
  notEnoughPhotos: (plan: BookType, min: number) =>
    `Please upload at least ${min} photos to create your ${plan} coloring book.`,
  tooManyPhotosTitle: "Too many photos",
  tooManyPhotos: (plan: BookType, max: number) =>
    `Please upload no more than ${max} photos for your ${plan} coloring book.`,
  missingTitleTitle: "Missing title",
  missingTitle: "Please enter a title for your coloring book.",
  tooManyFilesTitle: "Too many files",
  tooManyFiles: (current: number, adding: number) =>
    `You can upload a maximum of 50 photos. You currently have ${current} and trying to add ${adding} more.`,
  invalidFileTypeTitle: BOOK_PAGE_MESSAGES.invalidFileTypeTitle,
  invalidFileType: MESSAGES.unsupportedPreviewUpload,
  imageTooLargeTitle: MESSAGES.previewTooLargeTitle,
  imageTooLarge: MESSAGES.fileTooLarge,
  filesAddedTitle: "Files added",
  filesAdded: (added: number, total: number) => `${added} file(s) added. Total: ${total}/50.`,
  stockPhotoAdded: "Stock photo added!",
  uploadErrorTitle: "Upload Error",
  presignFailed: (file: string) => `Failed to get presigned URL for ${file}`,
  uploadFailedFor: (file: string, statusText: string) => `Upload failed for ${file}: ${statusText}`,
  uploadFailedTitle: "Upload Failed",
  uploadFailed: "There was an error uploading your files. Please try again.",
  orderErrorTitle: "Order Error",
  recordFailed: "Failed to record book data.",
  recordFailedGeneric: "There was an error saving your order. Please try again.",
  checkoutErrorTitle: "Checkout Error",
  checkoutFailed: "Failed to create checkout session.",
  checkoutFailedGeneric: "There was an error processing your order. Please try again.",
  orderRestoredTitle: "Order Restored",
  orderRestored: "Your previous order details have been restored. You can modify them or proceed with payment.",
  customMessageTooLong: "Message must be less than 2000 characters",
  uploadsMissing: "Some of your photos were not uploaded. Please add them again.",
  noPendingCheckout: "There is no unpaid order to retry. Please start again.",
  paymentInProgress: "A payment for this book is already open. Finish it or cancel it first.",
  /** Any change of a book's photos, selection or detail levels while its checkout is open (issue 23). */
  pagesLockedWhilePaying: `A payment for this book is open, so its photos and pages can't change now. Finish the payment, or cancel it on the payment page to make changes straight away (a payment left open closes by itself within ${CHECKOUT_TTL_SECONDS / 60} minutes).`,
} as const;

export const CREATE_BOOK_LABELS = {
  pageTitle: "Create Your Coloring Book",
  addPhotos: "Add photos: drag and drop or choose files",
  purchase: "Purchase Coloring Book",
  clearAll: "Clear All",
  switchToPremium: "Switch to Premium",
  switchToStandard: "Switch to Standard",
  paymentSuccessful: "Payment Successful",
  paymentConfirmed: "Payment Confirmed",
  processingOrderId: "Processing...",
  paymentCancelled: "Payment Cancelled",
  noCharges: "No charges were made to your account.",
  retryPayment: "Retry Payment",
  tryAgain: "Try Again",
  backToHome: "Back to Home",
  createAnotherBook: "Create Another Book",
} as const;

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

export const PREVIEW_MESSAGES = {
  multipleFilesTitle: "Multiple Files Selected",
  invalidFileTypeTitle: BOOK_PAGE_MESSAGES.invalidFileTypeTitle,
  conversionFailedTitle: "Conversion Failed",
  conversionTooLarge: "Image file is too large. Please try a smaller image.",
  conversionServerError: (detail: string) => `Server error: ${detail}`,
  conversionTryAnother: "Please try again with a different image.",
  uploadErrorTitle: CREATE_BOOK_MESSAGES.uploadErrorTitle,
  uploadToStorageFailed: "Failed to upload file to S3.",
  uploadProcessFailed: "Failed to process upload. Please try again.",
  uploadCompleteTitle: "Upload Complete",
  uploadComplete: "Your photo is ready to become a coloring page.",
  conversionErrorTitle: "Conversion Error",
  conversionErrorDefault: "Failed to convert image. Please try again later.",
  convertedTitle: "Image Converted!",
  convertedDescription: "Your photo is now a coloring page. Drag the slider to compare.",
  alreadyUsedTitle: "You've Already Used Your Free Preview",
  alreadyUsedText:
    "Each browser gets one free sketch. Choose a plan to turn up to 50 of your photos into a printed coloring book.",
} as const;

export const PREVIEW_LABELS = {
  pageTitle: "Free Sketch Preview",
  metaDescription:
    "Turn one of your photos into a black-and-white coloring page for free, in seconds. No account needed.",
  heading: "Try it free: one photo, one coloring page",
  intro:
    "Upload a photo and see it as a black-and-white coloring page in seconds. No account, no payment.",
  dropzoneTitle: "Drop a photo here",
  dropzoneHint: "JPG, PNG or WebP, one photo, up to 15 MB",
  pickPhoto: "Choose a photo",
  photoFile: "Photo file",
  uploading: "Uploading...",
  chooseAnother: "Choose another photo",
  convert: "Convert to Sketch",
  converting: "Converting...",
  yourPhoto: "Your photo",
  yourSketch: "Your sketch",
  ctaHeading: "Love it? Make a whole book.",
  ctaText: "Turn up to 50 family photos into a printed coloring book with your own title and dedication.",
  createFullBook: "Create a Full Book",
  seePlans: "See Plans & Prices",
  choosePlan: "Choose a Plan",
  backToHome: "Back to Home",
  debugHeading: "Debug view of the last conversion",
  debugInput: "Input grey plane (kernel size)",
  debugMask: "Edge and line mask",
  debugPage: "Final page",
} as const;

/** Answers of the upload-ticket, conversion and debug calls that SPEC has no text for. */
export const PREVIEW_API_MESSAGES = {
  invalidCount: `count must be a whole number from 1 to ${MAX_PHOTOS_PER_BOOK}.`,
  invalidBookType: "bookType must be standard or premium.",
  invalidSessionId: "sessionId must be at most 100 characters.",
  ticketAlreadyUsed: "This upload link has already been used. Please request a new one.",
  emptyUpload: "The uploaded file is empty.",
  invalidDataUrl: "imageData must be a base64 data URL of an image.",
  notUploadedYet: "This photo has not been uploaded yet.",
  tooManyRequests: "Too many requests. Please wait a minute and try again.",
  dailyConversionLimit:
    "You have used today's free sketches. Please come back tomorrow, or choose a plan to make a whole book.",
  dailyTicketLimit: "Too many free uploads today. Please come back tomorrow, or choose a plan to make a whole book.",
} as const;

// Storefront pages
/** Where customers write to us: the footer, the help center, the privacy notice and the terms. */
export const CONTACT_EMAIL = "hello@coloringbook.example";
/** SPEC section 1: the copyright year shown is 2025. */
export const COPYRIGHT_YEAR = 2025;
/** SPEC section 1: the footer links to our pages on these four networks. */
export const SOCIAL_LINKS = [
  { network: "Instagram", href: "https://www.instagram.com/" },
  { network: "Facebook", href: "https://www.facebook.com/" },
  { network: "Pinterest", href: "https://www.pinterest.com/" },
  { network: "TikTok", href: "https://www.tiktok.com/" },
] as const;
export type SocialNetwork = (typeof SOCIAL_LINKS)[number]["network"];

/** SPEC section 9: a tooltip opens after 700 ms, or at once within 300 ms of another closing. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** SPEC section 9: a toast dragged more than 50 px to the right is dismissed. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** SPEC section 9: one toast at a time (a new one replaces the one showing), F8 focuses them. */
export const TOAST_LIMIT = 1;
export const TOAST_HOTKEY = "F8";
export const TOAST_REGION_LABEL = `Notifications (${TOAST_HOTKEY})`;
/** SPEC section 9: a dismissed toast is dropped from the list 1,000,000 ms later. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** The cheapest book, for "from £19.99" texts. */
export const LOWEST_BOOK_PRICE = Math.min(...Object.values(PLANS).map((plan) => plan.price));
export const PREVIEW_FORMATS_TEXT = "JPG, PNG and WebP (GIF and BMP are accepted too)";
/** Where we can deliver today (the delivery form's countries) and where we plan to (SPEC's FAQ). */
export const DELIVERY_COUNTRIES_TEXT = new Intl.ListFormat("en-GB", { type: "conjunction" }).format(
  DELIVERY_COUNTRIES.map((code) => COUNTRY_NAMES[code]),
);
/** SPEC's FAQ names Europe, USA, Australia, Canada and Japan; of those, these are not in the form yet. */
export const PLANNED_SHIPPING_REGIONS_TEXT = "the rest of Europe and to Japan";

/** Button texts of the storefront pages SPEC spells out. */
export const STOREFRONT_LABELS = {
  back: "Back",
  goBack: "Go Back",
  home: "Home",
  backToHome: "Back to Home",
  getStarted: "Get Started",
  contactSupport: "Contact Support",
  viewFaq: "View FAQ",
  mostPopular: "MOST POPULAR",
  limitedTimeOffer: "Limited-time offer",
  menu: "Menu",
  createYourBook: "Create your book",
} as const;

/** Toasts of the storefront pages. */
export const STOREFRONT_MESSAGES = {
  openingMailApp: "Opening your e-mail app",
  // Without a mail app a mailto link silently does nothing: say where to write instead.
  mailFallback: `If nothing opens, write to us at ${CONTACT_EMAIL}.`,
} as const;

/** Per-page <title> and meta description. */
export const PAGE_META = {
  choosePlan: {
    title: `Choose your book – ${SHOP_NAME}`,
    description: "Compare the Standard and Premium coloring books: paper, binding, pages, photos and price.",
  },
  faq: {
    title: `Frequently asked questions – ${SHOP_NAME}`,
    description: "Answers about photos, formats, prices, shipping, refunds and how we look after your pictures.",
  },
  help: {
    title: `Help Center – ${SHOP_NAME}`,
    description: "Guides to creating, ordering and receiving your personalised coloring book.",
  },
  privacy: {
    title: `Privacy notice – ${SHOP_NAME}`,
    description: "What we store about you and your photos, why, for how long, and your rights under UK GDPR.",
  },
  terms: {
    title: `Terms and conditions – ${SHOP_NAME}`,
    description: "The terms on which we make and sell personalised coloring books.",
  },
  notFound: {
    title: `${MESSAGES.notFound} – ${SHOP_NAME}`,
    description: "This page does not exist.",
  },
} as const;

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
  /** SPEC's record-book-data: a checkouts row per call (an abandoned cart is kept). */
  "book-data": { perSession: 50, perAddress: 200 },
} as const;
/** The period of API_LIMITER's `simple` setting in wrangler.toml. */
export const SHOP_BURST_PERIOD_SECONDS = 60;
export const SHOP_LIMIT_MESSAGES = {
  burst: "You are going a little fast. Please wait a minute and try again.",
  daily: "You have reached today's limit for this. Please try again tomorrow, or write to us if you need more.",
} as const;

// Retention (docs/decisions/013 and 018). The daily Cron Trigger applies these numbers and the
// privacy notice, FAQ and help center state them through RETENTION_TEXTS below: one source for both.
/** A book never paid for is deleted, photos, sketches, title and message included, a year after it was made. */
export const BOOK_RETENTION_DAYS = 365;
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
/** An object in R2 that no row names is deleted once it is this old (an upload half-recorded). */
export const ORPHAN_OBJECT_GRACE_HOURS = 24;

const period = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
/** 365 days reads "1 year"; other periods stay in days. */
const daysText = (days: number) => (days % 365 === 0 ? period(days / 365, "year") : period(days, "day"));

/** How long we keep what customers give us: the FAQ, the help center and the privacy notice say the same. */
export const RETENTION_TEXTS = {
  unpaidBook: `A book that is not bought is deleted ${daysText(BOOK_RETENTION_DAYS)} after it was created, with its photos, sketches, title, message and any unpaid order. A payment that was started but never completed does not count as buying.`,
  orderedBook: `For a book you bought, we keep its photos, sketches, dedication and print file until ${daysText(ORDERED_BOOK_FILES_RETENTION_DAYS)} after we post it (or refund it), so that we can reprint a book lost or damaged in the post; then they are deleted. If a book is never posted, they are deleted ${daysText(BOOK_RETENTION_DAYS)} after payment.`,
  freePreview: `Free-preview photos and their sketches are deleted after ${period(FREE_PREVIEW_RETENTION_HOURS, "hour")}.`,
  unusedUploads: `Photos uploaded on the create-book page are deleted after ${period(FREE_PREVIEW_RETENTION_HOURS, "hour")} if they do not become a book, and the title and message you typed there after ${daysText(UNUSED_CHECKOUT_RETENTION_DAYS)}.`,
  orders: `An order itself (its number, the book's title, the price, your name, e-mail and delivery address, and the e-mails we sent you about it) is kept for ${period(ORDER_RECORD_RETENTION_YEARS, "year")} after payment, as UK tax law requires, then deleted.`,
  metadata: "Photo metadata such as EXIF camera details and GPS location is removed when a photo is uploaded.",
} as const;

// Order tracking (/orders/{number})
export const ORDER_TRACKING_TEXT = {
  lookupTitle: "Find your order",
  lookupIntro: "Enter the email address you ordered with to see your order.",
  notFound: "We could not find an order with that number and email address.",
  invalidEmail: "Please enter the email address you ordered with.",
} as const;

// Order emails (issue 10 item 3; app/emails, app/server/order-emails.server.ts)
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
/** Where an email's links point when PUBLIC_ORIGIN is not set and no request says (`npm run dev`). */
export const LOCAL_SHOP_ORIGIN = "http://localhost:8787";

export const ORDER_EMAIL_TEXT = {
  confirmationSubject: (orderNumber: string) => `Your ${SHOP_NAME} order ${orderNumber} is confirmed`,
  confirmationPreview: (title: string) => `Thank you for your order. “${title}” is on its way to the printer.`,
  confirmationHeading: "Thank you for your order!",
  greeting: (firstName: string) => `Hello ${firstName},`,
  confirmationIntro:
    "We have received your payment and your coloring book is now being prepared for printing. Here are your order details.",
  orderNumber: "Order number",
  bookTitle: "Book title",
  pages: "Pages",
  quantity: "Quantity",
  total: "Total paid",
  estimatedDelivery: "Estimated delivery",
  deliveryAddress: "Delivery address",
  trackIntro: "You can follow your order at any time on its tracking page:",
  confirmationOutro: "We will email you again with a tracking number as soon as your book has been posted.",
  shippedSubject: (orderNumber: string) => `Your ${SHOP_NAME} order ${orderNumber} has been posted`,
  shippedPreview: (title: string) => `“${title}” is on its way to you.`,
  shippedHeading: "Your book is on its way!",
  shippedIntro: "Good news: your coloring book has been printed and posted.",
  trackingNumber: "Tracking number",
  shippedOutro: "Use the tracking number with the delivery service, or follow your order on its tracking page.",
  questions: `Questions about your order? Write to us at ${CONTACT_EMAIL} and quote your order number.`,
  signOff: `With love, the ${SHOP_NAME} team`,
  footer: (origin: string) => `${SHOP_NAME}, ${SHOP_TAGLINE}. ${origin}`,
} as const;

// Orders desk (/admin)
/** How long a local (dev/test) admin sign-in lasts; production relies on Cloudflare Access. */
export const ADMIN_SESSION_MINUTES = 120;
export const ADMIN_ORDERS_PAGE_SIZE = 25;
/** The newest order emails the desk's outbox lists. */
export const ADMIN_OUTBOX_LIMIT = 50;
/** The newest payments to review the desk lists (refunded ones stay listed). */
export const ADMIN_PAYMENTS_TO_REVIEW_LIMIT = 50;
/** Carriers' numbers are 8-30 characters; this leaves room without inviting essays. */
export const MAX_TRACKING_NUMBER_LENGTH = 40;
/** The one status the desk shows for an order, derived from its fulfilment columns. */
export const ADMIN_ORDER_STATUS_LABELS = {
  paid: "Paid",
  "pdf-ready": "PDF ready",
  "sent-to-print": "Sent to print",
  shipped: "Shipped",
  refunded: "Refunded",
} as const;
/** An order email's delivery state (order_emails.status) in the desk's words. */
export const ADMIN_EMAIL_STATUS_LABELS = {
  pending: "Waiting to send",
  sent: "Sent",
  outbox: "Kept in outbox (no email provider set)",
  failed: "Failed",
} as const;
export const ADMIN_TEXT = {
  title: "Orders desk",
  intro: "Paid orders, newest first. Send each book's PDF to the printer, then mark it shipped with the carrier's tracking number.",
  refundNote:
    "Mark refunded only records the refund here: refund the payment in the Stripe Dashboard by hand first. Nothing is sent to Stripe from this page.",
  noOrders: "No paid orders yet.",
  outboxTitle: "Order emails",
  outboxIntro: "Every confirmation and shipped email, newest first, with its delivery state.",
  noEmails: "No order emails yet.",
  pdfPending: "PDF being made",
  /** A paid book's files after their retention period (decision 019): the order row stays, its PDF is gone. */
  filesDeleted: (date: string) => `Photos and PDF deleted on ${date} (retention)`,
  markSentToPrint: "Mark sent to print",
  markShipped: "Mark shipped",
  markRefunded: "Mark refunded",
  trackingNumber: "Tracking number",
  signInTitle: "Orders desk sign-in",
  signInIntro: "Local sign-in for development and tests. In production Cloudflare Access signs you in.",
  password: "Password",
  signIn: "Sign in",
  signOut: "Sign out",
  wrongPassword: "That password is not right.",
  passwordRequired: "Enter the desk password.",
  trackingRequired: "Enter the carrier's tracking number.",
  trackingTooLong: `A tracking number has at most ${MAX_TRACKING_NUMBER_LENGTH} characters.`,
  trackingInvalid: "Use only letters, digits, spaces and dashes.",
  unknownOrder: "There is no such order.",
  notPaid: "This order is not paid: it cannot be printed or shipped.",
  refunded: "This order was refunded: it cannot be printed or shipped.",
  pdfNotReady: "The print PDF is not ready yet. Wait until it is made.",
  alreadyShipped: "This order has already shipped.",
  shippedWithOtherNumber: "This order already shipped with another tracking number:",
  sentToPrint: "Marked sent to print.",
  alreadySentToPrint: "This order was already sent to print.",
  shipped: "Marked shipped. The customer's shipped email is in the outbox.",
  shippedEmailFailed: "Marked shipped, but the shipped email could not be recorded: see the log.",
  alreadyShippedSame: "This order was already marked shipped with that tracking number.",
  markedRefunded: "Marked refunded.",
  confirmRefund: "Mark this order refunded? Refund the payment in the Stripe Dashboard first. This cannot be undone here.",
  alreadyRefunded: "This order was already marked refunded.",
  unknownAction: "That action does not exist.",
  paymentsToReviewTitle: "Payments to review",
  paymentsToReviewIntro:
    "Money that came in but did not pay for a book as ordered. Refund each one in the Stripe Dashboard, then mark it refunded here.",
  markPaymentRefunded: "Mark payment refunded",
  confirmPaymentRefund: "Mark this payment refunded? Refund it in the Stripe Dashboard first. This cannot be undone here.",
  paymentMarkedRefunded: "Payment marked refunded.",
  paymentAlreadyRefunded: "This payment was already marked refunded.",
  unknownPayment: "There is no such payment to review.",
} as const;
/** Why a payment is on the desk's list to review (payment_problems.kind). */
export const ADMIN_PAYMENT_PROBLEM_LABELS = {
  "pages-changed": "Book changed after its checkout opened: not paid, not printed",
  "amount-mismatch": "Amount differs from the order: not paid, not printed",
  "paid-twice": "Second payment for a book already paid",
} as const;
/** What /orders/{number} adds once the book has shipped. */
export const ORDER_TRACKING_SHIPPED_TEXT = {
  trackingNumber: "Tracking number",
  shippedOn: "Shipped on",
} as const;

// Detail levels (issue 9): the preview page's picker for the whole book and for each page
export const DETAIL_LEVEL_TEXT: Record<DetailLevel, { label: string; explanation: string }> = {
  simple: { label: "Simple", explanation: "Few bold lines, for young children." },
  standard: { label: "Standard", explanation: "Clear outlines with some inner detail, for most ages." },
  detailed: { label: "Detailed", explanation: "More lines and smaller shapes, for older children and grown-ups." },
};
export const DETAIL_LEVEL_MESSAGES = {
  bookPickerTitle: "Detail level",
  bookPickerIntro: "How much of each photo your pages draw. A single page can have its own level below.",
  /** The option of a page's select that follows the book. */
  followBook: (bookLevel: DetailLevel) => `Book's level (${DETAIL_LEVEL_TEXT[bookLevel].label})`,
  pageLevelLabel: (pageNumber: number) => `Detail level for page ${pageNumber}`,
  redrawing: (level: DetailLevel) => `Redrawing at ${DETAIL_LEVEL_TEXT[level].label}…`,
  pagesRedrawing: (count: number) => (count === 1 ? "1 page is being redrawn." : `${count} pages are being redrawn.`),
  nothingToRedraw: "No page needs redrawing at this level.",
  changeFailed: "We could not change the detail level. Please try again.",
  invalidLevel: "Please choose Simple, Standard or Detailed.",
  tryAgain: "Try again",
  tryAgainLabel: (filename: string) => `Try ${filename} again`,
  retryStarted: "We are trying this photo again.",
  retryFailed: "We could not try this photo again. Please try again later.",
  onlyFailedRetried: "Only a photo that failed can be tried again.",
} as const;

// Processing failures (issue 8 item 4). What a customer reads in images.error when a photo cannot
// become a page; the internal cause (D1, R2, codec text, stacks) goes to the sketch Worker's log
// only. Decoders throw these as PermanentSketchError (workers/sketch/errors.ts).
export const PROCESSING_FAILURES = {
  /** Retries used up, or an internal error we cannot name to a customer. */
  gaveUp: "We could not convert this photo after several attempts. Please try again later.",
  /** A decoder's own check of the pixel budget (decode.ts refuses with the sizes before this). */
  tooManyPixels: "This image has more pixels than we can convert. Please upload a smaller photo.",
  gifDamaged: "The GIF file is damaged or incomplete; please upload it again.",
  gifFrameOutsideScreen:
    "This GIF's picture does not fit inside its own canvas, so we cannot convert it. Please save it as JPEG or PNG and upload it again.",
  bmpDamaged: "The BMP file is damaged or incomplete; please upload it again.",
  bmpUnsupported: (what: string) =>
    `This BMP is ${what}, which we cannot convert. Please save it as JPEG or PNG and upload it again.`,
  codecDamaged: (format: string) => `The ${format} file is damaged and could not be decoded. Please upload it again.`,
} as const;
/** An image `queued` or `processing` longer than this (since images.queued_at) is stuck: the hourly sweep sends it again. */
export const PROCESSING_STUCK_MINUTES = 30;
/** Sends to the sketch queue after which the sweep stops re-queueing a stuck image and marks it failed. */
export const MAX_PROCESS_ATTEMPTS = 3;

// JPEG decoder limits (workers/sketch/jpeg/decode-luma.ts). A hostile JPEG can be a few tens of
// KB and still ask the decoder to walk a 24 MP frame thousands of times; these bound the work per
// file far above what any camera or editor writes, and the messages tell the customer what to do.
/**
 * Scans per JPEG: libjpeg's and mozjpeg's progressive scripts write 6-10, cameras 1-10; a file
 * with more is made to waste time, not to show a photo.
 */
export const JPEG_MAX_SCANS = 64;
/**
 * Work per JPEG, in passes over every coefficient of the frame: each block a scan visits counts
 * its spectral band (1 for a DC scan, Se - Ss + 1 for an AC scan), blocks skipped by an
 * end-of-band run included. A baseline JPEG is one pass, libjpeg's and mozjpeg's progressive
 * scripts about three; eight leaves room for unusual encoders and refuses a refinement-scan bomb
 * after about eight times the work of an ordinary photo.
 */
export const JPEG_MAX_COEFFICIENT_PASSES = 8;
const SAVE_AS_ORDINARY_JPEG = "Please open it in a photo app, save it again as an ordinary JPEG and upload it again.";
export const JPEG_LIMIT_MESSAGES = {
  tooManyScans: `The JPEG file has more than ${JPEG_MAX_SCANS} scans, far more than any camera or photo app writes, so we do not decode it. ${SAVE_AS_ORDINARY_JPEG}`,
  tooMuchWork: `The JPEG file would take far longer to decode than a photo of its size should (its progressive scans go over the picture again and again), so we stopped. ${SAVE_AS_ORDINARY_JPEG}`,
  /** `what` says which part is damaged, in a few words. */
  damaged: (what: string) => `The JPEG file is damaged (${what}) and could not be decoded.`,
} as const;
