import { beforeEach, describe, expect, it } from "vitest";
import { STATS_CACHE_MAX_AGE_SECONDS } from "~/lib/shop-rules";
import { dbRun, fakeJpeg, ORIGIN, Visitor } from "./helpers";

interface Stats {
  booksCreated: number;
  happyFamilies: number;
  photosConverted: number;
}

/** The counts as the tables have them now, not as the Workers cache kept them. */
async function stats(): Promise<Stats> {
  await forgetCachedStats();
  return cachedStats();
}

async function cachedStats(path = "/api/get-stats"): Promise<Stats> {
  const response = await new Visitor().fetch("/api/get-stats");
  expect(response.status).toBe(200);
  return response.json();
}

/** The Workers cache is the app Worker's own (caches.default of the test's origin). */
async function forgetCachedStats() {
  await caches.default.delete(`${ORIGIN}/api/get-stats`);
}

describe("GET /api/get-stats", () => {
  beforeEach(forgetCachedStats);

  it("never carries a session cookie, being publicly cacheable: a shared cache would hand it to everyone", async () => {
    const newcomer = new Visitor();
    for (let i = 0; i < 2; i++) {
      // The first answer is made afresh, the second comes from the Workers cache.
      const response = await newcomer.fetch("/api/get-stats");
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toMatch(/\bpublic\b/);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    // Their first private answer gives them their session.
    await newcomer.createBook("After the stats");
    expect(newcomer.cookie).toMatch(/=/);
  });

  it("counts books, visitors with a book and completed photos as they are made", async () => {
    const before = await stats();

    const ada = new Visitor();
    const adaBook = await ada.createBook("Ada's first");
    await ada.createBook("Ada's second");
    const grace = new Visitor();
    const graceBook = await grace.createBook("Grace's book");
    // A visitor without a book is not a customer.
    await new Visitor().fetch("/api/get-stats");

    const afterBooks = await stats();
    expect(afterBooks).toEqual({
      booksCreated: before.booksCreated + 3,
      happyFamilies: before.happyFamilies + 2,
      photosConverted: before.photosConverted,
    });

    // Only completed images are converted photos: pending, processing and failed ones are not.
    const adaImages = await ada.uploadOk(adaBook, [fakeJpeg("a.jpg"), fakeJpeg("b.jpg"), fakeJpeg("c.jpg")]);
    const [graceImage] = await grace.uploadOk(graceBook, [fakeJpeg("d.jpg")]);
    expect((await stats()).photosConverted).toBe(before.photosConverted);

    await dbRun("UPDATE images SET processing_status = 'completed' WHERE id IN (?, ?)", adaImages[0].id, graceImage.id);
    await dbRun("UPDATE images SET processing_status = 'failed' WHERE id = ?", adaImages[1].id);
    await dbRun("UPDATE images SET processing_status = 'processing' WHERE id = ?", adaImages[2].id);
    expect(await stats()).toEqual({ ...afterBooks, photosConverted: before.photosConverted + 2 });
  });

  it("may be cached for a minute by anyone, since it is the same for every visitor", async () => {
    const response = await new Visitor().fetch("/api/get-stats");
    expect(response.headers.get("Cache-Control")).toBe(`public, max-age=${STATS_CACHE_MAX_AGE_SECONDS}`);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  });

  it("counts the tables once a minute, not on every anonymous call: the Workers cache answers the rest", async () => {
    const first = await cachedStats();
    await dbRun("INSERT INTO books (session_id, title) VALUES ('cache-probe', 'Counted later')");
    // Whatever the query string: a cache-busting parameter is not a new count.
    expect(await cachedStats()).toEqual(first);
    expect(await cachedStats("/api/get-stats?nocache=1")).toEqual(first);
    expect((await stats()).booksCreated).toBe(first.booksCreated + 1);
  });

  it("answers POST with 405", async () => {
    const response = await new Visitor().send("POST", "/api/get-stats", {});
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET");
  });
});
