/**
 * The per-address limits (decisions 012 and 024): an IPv6 client's /48 is counted beside its /64
 * with its own cap; the bytes of photos stored for books count per session and per address per
 * day; and the two local-only switches, DAILY_LIMIT_PER_ADDRESS and the client address a local
 * tool presents (X-Local-Client-Address, `npm run load`), do nothing in production.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IPV6_BLOCK_LIMIT_FACTOR, SHOP_DAILY_LIMITS } from "~/lib/shop-rules";
import { SHOP_LIMIT_MESSAGES } from "~/lib/customer-copy";
import { database } from "~/core/db/database.server";
import { books } from "~/core/db/schema.server";
import type { Env } from "~/server/http/env.server";
import { addressBlockKey, LOCAL_CLIENT_ADDRESS_HEADER } from "~/server/limits/client-address.server";
import { requesterOf, utcDay } from "~/server/limits/preview-limits.server";
import { requireShopAllowance } from "~/server/limits/shop-limits.server";
import { dbRun, pngFile, r2Keys, Visitor, type ApiError } from "./helpers";

const db = database(env.DB);
const production = { ...env, APP_ENV: "production", SESSION_SECRET: "a-production-secret-of-enough-length-0123456789" } as Env;
const BOOKS = SHOP_DAILY_LIMITS.book;
let sessions = 0;

function requestFrom(address: string, headers: Record<string, string> = {}) {
  return new Request("https://shop.example/api/books", { method: "POST", headers: { "CF-Connecting-IP": address, ...headers } });
}

/** Books for fresh sessions from `address` until `total` are counted (each session takes its whole daily cap). */
async function fillAddress(testEnv: Env, address: string, total: number) {
  for (let counted = 0; counted < total; counted += BOOKS.perSession) {
    await requireShopAllowance(testEnv, db, requestFrom(address), `limits-session-${++sessions}`, "book", Math.min(BOOKS.perSession, total - counted));
  }
}

async function refusal(promise: Promise<unknown>): Promise<Response | null> {
  return promise.then(
    () => null,
    (error: unknown) => (error instanceof Response ? error : Promise.reject(error)),
  );
}

