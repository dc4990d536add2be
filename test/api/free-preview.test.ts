import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FREE_CONVERSIONS_PER_DAY_PER_ADDRESS, FREE_CONVERSIONS_PER_DAY_PER_SESSION, FREE_TICKETS_PER_DAY_PER_SESSION } from "~/lib/shop-rules";
import { API_MESSAGES, MESSAGES, PREVIEW_API_MESSAGES, PREVIEW_MESSAGES } from "~/lib/customer-copy";
import { cleanUpFreePreviews } from "~/server/jobs/cleanup.server";
import { database } from "~/core/db/database.server";
import { convertUpload, latestDebugTimestamp, serveDebugFile } from "~/server/preview/free-preview.server";
import type { Env } from "~/server/http/env.server";
import { BURST_PERIOD_SECONDS, countDailyUse, type Requester } from "~/server/limits/preview-limits.server";
import { BURST_TEST_TIMEOUT_MS, dbRun, makePng, r2Keys, startOfRateLimitWindow, type ApiError } from "./helpers";
import { dataUrl, PreviewVisitor } from "./preview-helpers";
import { regionsKeyFor, sketchKeyFor } from "../../app/core/contracts/sketch";

interface ConvertAnswer {
  data: { convertedImageUrl: string };
}

async function convert(visitor: PreviewVisitor, key: string): Promise<Response> {
  return visitor.send("POST", "/api/convert-image", { id: key });
}

async function convertOk(visitor: PreviewVisitor, key: string): Promise<string> {
  const response = await convert(visitor, key);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as ConvertAnswer).data.convertedImageUrl;
}

async function messageOf(response: Response): Promise<string> {
  return ((await response.json()) as ApiError).message;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

async function expectPng(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("image/png");
  expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, 4)]).toEqual(PNG_SIGNATURE);
}

describe("POST /api/convert-image", () => {
  it("converts the uploaded photo through the sketch Worker and serves the sketch to its owner only", async () => {
    const visitor = new PreviewVisitor();
    const key = await visitor.uploaded(await makePng(160, 120));
    const url = await convertOk(visitor, key);
    expect(url).toBe(`/images/${sketchKeyFor(key)}`);
    await expectPng(await visitor.fetch(url));
    expect((await new PreviewVisitor().fetch(url)).status).toBe(404);

    const row = await env.DB.prepare("SELECT status, sketch_key, converted_at FROM uploads WHERE key = ?").bind(key).first();
    expect(row).toMatchObject({ status: "converted", sketch_key: url.slice("/images/".length) });
    // Asking again answers the same sketch without converting (or counting) again.
    expect(await convertOk(visitor, key)).toBe(url);
  });

  it("answers 404 for a stranger's upload and 409 before the upload", async () => {
    const owner = new PreviewVisitor();
    const key = await owner.uploaded(await makePng(32, 32));
    expect((await convert(new PreviewVisitor(), key)).status).toBe(404);
    const { key: unused } = await owner.ticket();
    const early = await convert(owner, unused);
    expect(early.status).toBe(409);
    expect(await messageOf(early)).toBe(PREVIEW_API_MESSAGES.notUploadedYet);
  });

  it("marks an upload failed with a customer-facing reason when it cannot be converted", async () => {
    const visitor = new PreviewVisitor();
    const key = await visitor.uploaded(await makePng(32, 32));
    await env.IMAGES.delete(key); // the original is gone: the sketch Worker says so
    const response = await convert(visitor, key);
    expect(response.status).toBe(422);
    expect(await messageOf(response)).toMatch(/missing from storage/);
    const row = await env.DB.prepare("SELECT status, error FROM uploads WHERE key = ?").bind(key).first<{ status: string; error: string }>();
    expect(row?.status).toBe("failed");
    expect(row?.error).toMatch(/upload it again/);
  });
});

