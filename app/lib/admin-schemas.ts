/**
 * The orders desk's forms (/admin): one zod schema per form, used by remix-validated-form in the
 * browser and by the route's action on the server.
 */
import { z } from "zod";
import { ADMIN_TEXT } from "./customer-copy";
import { MAX_TRACKING_NUMBER_LENGTH } from "./shop-rules";

const orderNumber = z.string().trim().min(1, ADMIN_TEXT.unknownOrder).max(32, ADMIN_TEXT.unknownOrder);

export const shipOrderSchema = z.object({
  intent: z.literal("ship"),
  orderNumber,
  trackingNumber: z
    .string({ required_error: ADMIN_TEXT.trackingRequired })
    .trim()
    .min(1, ADMIN_TEXT.trackingRequired)
    .max(MAX_TRACKING_NUMBER_LENGTH, ADMIN_TEXT.trackingTooLong)
    // Shown to customers and put in an email: nothing that could be markup or a link.
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, ADMIN_TEXT.trackingInvalid),
});

/** Every action of the desk; those without input beyond the order (or payment) are plain buttons. */
export const deskActionSchema = z.discriminatedUnion("intent", [
  shipOrderSchema,
  z.object({ intent: z.literal("send-to-print"), orderNumber }),
  z.object({ intent: z.literal("refund"), orderNumber }),
  // After the printer rejected or cancelled the job, or it could not be sent (docs/decisions/028).
  z.object({ intent: z.literal("send-again"), orderNumber }),
  // A payment to review (payment_problems), refunded by hand in the Stripe Dashboard.
  z.object({
    intent: z.literal("refund-payment"),
    orderNumber,
    problemId: z.coerce.number({ invalid_type_error: ADMIN_TEXT.unknownPayment }).int(ADMIN_TEXT.unknownPayment).positive(ADMIN_TEXT.unknownPayment),
  }),
]);
export type DeskAction = z.infer<typeof deskActionSchema>;

export const adminSignInSchema = z.object({
  password: z.string({ required_error: ADMIN_TEXT.passwordRequired }).min(1, ADMIN_TEXT.passwordRequired).max(200),
});

/** The local test printer's moves (/admin/test-printer, docs/decisions/028), in Lulu's status names. */
export const TEST_PRINTER_MOVES = ["IN_PRODUCTION", "SHIPPED", "REJECTED"] as const;
export type TestPrinterMove = (typeof TEST_PRINTER_MOVES)[number];
export const testPrinterMoveSchema = z.object({
  jobId: z.coerce.number().int().positive(),
  move: z.enum(TEST_PRINTER_MOVES),
});
