/**
 * Abuse limits of the shop's own actions (docs/product.md §11, decision 012): sessions cost
 * nothing to mint, so books, recorded book data, quotes, uploads, book upload tickets and
 * processing runs are limited per cookie session and per client address (client-address.server.ts):
 * bursts through the Workers Rate Limiting binding API_LIMITER, daily counts in
 * D1 (the free preview's counters, preview-limits.server.ts). Over a limit: 429 + Retry-After.
 */
import { SHOP_BURST_PERIOD_SECONDS, SHOP_DAILY_LIMITS } from "~/lib/shop-rules";
import { SHOP_LIMIT_MESSAGES } from "~/lib/customer-copy";
import type { Database } from "~/core/db/database.server";
import type { Env } from "~/server/http/env.server";
import { clientAddressKeyOf } from "./client-address.server";
import { addressLimitOverride, countUsage, requesterOf, tooManyRequests, type Requester } from "./preview-limits.server";

export type ShopAction = keyof typeof SHOP_DAILY_LIMITS;

/**
 * Counts `amount` of `action` for this visitor (one burst hit per request, whatever the amount)
 * or throws 429; answers who asked. Without CF-Connecting-IP (local runs, not through
 * Cloudflare) there is no address to limit, only the session.
 */
/** Charges the bytes about to be stored for a book against the visitor's daily bytes (429 when over). */
export type StoredBytesCharge = (bytes: number) => Promise<unknown>;

export function storedBytesCharge(env: Env, db: Database, request: Request, sessionId: string): StoredBytesCharge {
  return (bytes) => requireShopAllowance(env, db, request, sessionId, "stored-bytes", bytes);
}

export async function requireShopAllowance(
  env: Env,
  db: Database,
  request: Request,
  sessionId: string,
  action: ShopAction,
  amount = 1,
  now = new Date(),
): Promise<Requester> {
  const hasAddress = clientAddressKeyOf(env, request) !== null;
  const requester = await requesterOf(env, request, sessionId);
  if (env.API_LIMITER) {
    const keys = [`${action}:session:${sessionId}`, ...(hasAddress ? [`${action}:address:${requester.addressHash}`] : [])];
    for (const key of keys) {
      const { success } = await env.API_LIMITER.limit({ key });
      if (!success) throw tooManyRequests(SHOP_LIMIT_MESSAGES.burst, SHOP_BURST_PERIOD_SECONDS);
    }
  }
  const limits = SHOP_DAILY_LIMITS[action];
  await countUsage(db, action, requester, now, amount, {
    perSession: limits.perSession,
    // The override is a count of actions: it only ever raises a cap (never lowers the bytes cap).
    perAddress: hasAddress ? Math.max(addressLimitOverride(env) ?? 0, limits.perAddress) : null,
    message: SHOP_LIMIT_MESSAGES.daily,
  });
  return requester;
}
