/**
 * Abuse limits of the free preview, so it cannot be scripted into a free sketch service:
 * - bursts: the Workers Rate Limiting binding PREVIEW_LIMITER (wrangler.toml), per cookie
 *   session and per client address;
 * - a daily count in D1 (usage_counts), per cookie session and per hashed client address (an
 *   IPv6 client's /64, client-address.server.ts).
 * Over a limit the request is refused with 429, a clear message and Retry-After.
 */
import { sql } from "drizzle-orm";
import { IPV6_BLOCK_LIMIT_FACTOR, FREE_CONVERSIONS_PER_DAY_PER_ADDRESS, FREE_CONVERSIONS_PER_DAY_PER_SESSION, FREE_TICKETS_PER_DAY_PER_ADDRESS, FREE_TICKETS_PER_DAY_PER_SESSION } from "~/lib/shop-rules";
import { PREVIEW_API_MESSAGES } from "~/lib/customer-copy";
import { addressBlockKey, clientAddressKeyOf, clientAddressOf } from "./client-address.server";
import type { Database } from "~/core/db/database.server";
import { usageCounts, type UsageAction } from "~/core/db/schema.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import { jsonError } from "~/server/http/http.server";
import { hmacBase64Url } from "~/server/http/signing.server";

/** The period of PREVIEW_LIMITER's `simple` setting in wrangler.toml (the binding has no getter). */
export const BURST_PERIOD_SECONDS = 60;
/** Daily counters are kept this long, then the hourly cleanup drops them. */
export const USAGE_RETENTION_DAYS = 2;

/**
 * Who is asking: the cookie session, a keyed hash of the client address (its limit key) and, for
 * an IPv6 client, of its /48 (decision 024).
 */
export interface Requester {
  sessionId: string;
  addressHash: string;
  blockHash: string | null;
}

export async function requesterOf(env: Env, request: Request, sessionId: string): Promise<Requester> {
  const address = clientAddressOf(env, request);
  const block = address ? addressBlockKey(address) : null;
  return {
    sessionId,
    addressHash: await limitKeyHash(env, clientAddressKeyOf(env, request) ?? "unknown"),
    blockHash: block ? await limitKeyHash(env, block) : null,
  };
}

/** 128 bits of the HMAC: enough to keep addresses apart, useless for recovering one. */
async function limitKeyHash(env: Env, key: string): Promise<string> {
  return (await hmacBase64Url(env, `client-address|${key}`)).slice(0, 22);
}

export function tooManyRequests(message: string, retryAfterSeconds: number): Response {
  const response = jsonError(429, message);
  response.headers.set("Retry-After", String(Math.max(1, Math.ceil(retryAfterSeconds))));
  return response;
}

/** Throws 429 when this session or address has sent too many of `action` within the burst period. */
export async function requireWithinBurst(env: Env, action: UsageAction, requester: Requester): Promise<void> {
  const limiter = env.PREVIEW_LIMITER;
  if (!limiter) return;
  for (const key of [`${action}:session:${requester.sessionId}`, `${action}:address:${requester.addressHash}`]) {
    const { success } = await limiter.limit({ key });
    if (!success) throw tooManyRequests(PREVIEW_API_MESSAGES.tooManyRequests, BURST_PERIOD_SECONDS);
  }
}

interface DailyLimits {
  perSession: number;
  perAddress: number;
  message: string;
}

/**
 * DAILY_LIMIT_PER_ADDRESS, when set to a positive whole number under `npm run dev` or the tests
 * (see env.server.ts). Production ignores it: one stray variable must not lift every limit.
 */
export function addressLimitOverride(env: Env): number | null {
  if (!isLocalEnvironment(env)) return null;
  const value = Number(env.DAILY_LIMIT_PER_ADDRESS);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

function dailyLimitsFor(env: Env, action: "free-conversion" | "free-ticket" | UsageAction): DailyLimits {
  const override = addressLimitOverride(env);
  return action === "free-conversion"
    ? {
        perSession: FREE_CONVERSIONS_PER_DAY_PER_SESSION,
        perAddress: override ?? FREE_CONVERSIONS_PER_DAY_PER_ADDRESS,
        message: PREVIEW_API_MESSAGES.dailyConversionLimit,
      }
    : {
        perSession: FREE_TICKETS_PER_DAY_PER_SESSION,
        perAddress: override ?? FREE_TICKETS_PER_DAY_PER_ADDRESS,
        message: PREVIEW_API_MESSAGES.dailyTicketLimit,
      };
}

export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return (next - now.getTime()) / 1000;
}

/**
 * Counts `amount` uses of a free-preview `action` for today (UTC) against the session's and the
 * address's daily limits, or throws 429 and counts nothing.
 */
export async function countDailyUse(
  env: Env,
  db: Database,
  action: UsageAction,
  requester: Requester,
  now: Date,
  amount = 1,
): Promise<void> {
  await countUsage(db, action, requester, now, amount, dailyLimitsFor(env, action));
}

/**
 * Each counter moves by one guarded upsert, so concurrent requests cannot both take the last
 * slot; a refused request is counted nowhere. `perAddress: null` limits the session only.
 */
export async function countUsage(
  db: Database,
  action: UsageAction,
  requester: Requester,
  now: Date,
  amount: number,
  limits: { perSession: number; perAddress: number | null; message: string },
): Promise<void> {
  const day = utcDay(now);
  const counters: { subject: string; limit: number }[] = [{ subject: `session:${requester.sessionId}`, limit: limits.perSession }];
  if (limits.perAddress !== null) {
    counters.push({ subject: `address:${requester.addressHash}`, limit: limits.perAddress });
    if (requester.blockHash) {
      counters.push({ subject: `block:${requester.blockHash}`, limit: limits.perAddress * IPV6_BLOCK_LIMIT_FACTOR });
    }
  }
  const charged: string[] = [];
  for (const { subject, limit } of counters) {
    if (!(await bump(db, action, subject, day, amount, limit))) {
      // One counter is spent: give the others back what they were charged for a refused request.
      for (const chargedSubject of charged) {
        await db.run(sql`UPDATE usage_counts SET count = count - ${amount}
          WHERE action = ${action} AND subject = ${chargedSubject} AND day = ${day}`);
      }
      throw tooManyRequests(limits.message, secondsUntilNextUtcDay(now));
    }
    charged.push(subject);
  }
}

async function bump(db: Database, action: UsageAction, subject: string, day: string, amount: number, limit: number) {
  if (amount > limit) return false;
  const rows = await db
    .insert(usageCounts)
    .values({ action, subject, day, count: amount })
    .onConflictDoUpdate({
      target: [usageCounts.action, usageCounts.subject, usageCounts.day],
      set: { count: sql`${usageCounts.count} + excluded.count` },
      setWhere: sql`${usageCounts.count} + excluded.count <= ${limit}`,
    })
    .returning({ count: usageCounts.count });
  return rows.length > 0;
}
