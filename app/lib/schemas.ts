/**
 * One zod schema per form, imported by the browser (remix-validated-form) and the server
 * (resource routes). The messages are SPEC.md's product copy, kept in constants.ts.
 */
import { z } from "zod";
import {
  DELIVERY_COUNTRIES,
  MAX_PERSONAL_MESSAGE_LENGTH,
  MAX_TITLE_LENGTH,
  MESSAGES,
  PAYMENT_METHODS,
} from "./constants";

// "less than 100 characters" in the copy; 100 itself is allowed, 101 is refused.
export const bookFormSchema = z.object({
  title: z
    .string({ required_error: MESSAGES.titleRequired })
    .trim()
    .min(1, MESSAGES.titleRequired)
    .max(MAX_TITLE_LENGTH, MESSAGES.titleTooLong),
  personalMessage: z
    .string()
    .trim()
    .max(MAX_PERSONAL_MESSAGE_LENGTH, MESSAGES.messageTooLong)
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type BookFormInput = z.infer<typeof bookFormSchema>;

export const deliveryCountrySchema = z.enum(DELIVERY_COUNTRIES, {
  errorMap: () => ({ message: MESSAGES.countryRequired }),
});

const requiredText = (message: string) =>
  z.string({ required_error: message }).trim().min(1, message).max(200);

export const deliveryFormSchema = z.object({
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
});
export type DeliveryFormInput = z.infer<typeof deliveryFormSchema>;

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
