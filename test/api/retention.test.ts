/**
 * Decisions 013 and 019, with a fixed clock: books never paid for leave (rows and R2
 * objects) after the year the privacy page promises, and so do books whose payment never
 * completed; a paid book's files leave after it shipped, its order record years later; recorded
 * create-book data that made no book leaves; R2 objects that no row names are swept once a day
 * old, named ones never, and the sweep goes on each day where it stopped the day before.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  BOOK_RETENTION_DAYS,
  ORDER_RECORD_RETENTION_YEARS,
  ORDERED_BOOK_FILES_RETENTION_DAYS,
  PAYMENT_CONFIRMATION_GRACE_DAYS,
  PAYMENT_PROBLEM_RETENTION_YEARS,
  UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS,
  UNQUOTED_BOOK_RETENTION_DAYS,
  UNUSED_CHECKOUT_RETENTION_DAYS,
} from "~/lib/shop-rules";
import { RETENTION_TEXTS } from "~/lib/customer-copy";
import { PRIVACY_NOTICE } from "~/lib/content/legal";
import { listDeskOrders } from "~/server/admin/admin-orders.server";
import { database } from "~/core/db/database.server";
import { applyRetention, RETENTION_LIMITS } from "~/server/jobs/retention.server";
import { ENGINE_VERSION, regionsKeyFor, sketchKeyFor } from "../../app/core/contracts/sketch";
import { dbRun, pngFile, r2Keys, Visitor } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;
const seconds = (ms: number) => Math.floor(ms / 1000);
let orderCount = 0;

/** A paid order of `bookId` straight into D1, its fulfilment columns as given (unix seconds). */
async function paidOrder(bookId: number, columns: { paidAt: number; shippedAt?: number; refundedAt?: number; pdfKey?: string }) {
  const orderNumber = `CB-TEST-${++orderCount}`;
  await dbRun(
    `INSERT INTO orders (book_id, order_number, customer_info, pricing, payment_status, order_status, paid_at, shipped_at, refunded_at, pdf_key)
     VALUES (?, ?, ?, '{"pages": 4, "quantity": 1, "total": 1999, "currency": "GBP"}', 'paid', ?, ?, ?, ?, ?)`,
    bookId,
    orderNumber,
    JSON.stringify({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", address1: "1 Road", city: "London", zipCode: "SW1A 1AA", country: "UK" }),
    columns.shippedAt ? "shipped" : "paid",
    columns.paidAt,
    columns.shippedAt ?? null,
    columns.refundedAt ?? null,
    columns.pdfKey ?? null,
  );
  return orderNumber;
}

/** Every R2 object a book of ours can have: originals, sketches, region hierarchies (and its print PDF). */
async function storeBookFiles(book: { bookId: number; keys: string[] }, pdfKey?: string): Promise<string[]> {
  const stored: string[] = [];
  for (const key of book.keys) {
    const sketch = key.replace("originals/", "sketches/") + ".png";
    await env.IMAGES.put(sketch, new Uint8Array([1]));
    await env.IMAGES.put(regionsKeyFor(key), new Uint8Array([2]));
    await dbRun("UPDATE images SET sketch_key = ? WHERE original_key = ?", sketch, key);
    stored.push(key, sketch, regionsKeyFor(key));
  }
  if (pdfKey) {
    await env.IMAGES.put(pdfKey, new Uint8Array([3]));
    stored.push(pdfKey);
  }
  return stored;
}

async function allKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listing = await env.IMAGES.list({ cursor });
    keys.push(...listing.objects.map((object) => object.key));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return keys;
}

const count = (sql: string, ...values: unknown[]) => env.DB.prepare(sql).bind(...values).first<number>("n");

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

  it("ordered book files: photos, sketches, regions, print PDF and dedication go ORDERED_BOOK_FILES_RETENTION_DAYS after shipping or refund, or BOOK_RETENTION_DAYS after payment if never shipped; the order and its desk row stay", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const ago = (days: number) => seconds(now.getTime() - days * DAY);
    const shippedLongAgo = await bookWithPhotos(visitor, "shipped-long-ago");
    const refundedLongAgo = await bookWithPhotos(visitor, "refunded-long-ago");
    const neverShipped = await bookWithPhotos(visitor, "never-shipped");
    const shippedRecently = await bookWithPhotos(visitor, "shipped-recently");
    const paidRecently = await bookWithPhotos(visitor, "paid-recently");
    await dbRun("UPDATE books SET personal_message = 'For Grandma, with love' WHERE id IN (?, ?, ?, ?, ?)", shippedLongAgo.bookId, refundedLongAgo.bookId, neverShipped.bookId, shippedRecently.bookId, paidRecently.bookId);
    const overdue = ORDERED_BOOK_FILES_RETENTION_DAYS + 1;
    const shippedNumber = await paidOrder(shippedLongAgo.bookId, { paidAt: ago(overdue + 10), shippedAt: ago(overdue), pdfKey: "print/CB-shipped.pdf" });
    await paidOrder(refundedLongAgo.bookId, { paidAt: ago(overdue + 1), refundedAt: ago(overdue), pdfKey: "print/CB-refunded.pdf" });
    await paidOrder(neverShipped.bookId, { paidAt: ago(BOOK_RETENTION_DAYS + 1), pdfKey: "print/CB-never.pdf" });
    await paidOrder(shippedRecently.bookId, { paidAt: ago(overdue + 10), shippedAt: ago(ORDERED_BOOK_FILES_RETENTION_DAYS - 1), pdfKey: "print/CB-recent.pdf" });
    await paidOrder(paidRecently.bookId, { paidAt: ago(BOOK_RETENTION_DAYS - 1), pdfKey: "print/CB-paid.pdf" });
    // A create-book checkout made the first book: its recorded title and message go with the files.
    await dbRun(
      "INSERT INTO checkouts (session_id, book_type, title, custom_message, nr_photos, book_id) VALUES ('s', 'standard', 'shipped-long-ago', 'For Grandma', 2, ?)",
      shippedLongAgo.bookId,
    );
    const gone = [
      ...(await storeBookFiles(shippedLongAgo, "print/CB-shipped.pdf")),
      ...(await storeBookFiles(refundedLongAgo, "print/CB-refunded.pdf")),
      ...(await storeBookFiles(neverShipped, "print/CB-never.pdf")),
    ];
    const kept = [...(await storeBookFiles(shippedRecently, "print/CB-recent.pdf")), ...(await storeBookFiles(paidRecently, "print/CB-paid.pdf"))];

    await applyRetention(env, now);

    const stored = await allKeys();
    for (const key of gone) expect(stored).not.toContain(key);
    for (const key of kept) expect(stored).toContain(key);
    for (const book of [shippedLongAgo, refundedLongAgo, neverShipped]) {
      expect(await count("SELECT count(*) AS n FROM images WHERE book_id = ?", book.bookId)).toBe(0);
      // The book row stays for its order (the desk and the tracking page show its title); the dedication goes.
      const row = await env.DB.prepare("SELECT title, personal_message FROM books WHERE id = ?").bind(book.bookId).first();
      expect(row).toMatchObject({ personal_message: null });
      expect(await count("SELECT count(*) AS n FROM orders WHERE book_id = ? AND payment_status = 'paid' AND customer_info IS NOT NULL", book.bookId)).toBe(1);
    }
    expect(await count("SELECT count(*) AS n FROM checkouts WHERE book_id = ?", shippedLongAgo.bookId)).toBe(0);
    for (const book of [shippedRecently, paidRecently]) {
      expect(await count("SELECT count(*) AS n FROM images WHERE book_id = ?", book.bookId)).toBe(2);
      expect(await env.DB.prepare("SELECT personal_message FROM books WHERE id = ?").bind(book.bookId).first("personal_message")).toBe("For Grandma, with love");
    }
    const desk = await listDeskOrders(database(env.DB), 1);
    // The desk says the files are gone rather than offering a PDF link that answers 404.
    expect(desk.orders.find((order) => order.orderNumber === shippedNumber)).toMatchObject({ bookTitle: "shipped-long-ago", status: "shipped", pdfReady: false, filesDeletedAt: new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString() });
  });

  it("stale paying orders: a book whose checkout closed more than PAYMENT_CONFIRMATION_GRACE_DAYS ago counts as never paid for; a checkout still open or just closed keeps it", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const stale = await bookWithPhotos(visitor, "paying-stale");
    const claimedOnly = await bookWithPhotos(visitor, "paying-claimed-no-checkout");
    const justClosed = await bookWithPhotos(visitor, "paying-just-closed");
    const longAgo = seconds(now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY);
    await dbRun("UPDATE books SET created_at = ? WHERE id IN (?, ?, ?)", longAgo, stale.bookId, claimedOnly.bookId, justClosed.bookId);
    const pastGrace = seconds(now.getTime() - (PAYMENT_CONFIRMATION_GRACE_DAYS + 1) * DAY);
    const withinGrace = seconds(now.getTime() - (PAYMENT_CONFIRMATION_GRACE_DAYS - 1) * DAY);
    const paying = `INSERT INTO orders (book_id, order_number, pricing, payment_status, payment_session_id, payment_expires_at, payment_claimed_at, created_at)
                    VALUES (?, ?, '{}', 'paying', ?, ?, ?, ?)`;
    await dbRun(paying, stale.bookId, "CB-PAYING-1", "cs_stale", pastGrace, pastGrace, longAgo);
    // The provider call never came back: no checkout, only the claim.
    await dbRun(paying, claimedOnly.bookId, "CB-PAYING-2", null, null, pastGrace, longAgo);
    await dbRun(paying, justClosed.bookId, "CB-PAYING-3", "cs_recent", withinGrace, withinGrace, longAgo);

    await applyRetention(env, now);

    const remaining = await env.DB.prepare("SELECT id FROM books WHERE id IN (?, ?, ?) ORDER BY id").bind(stale.bookId, claimedOnly.bookId, justClosed.bookId).all();
    expect(remaining.results.map((row) => row.id)).toEqual([justClosed.bookId]);
    const stored = await r2Keys("originals/");
    for (const key of [...stale.keys, ...claimedOnly.keys]) expect(stored).not.toContain(key);
    for (const key of justClosed.keys) expect(stored).toContain(key);
  });

  it("recorded book data: a checkout row that made no book goes after UNUSED_CHECKOUT_RETENTION_DAYS, and one whose unpaid book is deleted goes with it", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const insert = "INSERT INTO checkouts (session_id, book_type, title, custom_message, nr_photos, book_id, created_at) VALUES ('s', 'standard', ?, 'Happy birthday', 5, ?, ?)";
    await dbRun(insert, "abandoned-old", null, seconds(now.getTime() - (UNUSED_CHECKOUT_RETENTION_DAYS + 1) * DAY));
    await dbRun(insert, "abandoned-today", null, seconds(now.getTime() - DAY / 2));
    const unpaid = await bookWithPhotos(visitor, "checkout-of-unpaid-book");
    await dbRun("UPDATE books SET created_at = ? WHERE id = ?", seconds(now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY), unpaid.bookId);
    await dbRun(insert, "unpaid-book", unpaid.bookId, seconds(now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY));
    const young = await bookWithPhotos(visitor, "checkout-of-young-book");
    await dbRun(insert, "young-book", young.bookId, seconds(now.getTime() - (UNUSED_CHECKOUT_RETENTION_DAYS + 1) * DAY));

    await applyRetention(env, now);

    const titles = await env.DB.prepare("SELECT title FROM checkouts ORDER BY title").all();
    expect(titles.results.map((row) => row.title)).toEqual(["abandoned-today", "young-book"]);
  });

  it("order records: a paid order, its book row, quotes and emails go ORDER_RECORD_RETENTION_YEARS after payment; younger orders stay", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const expired = await bookWithPhotos(visitor, "order-record-expired");
    const kept = await bookWithPhotos(visitor, "order-record-kept");
    const yearsAgo = (years: number, extraDays: number) => {
      const date = new Date(now);
      date.setUTCFullYear(date.getUTCFullYear() - years);
      return seconds(date.getTime() - extraDays * DAY);
    };
    await paidOrder(expired.bookId, { paidAt: yearsAgo(ORDER_RECORD_RETENTION_YEARS, 1), shippedAt: yearsAgo(ORDER_RECORD_RETENTION_YEARS, 0) });
    await paidOrder(kept.bookId, { paidAt: yearsAgo(ORDER_RECORD_RETENTION_YEARS, -1), shippedAt: yearsAgo(ORDER_RECORD_RETENTION_YEARS, -2) });
    // An order names the quote it was priced from: both go together.
    await dbRun("INSERT INTO quotes (id, book_id, country, zip_code, pricing, expires_at) VALUES ('quote-expired', ?, 'UK', 'SW1A 1AA', '{}', 0)", expired.bookId);
    await dbRun("UPDATE orders SET quote_id = 'quote-expired' WHERE book_id = ?", expired.bookId);
    for (const book of [expired, kept]) {
      await dbRun(
        `INSERT INTO order_emails (order_id, kind, to_address, subject, html, text_body, status)
         SELECT id, 'order-shipped', 'ada@example.com', 'Posted', '<p>Posted</p>', 'Posted', 'sent' FROM orders WHERE book_id = ?`,
        book.bookId,
      );
    }

    await applyRetention(env, now);

    expect(await count("SELECT count(*) AS n FROM books WHERE id = ?", expired.bookId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM orders WHERE book_id = ?", expired.bookId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM quotes WHERE id = 'quote-expired'")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM order_emails WHERE order_id NOT IN (SELECT id FROM orders)")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM orders WHERE book_id = ?", kept.bookId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM order_emails JOIN orders ON orders.id = order_emails.order_id WHERE orders.book_id = ?", kept.bookId)).toBe(1);
    const stored = await allKeys();
    // Both were paid years ago and never kept files past the rules above.
    for (const key of [...expired.keys, ...kept.keys]) expect(stored).not.toContain(key);
  });

  it("deletes every engine's and level's sketch, the recorded pages and every hierarchy with a book, not only what its rows name now", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const unpaid = await bookWithPhotos(visitor, "every-key-unpaid");
    const paid = await bookWithPhotos(visitor, "every-key-paid");
    await dbRun("UPDATE books SET created_at = ? WHERE id = ?", seconds(now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY), unpaid.bookId);
    await paidOrder(paid.bookId, { paidAt: seconds(now.getTime() - (BOOK_RETENTION_DAYS + 1) * DAY) });
    const olderEngine = `e${Number(ENGINE_VERSION.slice(1)) - 1}`;
    const everything: string[] = [];
    for (const book of [unpaid, paid]) {
      for (const original of book.keys) {
        const name = original.slice("originals/".length).replace(/\.[^.]*$/, "");
        const keys = [
          sketchKeyFor(original, "simple"),
          sketchKeyFor(original, "standard"),
          sketchKeyFor(original, "detailed"),
          `sketches/${name}.${olderEngine}-detailed.png`,
          `sketches/${name}-simple.png`, // from before engines were named in keys
          regionsKeyFor(original),
          `regions/${name}.${olderEngine}.bin`,
        ];
        for (const key of keys) await env.IMAGES.put(key, new Uint8Array([1]));
        // The row names only the page it shows now.
        await dbRun("UPDATE images SET sketch_key = ?, processing_status = 'completed' WHERE original_key = ?", sketchKeyFor(original, "simple"), original);
        everything.push(original, ...keys);
      }
      // An order recorded the pages it paid for, drawn by an older engine.
      const recorded = book.keys.map((original, i) => ({ imageId: i, detailLevel: "detailed", sketchKey: `sketches/${original.slice(10).replace(/\.[^.]*$/, "")}.${olderEngine}-detailed.png` }));
      await dbRun("UPDATE orders SET print_pages = ? WHERE book_id = ?", JSON.stringify(recorded), book.bookId);
    }

    const report = await applyRetention(env, now);
    expect(report.booksDeleted).toBeGreaterThanOrEqual(1);
    expect(report.orderedBooksCleared).toBeGreaterThanOrEqual(1);
    const stored = await allKeys();
    for (const key of everything) expect(stored, key).not.toContain(key);
  });

  it("a book that never got a quote goes UNQUOTED_BOOK_RETENTION_DAYS after it was made; a quoted or younger one stays", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const unquoted = await bookWithPhotos(visitor, "never-quoted");
    const quoted = await bookWithPhotos(visitor, "quoted");
    const younger = await bookWithPhotos(visitor, "never-quoted-younger");
    await dbRun("UPDATE books SET created_at = ? WHERE id IN (?, ?)", seconds(now.getTime() - (UNQUOTED_BOOK_RETENTION_DAYS + 1) * DAY), unquoted.bookId, quoted.bookId);
    await dbRun("UPDATE books SET created_at = ? WHERE id = ?", seconds(now.getTime() - (UNQUOTED_BOOK_RETENTION_DAYS - 1) * DAY), younger.bookId);
    await dbRun("INSERT INTO quotes (id, book_id, pricing, expires_at) VALUES (?, ?, '{}', 0)", `quote-${quoted.bookId}`, quoted.bookId);

    await applyRetention(env, now);

    const remaining = await env.DB.prepare("SELECT id FROM books WHERE id IN (?, ?, ?) ORDER BY id").bind(unquoted.bookId, quoted.bookId, younger.bookId).all();
    expect(remaining.results.map((row) => row.id)).toEqual([quoted.bookId, younger.bookId]);
    const stored = await r2Keys("originals/");
    for (const key of unquoted.keys) expect(stored).not.toContain(key);
    for (const key of [...quoted.keys, ...younger.keys]) expect(stored).toContain(key);
  });

  it("a paid book's never-paid orders go UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS after its payment, unless their checkout may still complete", async () => {
    const visitor = new Visitor();
    const now = new Date();
    const ago = (days: number) => seconds(now.getTime() - days * DAY);
    const paidLongAgo = await bookWithPhotos(visitor, "sibling-paid-long-ago");
    const paidRecently = await bookWithPhotos(visitor, "sibling-paid-recently");
    await paidOrder(paidLongAgo.bookId, { paidAt: ago(UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS + 1) });
    await paidOrder(paidRecently.bookId, { paidAt: ago(UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS - 1) });
    const sibling = `INSERT INTO orders (book_id, order_number, customer_info, pricing, payment_status, payment_expires_at, created_at)
                     VALUES (?, ?, '{"firstName":"Ada","address1":"1 Road"}', '{}', ?, ?, ?)`;
    await dbRun(sibling, paidLongAgo.bookId, "CB-SIBLING-1", "pending", null, ago(40));
    await dbRun(sibling, paidLongAgo.bookId, "CB-SIBLING-2", "failed", null, ago(40));
    await dbRun(sibling, paidRecently.bookId, "CB-SIBLING-3", "pending", null, ago(40));

    const report = await applyRetention(env, now);
    expect(report.unpaidOrdersOfPaidBooksDeleted).toBe(2);
    const left = await env.DB.prepare("SELECT order_number FROM orders WHERE order_number LIKE 'CB-SIBLING-%' ORDER BY order_number").all();
    expect(left.results.map((row) => row.order_number)).toEqual(["CB-SIBLING-3"]);
    expect(await count("SELECT count(*) AS n FROM orders WHERE book_id = ? AND payment_status = 'paid'", paidLongAgo.bookId)).toBe(1);
  });

  it("payments to review go PAYMENT_PROBLEM_RETENTION_YEARS after they arrived; younger ones stay", async () => {
    const now = new Date();
    const yearsAgo = (years: number, extraDays: number) => {
      const date = new Date(now);
      date.setUTCFullYear(date.getUTCFullYear() - years);
      return seconds(date.getTime() - extraDays * DAY);
    };
    const insert = `INSERT INTO payment_problems (order_number, session_id, kind, amount, currency, detail, created_at, refunded_at)
                    VALUES ('CB-GONE', ?, 'paid-twice', 1999, 'gbp', 'test', ?, ?)`;
    await dbRun(insert, "cs_problem_expired", yearsAgo(PAYMENT_PROBLEM_RETENTION_YEARS, 1), yearsAgo(PAYMENT_PROBLEM_RETENTION_YEARS, 0));
    await dbRun(insert, "cs_problem_kept", yearsAgo(PAYMENT_PROBLEM_RETENTION_YEARS, -1), null);

    const report = await applyRetention(env, now);
    expect(report.paymentProblemsDeleted).toBe(1);
    const left = await env.DB.prepare("SELECT session_id FROM payment_problems WHERE session_id LIKE 'cs_problem_%'").all();
    expect(left.results.map((row) => row.session_id)).toEqual(["cs_problem_kept"]);
  });

  it("orphan sweep: each run goes on after the last key the run before listed, and starts again at the first key once it reached the end", async () => {
    const now = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const limits = { ...RETENTION_LIMITS, listPageSize: 2, maxListPages: 1 };
    // Named keys sort first: a sweep that starts at the first key each day never gets past them.
    const session = "sweep-session";
    for (const key of ["originals/!named-1", "originals/!named-2", "originals/!named-3"]) {
      await env.IMAGES.put(key, new Uint8Array([1]));
      await dbRun("INSERT INTO uploads (key, session_id, status, book_id) VALUES (?, ?, 'uploaded', NULL)", key, session);
    }
    const orphans = ["originals/~orphan-1", "originals/~orphan-2", "originals/~orphan-3"];
    for (const key of orphans) await env.IMAGES.put(key, new Uint8Array([2]));
    const keysInPrefix = (await r2Keys("originals/")).length;

    await applyRetention(env, now, limits);
    expect(await r2Keys("originals/")).toEqual(expect.arrayContaining(orphans));
    let runs = 1;
    while ((await r2Keys("originals/")).some((key) => orphans.includes(key)) && runs <= keysInPrefix) {
      await applyRetention(env, now, limits);
      runs++;
    }
    const stored = await r2Keys("originals/");
    for (const key of orphans) expect(stored).not.toContain(key);
    expect(runs).toBeLessThanOrEqual(Math.ceil(keysInPrefix / limits.listPageSize));

    // Past the end the sweep wraps around: an orphan before every key is found on the next pass.
    await env.IMAGES.put("originals/!!orphan-early", new Uint8Array([3]));
    for (let run = 0; run <= Math.ceil(keysInPrefix / limits.listPageSize); run++) await applyRetention(env, now, limits);
    expect(await r2Keys("originals/")).not.toContain("originals/!!orphan-early");
    for (const key of ["originals/!named-1", "originals/!named-2", "originals/!named-3"]) expect(await r2Keys("originals/")).toContain(key);
  });

  it("privacy notice: states every retention rule with the numbers the Cron Trigger applies", () => {
    const howLong = PRIVACY_NOTICE.sections.find((section) => section.id === "how-long")!;
    const said = JSON.stringify(howLong.blocks);
    for (const text of [
      RETENTION_TEXTS.unpaidBook,
      RETENTION_TEXTS.orderedBook,
      RETENTION_TEXTS.orders,
      RETENTION_TEXTS.freePreview,
      RETENTION_TEXTS.unusedUploads,
      RETENTION_TEXTS.unpaidOrderOfBoughtBook,
      RETENTION_TEXTS.paymentProblems,
    ]) {
      expect(said).toContain(text);
    }
    expect(RETENTION_TEXTS.unpaidBook).toContain(`${UNQUOTED_BOOK_RETENTION_DAYS} days after, if it never got a price quote`);
    expect(RETENTION_TEXTS.unpaidOrderOfBoughtBook).toContain(`deleted ${UNPAID_ORDER_OF_PAID_BOOK_RETENTION_DAYS} days after the book was paid for`);
    expect(RETENTION_TEXTS.paymentProblems).toContain(`for ${PAYMENT_PROBLEM_RETENTION_YEARS} years after the payment`);
    expect(RETENTION_TEXTS.orderedBook).toContain(`${ORDERED_BOOK_FILES_RETENTION_DAYS} days after we post it`);
    expect(RETENTION_TEXTS.unpaidBook).toContain(`${BOOK_RETENTION_DAYS / 365} year after it was created`);
    expect(RETENTION_TEXTS.orders).toContain(`${ORDER_RECORD_RETENTION_YEARS} years after payment`);
    expect(RETENTION_TEXTS.unusedUploads).toContain(`after ${UNUSED_CHECKOUT_RETENTION_DAYS} days`);
  });
});
