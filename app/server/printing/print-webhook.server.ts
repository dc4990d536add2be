/**
 * The print partner's webhook (docs/decisions/028): PRINT_JOB_STATUS_CHANGED, signed with
 * `Lulu-HMAC-SHA256`, the hex HMAC-SHA256 of the raw body keyed with the partner's secret. The
 * signature is checked (constant time, crypto.subtle.verify) before the body is parsed. Then the
 * job's status moves its order on, never back: a replayed, late or out-of-order body changes
 * nothing, and a job we do not know is acknowledged and ignored (Lulu switches off a webhook that
 * keeps failing). Our own failure (D1 down) throws, so the partner retries later.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { API_MESSAGES } from "~/lib/customer-copy";
import type { Database } from "~/core/db/database.server";
import { orders, PRINT_STATUSES, type Order, type PrintStatus } from "~/core/db/schema.server";
import { readBodyUpTo } from "~/server/http/bytes.server";
import type { Env } from "~/server/http/env.server";
import { jsonError } from "~/server/http/http.server";
import { recordOrderEmail } from "~/server/orders/order-emails.server";
import type { PrintPartner } from "./print-partner.server";
import { partnerStatus, PRINT_STATUS_RANK } from "./print-status.server";

/** A print job's JSON is a few KB; anything far bigger is not the partner. */
const MAX_WEBHOOK_BYTES = 256 * 1024;
export const PRINT_WEBHOOK_SIGNATURE_HEADER = "Lulu-HMAC-SHA256";

export type PrintWebhookOutcome = "applied" | "unchanged" | "unknown-job" | "ignored";

export interface WebhookAnswer {
  status: number;
  body: { received?: true; outcome?: PrintWebhookOutcome; message?: string };
}

export async function handlePrintWebhook(
  env: Env,
  db: Database,
  partner: PrintPartner | null,
  request: Request,
  now = new Date(),
): Promise<WebhookAnswer> {
  if (!partner) return { status: 404, body: { message: "No print partner is configured" } };
  const signature = request.headers.get(PRINT_WEBHOOK_SIGNATURE_HEADER)?.trim() ?? "";
  if (!signature) return refuse("missing signature");
  const bytes = await readBodyUpTo(request, MAX_WEBHOOK_BYTES, () => jsonError(413, API_MESSAGES.bodyTooLarge));
  if (!(await verifySignature(bytes, signature, partner.webhookSecret))) return refuse("bad signature");

  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { status: 400, body: { message: "Body is not JSON" } };
  }
  const change = statusChange(payload);
  if (!change) return { status: 200, body: { received: true, outcome: "ignored" } };
  const outcome = await applyStatusChange(env, db, partner, change, now);
  return { status: 200, body: { received: true, outcome } };
}

function refuse(reason: string): WebhookAnswer {
  console.warn(`print webhook refused: ${reason}`);
  return { status: 401, body: { message: "Invalid signature" } };
}

/** Hex HMAC-SHA256 of the raw bytes; crypto.subtle.verify compares in constant time. */
async function verifySignature(body: Uint8Array<ArrayBuffer>, signatureHex: string, secret: string): Promise<boolean> {
  if (!secret || !/^[0-9a-fA-F]{64}$/.test(signatureHex)) return false;
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = parseInt(signatureHex.slice(i * 2, i * 2 + 2), 16);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", key, mac, body);
}

export interface StatusChange {
  jobId: string;
  status: PrintStatus;
  /** The partner's time of the change, when it says. */
  changedAt: Date | null;
  detail: string | null;
  shipment: { carrier: string | null; trackingId: string | null; trackingUrl: string | null } | null;
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null);
const asString = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);

/** The change a PRINT_JOB_STATUS_CHANGED body reports, or null for anything else. */
export function statusChange(payload: unknown): StatusChange | null {
  const root = asObject(payload);
  if (!root || root.topic !== "PRINT_JOB_STATUS_CHANGED") return null;
  const job = asObject(root.data);
  const jobId = job && (typeof job.id === "number" || typeof job.id === "string") ? String(job.id) : null;
  const statusObject = asObject(job?.status);
  const status = partnerStatus(asString(statusObject?.name));
  if (!job || !jobId || !status) return null;
  const changed = asString(statusObject?.changed);
  const changedAt = changed && !Number.isNaN(Date.parse(changed)) ? new Date(changed) : null;
  const messages = asObject(statusObject?.messages);
  const detail = messages ? Object.values(messages).filter((value): value is string => typeof value === "string").join(" ") || null : null;
  return { jobId, status, changedAt, detail: detail?.slice(0, 500) ?? null, shipment: status === "shipped" ? shipmentOf(job) : null };
}