describe("free-preview limits", () => {
  it(`allows ${FREE_CONVERSIONS_PER_DAY_PER_SESSION} conversions a day per session, then 429 with Retry-After`, async () => {
    const visitor = new PreviewVisitor();
    for (let i = 0; i < FREE_CONVERSIONS_PER_DAY_PER_SESSION; i++) await convertOk(visitor, await visitor.uploaded(await makePng(24, 24)));
    const key = await visitor.uploaded(await makePng(24, 24));
    const refused = await convert(visitor, key);
    expect(refused.status).toBe(429);
    expect(await messageOf(refused)).toBe(PREVIEW_API_MESSAGES.dailyConversionLimit);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT status FROM uploads WHERE key = ?").bind(key).first("status")).toBe("uploaded");
  });

  it(`allows ${FREE_CONVERSIONS_PER_DAY_PER_ADDRESS} conversions a day per client address, whatever the cookie`, async () => {
    const address = "203.0.113.77";
    for (let i = 0; i < FREE_CONVERSIONS_PER_DAY_PER_ADDRESS; i++) {
      const visitor = new PreviewVisitor(address);
      await convertOk(visitor, await visitor.uploaded(await makePng(24, 24)));
    }
    const fresh = new PreviewVisitor(address);
    const refused = await convert(fresh, await fresh.uploaded(await makePng(24, 24)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).not.toBeNull();
    // Another address is not affected.
    const neighbour = new PreviewVisitor("203.0.113.78");
    await convertOk(neighbour, await neighbour.uploaded(await makePng(24, 24)));
  });

  it("refuses a burst of ticket requests from one session with 429 and Retry-After", async () => {
    const visitor = new PreviewVisitor();
    await startOfRateLimitWindow(BURST_PERIOD_SECONDS);
    const statuses: number[] = [];
    let refused: Response | null = null;
    for (let i = 0; i < 12; i++) {
      const response = await visitor.tickets("count=1&sessionId=burst");
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(await messageOf(refused!)).toBe(PREVIEW_API_MESSAGES.tooManyRequests);
    expect(refused!.headers.get("Retry-After")).toBe("60");
  }, BURST_TEST_TIMEOUT_MS);

  it("caps free-preview tickets per day; book tickets count against the shop's own limits instead", async () => {
    const visitor = new PreviewVisitor();
    const refused = await visitor.tickets(`count=${FREE_TICKETS_PER_DAY_PER_SESSION + 1}&sessionId=s`);
    expect(refused.status).toBe(429);
    expect(await messageOf(refused)).toBe(PREVIEW_API_MESSAGES.dailyTicketLimit);
    expect((await visitor.tickets("count=50&sessionId=s&bookType=standard")).status).toBe(200);
  });

  it("counts per UTC day with a fixed clock: the sixth use is refused until midnight", async () => {
    const db = database(env.DB);
    const requester: Requester = { sessionId: "fixed-clock-session", addressHash: "fixed-clock-address", blockHash: null };
    const evening = new Date("2026-03-14T22:00:00Z");
    for (let i = 0; i < FREE_CONVERSIONS_PER_DAY_PER_SESSION; i++) await countDailyUse(env, db, "free-conversion", requester, evening);
    const refusal = await countDailyUse(env, db, "free-conversion", requester, evening).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Response);
    expect((refusal as Response).status).toBe(429);
    expect((refusal as Response).headers.get("Retry-After")).toBe(String(2 * 60 * 60));
    await expect(countDailyUse(env, db, "free-conversion", requester, new Date("2026-03-15T00:00:01Z"))).resolves.toBeUndefined();
  });
});

describe("POST /api/convert-sketch (older flow)", () => {
  it("uploads and converts a data URL in one call", async () => {
    const visitor = new PreviewVisitor();
    const response = await visitor.send("POST", "/api/convert-sketch", { imageData: dataUrl(await makePng(80, 60)), filename: "dog.png" });
    expect(response.status, await response.clone().text()).toBe(200);
    const { sketchUrl } = (await response.json()) as { sketchUrl: string };
    expect(sketchUrl).toMatch(/^\/images\/sketches\/[0-9a-f-]{36}\.e\d+-standard\.png$/);
    await expectPng(await visitor.fetch(sketchUrl));
  });

  it("answers 400 with a message, not 500, to a field that is not JSON", async () => {
    const visitor = new PreviewVisitor();
    const response = await visitor.fetch("/api/convert-sketch", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `{"imageData":${JSON.stringify(dataUrl(await makePng(16, 16)))},"filename":tru}`,
    });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(API_MESSAGES.invalidJson);
  });

  it("refuses what is not an image with the product's text", async () => {
    const visitor = new PreviewVisitor();
    const response = await visitor.send("POST", "/api/convert-sketch", {
      imageData: dataUrl(new TextEncoder().encode("plain text"), "image/jpeg"),
      filename: "notes.jpg",
    });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe(MESSAGES.unsupportedPreviewUpload("notes.jpg"));
  });
});

