/**
 * The orphan sweep keeps every drawing a paid order (or one being paid) recorded as a page it pays
 * for, even once the page's row names another drawing (decision 018: the print job prints the
 * recorded one); a drawing nobody names is still swept.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepOrphanObjects } from "~/server/jobs/orphan-sweep.server";
import { sketchKeyFor } from "../../app/core/contracts/sketch";
import { dbRun, pngFile, r2Keys, Visitor } from "./helpers";

const LIMITS = { listPageSize: 1000, maxListPages: 10 };
const DAY_AND_AN_HOUR = 25 * 60 * 60 * 1000;

/** A book of one drawn photo whose order (in `paymentStatus`) recorded its Simple drawing; the row has since moved on to Detailed. */
async function bookPaidAtSimple(visitor: Visitor, title: string, paymentStatus: "paid" | "paying") {
  const bookId = await visitor.createBook(title);
  const [image] = await visitor.uploadOk(bookId, [await pngFile(`${title}.png`)]);
  const originalKey = image.originalUrl.replace("/images/", "");
  const recorded = sketchKeyFor(originalKey, "simple");
  await env.IMAGES.put(recorded, new Uint8Array([1]));
  await dbRun("UPDATE images SET processing_status = 'completed', sketch_key = ? WHERE id = ?", sketchKeyFor(originalKey, "detailed"), image.id);
  await dbRun(
    `INSERT INTO orders (book_id, order_number, customer_info, pricing, payment_status, print_pages)
     VALUES (?, ?, '{}', '{"pages": 1, "quantity": 1, "total": 1999, "currency": "GBP"}', ?, ?)`,
    bookId,
    `CB-SWEEP-${title}`,
    paymentStatus,
    JSON.stringify([{ imageId: image.id, detailLevel: "simple", sketchKey: recorded }]),
  );
  return { recorded, unnamed: sketchKeyFor(originalKey, "standard") };
}

describe("orphan sweep and recorded pages", () => {
  it("keeps the drawings a paid or paying order recorded, though no image row names them, and sweeps an unnamed one", async () => {
    const visitor = new Visitor();
    const paid = await bookPaidAtSimple(visitor, "paid", "paid");
    const paying = await bookPaidAtSimple(visitor, "paying", "paying");
    await env.IMAGES.put(paid.unnamed, new Uint8Array([2]));

    await sweepOrphanObjects(env, new Date(Date.now() + DAY_AND_AN_HOUR), LIMITS);

    const stored = await r2Keys("sketches/");
    expect(stored).toContain(paid.recorded);
    expect(stored).toContain(paying.recorded);
    expect(stored).not.toContain(paid.unnamed);
  });
});
