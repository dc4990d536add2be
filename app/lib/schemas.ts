/**
 * One zod schema per form, imported by the browser (remix-validated-form) and the server
 * (resource routes). The messages are the product's copy (docs/product.md §9), kept in customer-copy.ts.
 */
import { z } from "zod";
import { isSafeText } from "./text-rules";
import { BOOK_TYPES } from "../core/catalog";
import { CREATE_BOOK_MESSAGES, DETAIL_LEVEL_MESSAGES, MESSAGES } from "./customer-copy";
import { DELIVERY_COUNTRIES, MAX_CUSTOM_MESSAGE_LENGTH, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS, STATE_CODES, MAX_PERSONAL_MESSAGE_LENGTH, MAX_PHOTOS_PER_BOOK, MAX_QUANTITY, MAX_TITLE_LENGTH, MIN_QUANTITY, PAYMENT_METHODS } from "./shop-rules";
import { DETAIL_LEVELS } from "../core/engine-limits";

// "less than 100 characters" in the copy; 100 itself is allowed, 101 is refused.
export const bookFormSchema = z.object({
  title: z
    .string({ required_error: MESSAGES.titleRequired })
    .trim()
    .min(1, MESSAGES.titleRequired)
    .max(MAX_TITLE_LENGTH, MESSAGES.titleTooLong)
    .refine((title) => isSafeText(title), MESSAGES.unsafeText),
  personalMessage: z
    .string()
    .trim()
    .max(MAX_PERSONAL_MESSAGE_LENGTH, MESSAGES.messageTooLong)
    .refine((message) => isSafeText(message, { allowLineBreaks: true }), MESSAGES.unsafeText)
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type BookFormInput = z.infer<typeof bookFormSchema>;

export const deliveryCountrySchema = z.enum(DELIVERY_COUNTRIES, {
  errorMap: () => ({ message: MESSAGES.countryRequired }),
});

const requiredText = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .min(1, message)
    .max(200)
    .refine((text) => isSafeText(text), MESSAGES.unsafeText);

/** Digits with the usual separators; the carrier gets it as written. */
const phoneSchema = z
  .string({ required_error: MESSAGES.phoneRequired })
  .trim()
  .min(1, MESSAGES.phoneRequired)
  .max(30, MESSAGES.phoneInvalid)
  .refine((phone) => {
    const digits = phone.replace(/\D/g, "").length;
    return /^\+?[0-9 ().-]+$/.test(phone) && digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
  }, MESSAGES.phoneInvalid);

export const deliveryFormSchema = z
  .object({
  firstName: requiredText(MESSAGES.firstNameRequired),
  lastName: requiredText(MESSAGES.lastNameRequired),
  email: z
    .string({ required_error: MESSAGES.invalidEmail })
    .trim()
    .max(254)
    .email(MESSAGES.invalidEmail),
  address1: requiredText(MESSAGES.addressRequired),
  address2: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((value) => (value ? value : undefined)),
  city: requiredText(MESSAGES.cityRequired),
  zipCode: requiredText(MESSAGES.zipRequired).pipe(z.string().max(20)),
  country: deliveryCountrySchema,
  phone: phoneSchema,
  /** The state or province code, for the US and Canada only (the print partner needs it there). */
  stateCode: z
    .string()
    .trim()
    .max(10, MESSAGES.stateInvalid)
    .optional()
    .transform((value) => (value ? value.toUpperCase() : undefined)),
  })
  .superRefine((address, context) => {
    const codes = STATE_CODES[address.country];
    if (!codes) return;
    if (!address.stateCode) context.addIssue({ code: "custom", path: ["stateCode"], message: MESSAGES.stateRequired });
    else if (!codes.includes(address.stateCode)) context.addIssue({ code: "custom", path: ["stateCode"], message: MESSAGES.stateInvalid });
  })
  // Elsewhere a state is not part of the address: whatever was typed is not kept.
  .transform(({ stateCode, ...address }) => (STATE_CODES[address.country] ? { ...address, stateCode } : address));
export type DeliveryFormInput = z.input<typeof deliveryFormSchema>;

export const quoteRequestSchema = z.object({
  deliveryAddress: z.object({
    country: deliveryCountrySchema,
    zipCode: requiredText(MESSAGES.zipRequired).pipe(z.string().max(20)),
  }),
});

export const orderRequestSchema = z.object({
  bookId: z.coerce.number().int().positive(),
  quoteId: z.string().min(1, MESSAGES.quoteRequired),
  deliveryInfo: deliveryFormSchema,
  paymentMethod: z.enum(PAYMENT_METHODS).default("card"),
});

export const paymentRequestSchema = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS),
  paymentDetails: z.record(z.unknown()).optional(),
});

