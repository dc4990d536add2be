/**
 * Who prints and posts a paid book (docs/decisions/028): the interface the Lulu Print API and the
 * local test printer implement. Only types live here; `printPartnerFor` (printing.server.ts)
 * chooses one, and no partner at all means the orders desk's manual moves (decision 015).
 */
import type { CoverSize } from "~/core/contracts/print";
import type { CustomerInfo } from "~/core/db/schema.server";

export interface PrintJobRequest {
  /** Our order number (with `-2`, `-3` ... for a job sent again after a rejection): one job each. */
  externalId: string;
  title: string;
  quantity: number;
  /** Signed, expiring URLs served by the app Worker (print-files.server.ts). */
  interiorUrl: string;
  coverUrl: string;
  shipTo: CustomerInfo;
}

/** The partner's job as it answered: its id and status name (Lulu's: CREATED, IN_PRODUCTION ...). */
export interface PartnerJob {
  id: string;
  status: string;
}

export interface PrintPartner {
  readonly name: "lulu" | "local-test";
  /**
   * The job with this external id: the one the partner already holds, or a new one. Asking twice
   * (a redelivered message, a retry after a time-out) never makes a second job.
   * Throws PrintPartnerUnavailableError (try again later) or PrintJobRefusedError (will not print it).
   */
  submitJob(request: PrintJobRequest): Promise<PartnerJob>;
  /** The key the partner signs its webhook calls with (Lulu-HMAC-SHA256). */
  readonly webhookSecret: string;
  /**
   * The cover size the partner asks for its product and this many interior pages; absent: the
   * partner takes the cover our specification gives (the local test printer).
   */
  coverSize?(interiorPageCount: number): Promise<CoverSize>;
  /** What the partner will charge for the job, priced before it is sent (logged with the order). */
  jobCost?(request: PrintCostRequest): Promise<PrintCost>;
}

export interface PrintCostRequest {
  interiorPageCount: number;
  quantity: number;
  shipTo: CustomerInfo;
}

/** The partner's own figures, as it states them ("USD", "12.34"). */
export interface PrintCost {
  currency: string;
  totalInclTax: string;
}

/** The partner could not be reached or failed on its side (5xx, 429, time-out): the queue retries. */
export class PrintPartnerUnavailableError extends Error {}

/** The partner refused the job (a 4xx with its reason): the desk shows the reason and offers Send again. */
export class PrintJobRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
