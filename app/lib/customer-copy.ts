/**
 * Every word a customer (or the orders desk) reads, the product's own copy (docs/product.md §9) and what we wrote for
 * it: messages, labels, page titles, emails, the retention texts (docs/decisions/021). Import from
 * here; never retype a message elsewhere. Numbers a text states come from shop-rules.ts.
 */
import { BOOK_RETENTION_DAYS, CHECKOUT_TTL_SECONDS, CUSTOMER_PDF_LINK_DAYS, DELIVERY_COUNTRIES, type DeliveryCountry, FREE_PREVIEW_RETENTION_HOURS, MAX_PHOTOS_PER_BOOK, MAX_TRACKING_NUMBER_LENGTH, ORDER_RECORD_RETENTION_YEARS, ORDERED_BOOK_FILES_RETENTION_DAYS, PAYMENT_PROBLEM_RETENTION_YEARS, TOAST_HOTKEY, UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS, UNQUOTED_BOOK_RETENTION_DAYS, UNUSED_CHECKOUT_RETENTION_DAYS } from "./shop-rules";
import { type BookType } from "../core/catalog";
import { type DetailLevel } from "../core/engine-limits";
import { CONVERSION_ERROR_DEFAULT } from "../core/engine-messages";

export const SHOP_NAME = "Coloring Book Shop";
export const SHOP_TAGLINE = "your photos as a coloring book";
export const COUNTRY_NAMES: Record<DeliveryCountry, string> = {
  US: "United States",
  CA: "Canada",
  UK: "United Kingdom",
  AU: "Australia",
};
export const DELIVERY_RANGE_TEXT = "3-15 business days";
export const PROCESSING_TIME_TEXT = "2-3 business days";

export const BOOK_SPECS = {
  size: '8.5x11" Letter',
  binding: "Spiral binding",
  paper: "120gsm paper",
};

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
  phoneRequired: "Phone number is required",
  phoneInvalid: "Enter a phone number the carrier can call: 7 to 15 digits",
  stateRequired: "State or province is required for the United States and Canada",
  stateInvalid: "Enter the 2-letter code of the state or province, e.g. NY or ON",
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

/** Toast titles and texts of the /book/{id} pages that complete the messages above (docs/product.md §5.7-§5.9). */
export const BOOK_PAGE_MESSAGES = {
  errorTitle: "Error",
  photosNotLoaded: "Could not load your photos.",
  invalidFileTypeTitle: "Invalid file type",
  tooManyImagesTitle: "Too many images",
  uploadRejectedTitle: "Upload Rejected",
  paymentSucceededTitle: "Payment successful!",
  paymentSucceededDescription: "Your order has been placed successfully.",
  // docs/product.md §5.8: the remove-image button only shows a message and does not delete.
  removeImageUnavailable:
    "Photos can't be removed from a book yet. Leave it unselected and it won't be printed.",
  confirmationEmailNote:
    "A confirmation email with your order details and tracking information is on its way.",
  /** A payment refused because it no longer matched the book or the order (decision 018). */
  paymentNotMatched:
    "We received your payment, but it no longer matches your book as it is now, so we haven't sent the book to print. Our team will refund that payment. Please check your book and order it again.",
  // The preview page's photo range (docs/product.md §5.8): said before Create My Book, with what to do.
  photoRangeHeading: "Photos in your book",
  planPhotoRange: (planName: string, min: number, max: number) => `${planName}: ${min}-${max} photos`,
  /** A book of the /book/{id} pages with no plan chosen is priced by its selected count. */
  planByCount: (standardMax: number, premiumName: string) => `More than ${standardMax} selected sketches make it a ${premiumName}.`,
  selectMore: (count: number) => `Select ${count} more ${count === 1 ? "sketch" : "sketches"} below to continue.`,
  uploadMore: (count: number) => `Upload at least ${count} more ${count === 1 ? "photo" : "photos"}, then select them here.`,
  uploadMoreLink: "Upload more photos",
  deselect: (count: number) => `Deselect ${count} ${count === 1 ? "sketch" : "sketches"} to continue.`,
  /** The preview page opened before the upload page's Next sent the photos: it sends them itself. */
  waitingPhotosSent: (count: number) =>
    `${count === 1 ? "1 photo was" : `${count} photos were`} still waiting to be drawn, so we've started drawing ${count === 1 ? "it" : "them"} now. The sketches appear here as they're ready.`,
} as const;