export const selectionRequestSchema = z.object({
  isSelected: z.boolean(),
});

const detailLevelSchema = z.enum(DETAIL_LEVELS, { errorMap: () => ({ message: DETAIL_LEVEL_MESSAGES.invalidLevel }) });

/** PATCH /api/books/{id}/detail: the level every page without its own is drawn at. */
export const bookDetailRequestSchema = z.object({ detailLevel: detailLevelSchema });
export type BookDetailRequest = z.infer<typeof bookDetailRequestSchema>;

/** PATCH /api/images/{imageId}/detail: the page's own level; null follows the book again. */
export const pageDetailRequestSchema = z.object({ detailLevel: detailLevelSchema.nullable() });
export type PageDetailRequest = z.infer<typeof pageDetailRequestSchema>;

/**
 * The create-book page (docs/product.md §5.4): what the visitor fills in, checked in the browser
 * before anything is uploaded and again by the server for record-book-data, the checkout session
 * and retry-payment. The photo range is the plan's (app/lib/pricing.ts).
 */
export const createBookFormSchema = z.object({
  bookType: z.enum(BOOK_TYPES),
  title: z
    .string({ required_error: CREATE_BOOK_MESSAGES.missingTitle })
    .trim()
    .min(1, CREATE_BOOK_MESSAGES.missingTitle)
    .max(MAX_TITLE_LENGTH, MESSAGES.titleTooLong)
    .refine((title) => isSafeText(title), MESSAGES.unsafeText),
  customMessage: z
    .string()
    .trim()
    .max(MAX_CUSTOM_MESSAGE_LENGTH, CREATE_BOOK_MESSAGES.customMessageTooLong)
    .refine((message) => isSafeText(message, { allowLineBreaks: true }), MESSAGES.unsafeText)
    .optional()
    .transform((value) => (value ? value : undefined)),
  quantity: z.coerce.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY),
  newsletterSignup: z.boolean().default(false),
  agreeToTerms: z.literal(true, { errorMap: () => ({ message: CREATE_BOOK_MESSAGES.agreementRequired }) }),
});
export type CreateBookFormInput = z.infer<typeof createBookFormSchema>;

const browserSessionIdSchema = z.string().trim().max(100).optional();
const photoCountSchema = z.coerce.number().int().min(0).max(MAX_PHOTOS_PER_BOOK);

/** POST /api/record-book-data (docs/product.md §6). */
export const recordBookDataSchema = createBookFormSchema.extend({
  sessionId: browserSessionIdSchema,
  nrPhotos: photoCountSchema,
});

/** POST /api/create-checkout-session: the page's fields (docs/product.md §6), plus the upload keys and the recorded checkout. */
export const createCheckoutSessionSchema = createBookFormSchema.extend({
  sessionId: browserSessionIdSchema,
  filesCount: photoCountSchema,
  uploadKeys: z.array(z.string().min(1).max(200)).max(MAX_PHOTOS_PER_BOOK),
  checkoutId: z.number().int().positive().optional(),
});

/** POST /api/retry-payment (docs/product.md §6): the saved pending order; the server finds its checkout. */
export const retryPaymentSchema = z.object({
  sessionId: browserSessionIdSchema,
  bookType: z.enum(BOOK_TYPES).optional(),
  title: z.string().max(MAX_TITLE_LENGTH).optional(),
  filesCount: photoCountSchema.optional(),
  quantity: z.coerce.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY).optional(),
  checkoutId: z.number().int().positive().optional(),
});