describe("debug view", () => {
  it("gives the owner the input, mask and sketch of the latest conversion; nobody else", async () => {
    const owner = new PreviewVisitor();
    const ownersKey = await owner.uploaded(await makePng(200, 150));
    await convertOk(owner, ownersKey);
    const answer = await owner.fetch("/api/debug-files");
    expect(answer.status).toBe(200);
    const { latest } = (await answer.json()) as { latest: number | null };
    expect(latest).toEqual(expect.any(Number));
    for (const plane of ["image", "mask", "sketch"]) {
      await expectPng(await owner.fetch(`/debug/debug-${plane}-${latest}.png`));
    }

    const stranger = new PreviewVisitor();
    expect(await (await stranger.fetch("/api/debug-files")).json()).toEqual({ latest: null });
    for (const plane of ["image", "mask", "sketch"]) {
      expect((await stranger.fetch(`/debug/debug-${plane}-${latest}.png`)).status).toBe(404);
    }
    expect((await owner.fetch(`/debug/debug-other-${latest}.png`)).status).toBe(404);

    // Production hides it unless DEBUG_VIEW says "on".
    const { session_id: sessionId } = (await env.DB.prepare("SELECT session_id FROM uploads WHERE key = ?").bind(ownersKey).first<{ session_id: string }>())!;
    const db = database(env.DB);
    const production = { ...env, APP_ENV: "production", SESSION_SECRET: "a-production-secret" };
    const hidden = await latestDebugTimestamp(production, db, sessionId).catch((error: unknown) => error);
    expect((hidden as Response).status).toBe(404);
    const request = new Request(`http://shop.test/debug/debug-image-${latest}.png`);
    const hiddenFile = await serveDebugFile(production, db, sessionId, `debug-image-${latest}.png`, request).catch((error: unknown) => error);
    expect((hiddenFile as Response).status).toBe(404);
    expect(await latestDebugTimestamp({ ...production, DEBUG_VIEW: "on" }, db, sessionId)).toBe(latest);
  });
});