/** Carrier, tracking id and link of a shipped job: in its line items' status messages. */
function shipmentOf(job: Json): StatusChange["shipment"] {
  const items = [...(Array.isArray(job.line_items) ? job.line_items : []), ...(Array.isArray(job.line_item_statuses) ? job.line_item_statuses : [])];
  for (const item of items) {
    const itemObject = asObject(item);
    const messages = asObject(asObject(itemObject?.status)?.messages) ?? asObject(itemObject?.messages);
    const trackingId = asString(messages?.tracking_id) ?? asString(itemObject?.tracking_id);
    if (!messages && !trackingId) continue;
    const urls = messages?.tracking_urls;
    return {
      carrier: asString(messages?.carrier_name)?.slice(0, 100) ?? null,
      trackingId: trackingId?.slice(0, 100) ?? null,
      trackingUrl: safeLink(Array.isArray(urls) ? urls[0] : urls),
    };
  }
  return { carrier: null, trackingId: null, trackingUrl: null };
}

/** Only an https link reaches a customer's page or email. */
function safeLink(value: unknown): string | null {
  const text = asString(value);
  if (!text || text.length > 500) return null;
  try {
    return new URL(text).protocol === "https:" ? text : null;
  } catch {
    return null;
  }
}

const statusesBelow = (status: PrintStatus) => PRINT_STATUSES.filter((other) => PRINT_STATUS_RANK[other] < PRINT_STATUS_RANK[status]);

export async function applyStatusChange(env: Env, db: Database, partner: PrintPartner, change: StatusChange, now: Date): Promise<PrintWebhookOutcome> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.printPartner, partner.name), eq(orders.printJobId, change.jobId)));
  if (!order) {
    console.warn(`print webhook: ${partner.name} job ${change.jobId} is no order's current job; ignored`);
    return "unknown-job";
  }
  if (!movesForward(order, change)) return "unchanged";

  const shipped = change.status === "shipped";
  const [moved] = await db
    .update(orders)
    .set({
      printStatus: change.status,
      printStatusChangedAt: change.changedAt ?? now,
      ...(change.status === "rejected" || change.status === "cancelled" ? { printStatusDetail: change.detail ?? "No reason given." } : {}),
      ...(change.status === "sent" || change.status === "in-production" ? { orderStatus: "printing" as const, sentToPrintAt: order.sentToPrintAt ?? now } : {}),
      ...(shipped
        ? {
            orderStatus: "shipped" as const,
            sentToPrintAt: order.sentToPrintAt ?? now,
            shippedAt: now,
            trackingNumber: change.shipment?.trackingId ?? null,
            carrier: change.shipment?.carrier ?? null,
            trackingUrl: change.shipment?.trackingUrl ?? null,
          }
        : {}),
    })
    .where(
      and(
        eq(orders.id, order.id),
        eq(orders.printJobId, change.jobId),
        inArray(orders.printStatus, statusesBelow(change.status)),
        ...(shipped ? [isNull(orders.shippedAt)] : []),
      ),
    )
    .returning({ id: orders.id });
  // Another delivery moved it first: nothing more to do.
  if (!moved) return "unchanged";
  if (shipped && order.paymentStatus === "paid" && !order.refundedAt) {
    try {
      await recordOrderEmail(env, db, order.id, "order-shipped");
    } catch (error) {
      console.error(`order ${order.orderNumber}: the shipped email was not recorded`, error);
    }
  }
  return "applied";
}

/** Higher rank only, and never from a body older than the last status applied. */
function movesForward(order: Order, change: StatusChange): boolean {
  if (order.shippedAt) return false;
  const current = order.printStatus;
  if (current && PRINT_STATUS_RANK[change.status] <= PRINT_STATUS_RANK[current]) return false;
  if (change.changedAt && order.printStatusChangedAt && change.changedAt < order.printStatusChangedAt) return false;
  return true;
}