/** The photo drop zones' own words; what they refuse is said by react-dropzone (docs/product.md §8). */
export const DROPZONE_TEXT = {
  dropHere: "Drop your photos here",
  chooseFiles: "Choose photos",
  nothingChosen: "No photo was chosen.",
} as const;

/** Button and heading texts of the product (used exactly as written). */
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
/** Shown in each counter while the statistics load (docs/product.md §5.1). */
export const STATS_LOADING_TEXT = "...";
export const STATS_LABELS = {
  booksCreated: "Books created",
  happyFamilies: "Unique customers",
  photosConverted: "Photos converted",
} as const;
/** The landing page's marketing copy (fixed text, docs/product.md §5.1). */
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
 * Messages of the JSON API that the product's own copy has no text for. Answers are
 * `{ message, fieldErrors? }` with a 4xx status; the product's own texts above are used wherever they exist.
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
  /** Any change of a book's photos, selection or detail levels while its checkout is open (decision 018). */
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
  conversionErrorDefault: CONVERSION_ERROR_DEFAULT,
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

/** Answers of the upload-ticket, conversion and debug calls that the product's own copy has no text for. */
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
/** docs/product.md §5: the copyright year shown is 2025. */
export const COPYRIGHT_YEAR = 2025;
/** docs/product.md §5: the footer links to our pages on these four networks. */
export const SOCIAL_LINKS = [
  { network: "Instagram", href: "https://www.instagram.com/" },
  { network: "Facebook", href: "https://www.facebook.com/" },
  { network: "Pinterest", href: "https://www.pinterest.com/" },
  { network: "TikTok", href: "https://www.tiktok.com/" },
] as const;
export type SocialNetwork = (typeof SOCIAL_LINKS)[number]["network"];
export const TOAST_REGION_LABEL = `Notifications (${TOAST_HOTKEY})`;
export const PREVIEW_FORMATS_TEXT = "JPG, PNG and WebP (GIF and BMP are accepted too)";
/** Where we can deliver today (the delivery form's countries) and where we plan to (docs/product.md §4). */
export const DELIVERY_COUNTRIES_TEXT = new Intl.ListFormat("en-GB", { type: "conjunction" }).format(
  DELIVERY_COUNTRIES.map((code) => COUNTRY_NAMES[code]),
);
/** The FAQ once named Europe, USA, Australia, Canada and Japan (docs/product.md §4); of those, these are not in the form yet. */
export const PLANNED_SHIPPING_REGIONS_TEXT = "the rest of Europe and to Japan";

/** Button texts of the storefront pages (docs/product.md §5). */
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
export const SHOP_LIMIT_MESSAGES = {
  burst: "You are going a little fast. Please wait a minute and try again.",
  daily: "You have reached today's limit for this. Please try again tomorrow, or write to us if you need more.",
} as const;

const period = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
/** 365 days reads "1 year"; other periods stay in days. */
const daysText = (days: number) => (days % 365 === 0 ? period(days / 365, "year") : period(days, "day"));