describe("cleanup of free-preview uploads", () => {
  const NOW = new Date("2026-06-01T12:00:00Z");
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  const hoursBefore = (hours: number) => seconds(new Date(NOW.getTime() - hours * 3600_000));

  /**
   * The app Worker as deployed (build/index.js, what wrangler.toml runs), its `scheduled` called
   * with a controller of our own: SELF.scheduled cannot pass bindings across in this pool.
   */
  async function runCron(scheduledTime: Date) {
    const built = "../../build/index.js";
    const { default: appWorker } = (await import(/* @vite-ignore */ built)) as { default: ExportedHandler<typeof env> };
    const controller: ScheduledController = { scheduledTime: scheduledTime.getTime(), cron: "0 * * * *", noRetry() {} };
    await appWorker.scheduled!(controller, env, createExecutionContext());
  }

  async function uploadStatus(key: string) {
    return env.DB.prepare("SELECT status FROM uploads WHERE key = ?").bind(key).first("status");
  }

  it("deletes uploads over 24 hours old with their objects, keeps recent ones and those in a book", async () => {
    const visitor = new PreviewVisitor();
    const old = await visitor.uploaded(await makePng(64, 48));
    const sketchUrl = await convertOk(visitor, old);
    const recent = await visitor.uploaded(await makePng(32, 32));
    const { key: staleTicket } = await visitor.ticket();
    const { key: expiredTicket } = await visitor.ticket();
    const { key: liveTicket } = await visitor.ticket();
    const inBook = await visitor.uploaded(await makePng(32, 32));
    const { session_id: sessionId } = (await env.DB.prepare("SELECT session_id FROM uploads WHERE key = ?").bind(old).first<{ session_id: string }>())!;
    await dbRun("INSERT INTO books (session_id, title) VALUES (?, 'Kept')", sessionId);
    await dbRun("UPDATE uploads SET book_id = (SELECT max(id) FROM books) WHERE key = ?", inBook);
    for (const key of [old, staleTicket, inBook]) await dbRun("UPDATE uploads SET created_at = ? WHERE key = ?", hoursBefore(25), key);
    await dbRun("UPDATE uploads SET created_at = ? WHERE key = ?", hoursBefore(23), recent);
    await dbRun("UPDATE uploads SET created_at = ?, expires_at = ? WHERE key = ?", hoursBefore(2), hoursBefore(1), expiredTicket);
    await dbRun("UPDATE uploads SET created_at = ?, expires_at = ? WHERE key = ?", hoursBefore(0.5), hoursBefore(-0.5), liveTicket);
    const oldName = old.slice("originals/".length);
    expect(await r2Keys(`debug/${oldName}`)).toHaveLength(2);
    expect(await env.IMAGES.head(regionsKeyFor(old))).not.toBeNull();

    const report = await cleanUpFreePreviews(env, NOW);
    expect(report.uploadsDeleted).toBeGreaterThanOrEqual(3);
    expect(await uploadStatus(old)).toBeNull();
    expect(await uploadStatus(staleTicket)).toBeNull();
    expect(await uploadStatus(expiredTicket)).toBeNull();
    expect(await uploadStatus(liveTicket)).toBe("ticketed");
    expect(await env.IMAGES.head(old)).toBeNull();
    expect(await env.IMAGES.head(sketchUrl.slice("/images/".length))).toBeNull();
    expect(await r2Keys(`debug/${oldName}`)).toEqual([]);
    expect(await env.IMAGES.head(regionsKeyFor(old))).toBeNull();
    expect(await uploadStatus(recent)).toBe("uploaded");
    expect(await env.IMAGES.head(recent)).not.toBeNull();
    expect(await uploadStatus(inBook)).toBe("uploaded");
    expect(await env.IMAGES.head(inBook)).not.toBeNull();
  });

  it("runs from the Worker's scheduled handler with the trigger's time as its clock", async () => {
    const visitor = new PreviewVisitor();
    const key = await visitor.uploaded(await makePng(32, 32));
    await dbRun("UPDATE uploads SET created_at = ? WHERE key = ?", hoursBefore(2), key);
    await dbRun("INSERT INTO usage_counts (action, subject, day, count) VALUES ('free-conversion', 'old', '2026-05-28', 3)");

    // An hour later it is 3 hours old: kept. A day later it goes.
    await runCron(new Date(NOW.getTime() + 3600_000));
    expect(await uploadStatus(key)).toBe("uploaded");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM usage_counts WHERE subject = 'old'").first("n")).toBe(0);

    await runCron(new Date(NOW.getTime() + 23 * 3600_000));
    expect(await uploadStatus(key)).toBeNull();
    expect(await env.IMAGES.head(key)).toBeNull();
  });
});

describe("a conversion the platform kills", () => {
  it("tells the customer our words and marks the upload failed, never the platform's message", async () => {
    const key = `originals/${crypto.randomUUID()}.png`;
    const sessionId = `session-${crypto.randomUUID()}`;
    await env.IMAGES.put(key, await makePng(64, 48));
    await dbRun(
      `INSERT INTO uploads (key, session_id, filename, size, mime_type, width, height, status)
       VALUES (?, ?, 'photo.png', 100, 'image/png', 64, 48, 'uploaded')`,
      key,
      sessionId,
    );
    // What an RPC call answers when the sketch Worker's isolate is killed mid-conversion.
    const dying = { ...env, SKETCHER: { convert: () => Promise.reject(new Error("Network connection lost.")) } } as unknown as Env;
    const requester: Requester = { sessionId, addressHash: "test-address", blockHash: null };

    const refusal = await convertUpload(dying, database(env.DB), requester, key, new Date()).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Response);
    expect((refusal as Response).status).toBe(422);
    expect(((await (refusal as Response).json()) as ApiError).message).toBe(PREVIEW_MESSAGES.conversionErrorDefault);
    const row = await env.DB.prepare("SELECT status, error FROM uploads WHERE key = ?").bind(key).first();
    expect(row).toEqual({ status: "failed", error: PREVIEW_MESSAGES.conversionErrorDefault });
  });
});