describe("DAILY_LIMIT_PER_ADDRESS", () => {
  it("raises the per-address caps in the tests (as under npm run dev), and production ignores it", async () => {
    const raised = { DAILY_LIMIT_PER_ADDRESS: "100000" };
    await fillAddress({ ...env, ...raised } as Env, "198.51.100.41", BOOKS.perAddress);
    expect(await refusal(requireShopAllowance({ ...env, ...raised } as Env, db, requestFrom("198.51.100.41"), `limits-session-${++sessions}`, "book"))).toBeNull();
    // A count of actions: it never lowers a cap counted in bytes (a 1 MB photo under 100000 "bytes").
    const photoBytes = 1024 * 1024;
    expect(await refusal(requireShopAllowance({ ...env, ...raised } as Env, db, requestFrom("198.51.100.41"), `limits-session-${++sessions}`, "stored-bytes", photoBytes))).toBeNull();

    await fillAddress({ ...production, ...raised }, "198.51.100.42", BOOKS.perAddress);
    const refused = await refusal(requireShopAllowance({ ...production, ...raised }, db, requestFrom("198.51.100.42"), `limits-session-${++sessions}`, "book"));
    expect(refused?.status).toBe(429);
    expect(((await refused!.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
  });
});

describe("the client address a local tool presents", () => {
  it("is each request's own address in the tests, and ignored in production, where only CF-Connecting-IP counts", async () => {
    const as = (presented: string) => requestFrom("127.0.0.1", { [LOCAL_CLIENT_ADDRESS_HEADER]: presented });
    const local = [await requesterOf(env, as("10.0.0.1"), "s"), await requesterOf(env, as("10.0.0.2"), "s")];
    expect(local[0].addressHash).not.toBe(local[1].addressHash);
    expect(local[0].addressHash).toBe((await requesterOf(env, requestFrom("10.0.0.1"), "s")).addressHash);

    const deployed = [await requesterOf(production, as("10.0.0.1"), "s"), await requesterOf(production, as("10.0.0.2"), "s")];
    expect(deployed[0].addressHash).toBe(deployed[1].addressHash);
    expect(deployed[0].addressHash).toBe((await requesterOf(production, requestFrom("127.0.0.1"), "s")).addressHash);
  });

  it("through the app in the tests: visitors presenting their own addresses are counted apart", async () => {
    const create = (visitor: Visitor, address: string) =>
      visitor.fetch("/api/books", {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "127.0.0.1", [LOCAL_CLIENT_ADDRESS_HEADER]: address },
        body: JSON.stringify({ title: "Presented" }),
      });
    const spent = "192.0.2.200";
    await fillAddress(env, spent, BOOKS.perAddress);
    expect((await create(new Visitor(), spent)).status).toBe(429);
    expect((await create(new Visitor(), "192.0.2.201")).status).toBe(201);
  });
});

describe("IPv6 /48", () => {
  it("keys an IPv6 client's /48, and none for IPv4", () => {
    expect(addressBlockKey("2001:db8:1:2::1")).toBe("2001:db8:1::/48");
    expect(addressBlockKey("2001:db8:1:ffff:1:2:3:4")).toBe("2001:db8:1::/48");
    expect(addressBlockKey("2001:db8:2:2::1")).not.toBe(addressBlockKey("2001:db8:1:2::1"));
    expect(addressBlockKey("203.0.113.7")).toBeNull();
    expect(addressBlockKey("::ffff:203.0.113.7")).toBeNull();
  });

  it("walking through the /64s of one /48 stops at the /48's own cap; another /48 is not affected", async () => {
    const blockCap = BOOKS.perAddress * IPV6_BLOCK_LIMIT_FACTOR;
    for (let subnet = 1; subnet <= IPV6_BLOCK_LIMIT_FACTOR; subnet++) await fillAddress(env, `2001:db8:48:${subnet}::1`, BOOKS.perAddress);
    const fresh64 = `2001:db8:48:${IPV6_BLOCK_LIMIT_FACTOR + 1}::1`;
    const refused = await refusal(requireShopAllowance(env, db, requestFrom(fresh64), `limits-session-${++sessions}`, "book"));
    expect(refused?.status, `a new /64 of a /48 that used its ${blockCap}`).toBe(429);
    // The refused request is counted nowhere: its session and its /64 are untouched.
    const counted = await env.DB.prepare("SELECT coalesce(sum(count), 0) AS n FROM usage_counts WHERE subject = ?").bind(`session:limits-session-${sessions}`).first<number>("n");
    expect(counted ?? 0).toBe(0);
    expect(await refusal(requireShopAllowance(env, db, requestFrom("2001:db8:49:1::1"), `limits-session-${++sessions}`, "book"))).toBeNull();
  });
});

describe("stored bytes per day", () => {
  it("a book upload past the session's daily bytes: 429, no row, nothing left in R2", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook("Bytes");
    const [{ sessionId }] = await db.select({ sessionId: books.sessionId }).from(books).where(eq(books.id, bookId));
    const photo = await pngFile("one-too-many.png");
    await dbRun(
      "INSERT INTO usage_counts (action, subject, day, count) VALUES ('stored-bytes', ?, ?, ?)",
      `session:${sessionId}`,
      utcDay(new Date()),
      SHOP_DAILY_LIMITS["stored-bytes"].perSession - photo.size + 1,
    );
    const originalsBefore = await r2Keys("originals/");

    const response = await visitor.upload(bookId, [photo]);
    expect(response.status).toBe(429);
    expect(((await response.json()) as ApiError).message).toBe(SHOP_LIMIT_MESSAGES.daily);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ?").bind(bookId).first<number>("n")).toBe(0);
    expect((await r2Keys("originals/")).sort()).toEqual(originalsBefore.sort());

    await dbRun("UPDATE usage_counts SET count = count - 1 WHERE action = 'stored-bytes' AND subject = ?", `session:${sessionId}`);
    expect((await visitor.upload(bookId, [photo])).status).toBe(201);
  });
});