/** How long we keep what customers give us: the FAQ, the help center and the privacy notice say the same. */
export const RETENTION_TEXTS = {
  unpaidBook: `A book that is not bought is deleted ${daysText(BOOK_RETENTION_DAYS)} after it was created (${daysText(UNQUOTED_BOOK_RETENTION_DAYS)} after, if it never got a price quote), with its photos, every sketch made of them, title, message and any unpaid order. A payment that was started but never completed does not count as buying.`,
  unpaidOrderOfBoughtBook: `If you started more than one order for the same book, the orders you did not pay for (with the name and address on them) are deleted ${daysText(UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS)} after the book was paid for.`,
  paymentProblems: `If a payment could not be matched to your order as it stood (for example a book changed after its payment page opened, or paid twice), we keep a record of it (the order number, the amount and the payment's reference) to refund it, for ${period(PAYMENT_PROBLEM_RETENTION_YEARS, "year")} after the payment, as UK tax law requires, then delete it.`,
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
  carrier: "Carrier",
  carrierLink: "Follow the parcel with the carrier",
  shippedOutro: "Use the tracking number with the delivery service, or follow your order on its tracking page.",
  pdfLinkIntro: "Your book is also yours as a PDF, to print pages at home while you wait for the post:",
  pdfLinkNote: (until: string) => `The download link works until ${until}; your order's tracking page always gives you a fresh one.`,
  pdfReadySubject: (orderNumber: string) => `Your book's PDF is ready (order ${orderNumber})`,
  pdfReadyPreview: (title: string) => `“${title}” is ready to download as a PDF.`,
  pdfReadyHeading: "Your book's PDF is ready",
  pdfReadyIntro: "Your coloring book has been made into a PDF. Download it and print pages at home while the printed book is on its way.",
  questions: `Questions about your order? Write to us at ${CONTACT_EMAIL} and quote your order number.`,
  signOff: `With love, the ${SHOP_NAME} team`,
  footer: (origin: string) => `${SHOP_NAME}, ${SHOP_TAGLINE}. ${origin}`,
} as const;
/** The one status the desk shows for an order, derived from its fulfilment columns. */
export const ADMIN_ORDER_STATUS_LABELS = {
  paid: "Paid",
  "pdf-ready": "PDF ready",
  "sending-to-print": "Sending to the printer",
  "sent-to-print": "Sent to print",
  "in-production": "In production",
  "print-rejected": "Rejected by the printer",
  "print-cancelled": "Cancelled at the printer",
  "needs-attention": "Needs attention",
  shipped: "Shipped",
  refunded: "Refunded",
} as const;
/** The print partners' names on the desk (docs/decisions/028). */
export const PRINT_PARTNER_LABELS: Record<string, string> = { lulu: "Lulu", "local-test": "Local test printer" };
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
  printJob: "Printer's job",
  printReason: "Printer's reason",
  sendAgain: "Send again",
  sentAgain: "Sent to the printer again.",
  cannotSendAgain: "Only an order the printer rejected or cancelled, or that needs attention, can be sent again.",
  testPrinterLink: "Test printer",
  testPrinterTitle: "Test printer",
  testPrinterIntro:
    "Plays the print partner under npm run dev and in tests: each move calls the shop's print webhook exactly as Lulu would, signed.",
  testPrinterNoJobs: "No print jobs yet. A paid order comes here by itself once its PDF is made.",
  testPrinterMoves: { IN_PRODUCTION: "Start production", SHIPPED: "Ship with a tracking number", REJECTED: "Reject" },
  testPrinterMoved: "Moved; the shop's webhook answered:",
  testPrinterUnknownJob: "There is no such test print job.",
} as const;
/** Why a payment is on the desk's list to review (payment_problems.kind). */
export const ADMIN_PAYMENT_PROBLEM_LABELS = {
  "pages-changed": "Book changed after its checkout opened: not paid, not printed",
  "amount-mismatch": "Amount differs from the order: not paid, not printed",
  "paid-twice": "Second payment for a book already paid",
  "unknown-session": "Paid through a checkout the shop did not open for this order: not paid, not printed",
  "no-address": "Paid without a delivery address: held back from print until the address is known",
} as const;
/** The customer's own PDF of their book, to print at home (docs/decisions/028). */
export const CUSTOMER_PDF_TEXT = {
  download: "Download your book as a PDF",
  note: `Print pages at home while you wait for the post. The link works for ${CUSTOMER_PDF_LINK_DAYS} days; this page always gives you a fresh one.`,
  beingMade: "Your book's PDF is being made. Its download link will appear here and on your order page.",
  expired: "That download link has expired. Here is a fresh one.",
} as const;

/** What /orders/{number} adds once the book has shipped. */
export const ORDER_TRACKING_SHIPPED_TEXT = {
  trackingNumber: "Tracking number",
  carrier: "Carrier",
  trackingLink: "Follow the parcel",
  shippedOn: "Shipped on",
} as const;

// Detail levels (docs/product.md §5.8): the preview page's picker for the whole book and for each page
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
