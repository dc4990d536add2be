/**
 * The partner's job statuses in our words, and their order (docs/decisions/028). Lulu's run
 * CREATED ... PRODUCTION_READY (sent to print), IN_PRODUCTION, SHIPPED (DELIVERED where offered),
 * or end in REJECTED or CANCELED. An order only ever moves to a higher rank: a late or replayed
 * webhook body never moves it back.
 */
import type { PrintStatus } from "~/core/db/schema.server";

const LULU_STATUSES: Record<string, PrintStatus> = {
  CREATED: "sent",
  UNPAID: "sent",
  PAYMENT_IN_PROGRESS: "sent",
  PRODUCTION_DELAYED: "sent",
  PRODUCTION_READY: "sent",
  IN_PRODUCTION: "in-production",
  SHIPPED: "shipped",
  DELIVERED: "shipped",
  REJECTED: "rejected",
  CANCELED: "cancelled",
  CANCELLED: "cancelled",
};

/** Our status for a partner status name, or null for one we do not know (ignored). */
export function partnerStatus(name: string | undefined | null): PrintStatus | null {
  return (name && LULU_STATUSES[name.toUpperCase()]) || null;
}

/**
 * Shipped outranks everything: a book in the post is not un-shipped by a late rejection. A
 * rejection or cancellation ends a job, so no later "sent" or "in production" of it applies.
 */
export const PRINT_STATUS_RANK: Record<PrintStatus, number> = {
  sending: 0,
  "needs-attention": 0,
  sent: 1,
  "in-production": 2,
  rejected: 3,
  cancelled: 3,
  shipped: 4,
};
