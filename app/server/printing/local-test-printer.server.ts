/**
 * The local test printer (docs/decisions/028): plays the print partner under `npm run dev` and in
 * the tests, with no account and no key. It keeps its jobs in D1 (`local_print_jobs`), one per
 * external id, as the partner would; the desk's Test printer page moves a job on, and each move
 * reaches our webhook the way Lulu's does: a PRINT_JOB_STATUS_CHANGED body of Lulu's shape,
 * signed with Lulu-HMAC-SHA256, handed to the same handler that serves /api/print-webhook.
 */
import { desc, eq } from "drizzle-orm";
import type { TestPrinterMove } from "~/lib/admin-schemas";
import type { Database } from "~/core/db/database.server";
import { localPrintJobs, type LocalPrintJob } from "~/core/db/schema.server";
import type { PrintPartner } from "./print-partner.server";

/** Only ever used locally (development, tests), where a made-up secret is all there is. */
export const LOCAL_TEST_PRINTER_SECRET = "local-test-printer-webhook-secret";
export const LOCAL_TEST_CARRIER = "Test Post";

export function localTestPrinter(db: Database): PrintPartner {
  return {
    name: "local-test",
    webhookSecret: LOCAL_TEST_PRINTER_SECRET,
    async submitJob(request) {
      await db
        .insert(localPrintJobs)
        .values({ externalId: request.externalId, orderNumber: request.externalId.replace(/-\d+$/, ""), status: "CREATED", request: { ...request } })
        .onConflictDoNothing({ target: localPrintJobs.externalId });
      const [job] = await db.select().from(localPrintJobs).where(eq(localPrintJobs.externalId, request.externalId));
      return { id: String(job.id), status: job.status };
    },
  };
}

export async function listLocalPrintJobs(db: Database): Promise<LocalPrintJob[]> {
  return db.select().from(localPrintJobs).orderBy(desc(localPrintJobs.id)).limit(50);
}


/** Moves a job on and returns the webhook request Lulu would send for it, signed; null if no such job. */
export async function moveLocalPrintJob(db: Database, jobId: number, to: TestPrinterMove, origin: string, now: Date): Promise<Request | null> {
  const [job] = await db.select().from(localPrintJobs).where(eq(localPrintJobs.id, jobId));
  if (!job) return null;
  const trackingId = to === "SHIPPED" ? (job.trackingId ?? `TEST${String(job.id).padStart(8, "0")}`) : job.trackingId;
  await db.update(localPrintJobs).set({ status: to, trackingId }).where(eq(localPrintJobs.id, job.id));
  const body = JSON.stringify(statusChangedBody({ ...job, status: to, trackingId }, now));
  return new Request(`${origin}/api/print-webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Lulu-HMAC-SHA256": await luluSignature(body, LOCAL_TEST_PRINTER_SECRET) },
    body,
  });
}

/** The body of Lulu's PRINT_JOB_STATUS_CHANGED call for a job: `data` is the print job. */
export function statusChangedBody(job: Pick<LocalPrintJob, "id" | "externalId" | "status" | "trackingId">, now: Date) {
  const shipped = job.status === "SHIPPED";
  return {
    topic: "PRINT_JOB_STATUS_CHANGED",
    data: {
      id: job.id,
      external_id: job.externalId,
      status: {
        name: job.status,
        changed: now.toISOString(),
        messages: job.status === "REJECTED" ? { info: "The test printer rejected this job." } : {},
      },
      line_items: [
        {
          external_id: job.externalId,
          status: {
            name: job.status,
            messages: shipped
              ? {
                  carrier_name: LOCAL_TEST_CARRIER,
                  tracking_id: job.trackingId,
                  tracking_urls: [`https://tracking.example/${job.trackingId}`],
                }
              : {},
          },
        },
      ],
    },
  };
}

/** Lulu-HMAC-SHA256: the hex HMAC-SHA256 of the raw body, keyed with the secret. */
export async function luluSignature(body: string, secret: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)));
  return [...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
