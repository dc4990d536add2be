/**
 * Issue 8 item 6, with a fixed clock: books never paid for leave (rows and R2 objects) after the
 * year the privacy page promises; paid books and younger ones stay; R2 objects that no row
 * names are swept once a day old, named ones never.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BOOK_RETENTION_DAYS } from "~/lib/constants";
import { applyRetention } from "~/server/retention.server";
import { regionsKeyFor } from "../../workers/sketch/contract";
import { dbRun, pngFile, r2Keys, Visitor } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

async function bookWithPhotos(visitor: Visitor, title: string) {
  const bookId = await visitor.createBook(title);
  const images = await visitor.uploadOk(bookId, [await pngFile(`${title}-1.png`), await pngFile(`${title}-2.png`)]);
  return { bookId, keys: images.map((image) => image.originalUrl.replace("/images/", "")) };
}

describe("retention", () => {
  it("deletes unpaid books past the retention period with their photos, and keeps paid and younger ones", async () => {
    const visitor = new Visitor();
    const old = await bookWithPhotos(visitor, "old");
    const paid = await bookWithPhotos(visitor, "paid");
    const young = await bookWithPhotos(visitor, "young");
    const now = new Date();
    const longAgo = Math.floor((now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY) / 1000);
    await dbRun("UPDATE books SET created_at = ? WHERE id IN (?, ?)", longAgo, old.bookId, paid.bookId);
    await dbRun(
      `INSERT INTO orders (book_id, order_number, pricing, payment_status, order_status) VALUES (?, 'CB-TEST-PAID', '{}', 'paid', 'paid')`,
      paid.bookId,
    );

    const report = await applyRetention(env, now);
    expect(report.booksDeleted).toBe(1);
    const remaining = await env.DB.prepare("SELECT id FROM books WHERE id IN (?, ?, ?) ORDER BY id").bind(old.bookId, paid.bookId, young.bookId).all();
    expect(remaining.results.map((row) => row.id)).toEqual([paid.bookId, young.bookId]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ?").bind(old.bookId).first("n")).toBe(0);
    const stored = await r2Keys("originals/");
    for (const key of old.keys) expect(stored).not.toContain(key);
    for (const key of [...paid.keys, ...young.keys]) expect(stored).toContain(key);
  });

  it("sweeps R2 objects no row names once they are a day old, and never a named one", async () => {
    const visitor = new Visitor();
    const book = await bookWithPhotos(visitor, "named");
    await env.IMAGES.put("originals/orphan-left-by-a-dead-worker", new Uint8Array([1, 2, 3]));
    await env.IMAGES.put("sketches/orphan-sketch.png", new Uint8Array([4, 5, 6]));

    const sameDay = await applyRetention(env, new Date());
    expect(sameDay.orphansDeleted).toBe(0);
    expect(await r2Keys("originals/")).toContain("originals/orphan-left-by-a-dead-worker");

    const nextDay = await applyRetention(env, new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(nextDay.orphansDeleted).toBe(2);
    const stored = [...(await r2Keys("originals/")), ...(await r2Keys("sketches/"))];
    expect(stored).not.toContain("originals/orphan-left-by-a-dead-worker");
    expect(stored).not.toContain("sketches/orphan-sketch.png");
    for (const key of book.keys) expect(stored).toContain(key);
  });

  it("deletes a photo's region hierarchy with its book, sweeps those whose photo is gone or whose engine is old, and keeps the rest", async () => {
    const visitor = new Visitor();
    const old = await bookWithPhotos(visitor, "regions-old");
    const kept = await bookWithPhotos(visitor, "regions-kept");
    for (const key of [...old.keys, ...kept.keys]) await env.IMAGES.put(regionsKeyFor(key), new Uint8Array([1]));
    await env.IMAGES.put("regions/photo-long-gone.e7.bin", new Uint8Array([2]));
    const olderEngine = regionsKeyFor(kept.keys[0]).replace(/\.e\d+\.bin$/, ".e1.bin");
    await env.IMAGES.put(olderEngine, new Uint8Array([3]));
    const now = new Date();
    const longAgo = Math.floor((now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY) / 1000);
    await dbRun("UPDATE books SET created_at = ? WHERE id = ?", longAgo, old.bookId);

    const report = await applyRetention(env, new Date(now.getTime() + 25 * 60 * 60 * 1000));
    expect(report.booksDeleted).toBe(1);
    const stored = await r2Keys("regions/");
    for (const key of old.keys) expect(stored).not.toContain(regionsKeyFor(key));
    for (const key of kept.keys) expect(stored).toContain(regionsKeyFor(key));
    expect(stored).not.toContain("regions/photo-long-gone.e7.bin");
    expect(stored).not.toContain(olderEngine);
  });
});
