/**
 * The print-jobs queue: one message per paid order (sent by the app Worker's confirmPayment),
 * answered with the order's print-ready PDF at print/<orderNumber>.pdf in R2 and `pdf_key` /
 * `pdf_ready_at` on the order.
 *
 * Why in the sketch Worker: it already consumes queues with the D1 and R2 bindings the job
 * needs, runs with a raised CPU limit, and is started by `npm run dev` and the tests; the
 * writer needs none of its codecs, so a Worker of its own would be one more deploy and config
 * for no gain.
 *
 * It prints the pages the payment recorded (orders.print_pages, decision 018), not whatever the book
 * has selected when the job runs. A create-book order is paid before its photos are drawn, so
 * the job waits (retries with a delay) while any of those pages is pending or processing. A
 * page that failed, or is not drawn at its paid level, is drawn again from its stored regions
 * or original; only if that fails the order stops as "needs attention" on the desk with the page
 * named: no short book is ever printed (decision 028). Idempotent: a PDF already stored for the
 * order is recorded, never rebuilt.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { database, schema, type Database } from "../../../app/core/db/database.server";
import type { Image, Order, PrintPage } from "../../../app/core/db/schema.server";
import { DEFAULT_DETAIL_LEVEL } from "../../../app/core/engine-limits";
import { drawnLevel } from "../../../app/core/contracts/sketch";
import { retryDelaySeconds, type SketchEnv } from "../consumer";
import { coverKeyFor, partnerInteriorKeyFor, printKeyFor, type PrintJob, type PrintSubmission } from "../../../app/core/contracts/print";
import { customerReason, describeError, isPermanent } from "../errors";
import { pageDetailLevel } from "../../../app/core/db/page-detail-level.server";
import { convertOriginal } from "../pipeline";
import { writeBookPdf, writeCoverPdf } from "./book-pdf";
import { R2MultipartSink } from "./sink";

export const PRINT_QUEUE = "print-jobs";
export const PRINT_DEAD_LETTER_QUEUE = "print-jobs-dlq";

/** How long to wait before looking again while the book's sketches are still being drawn. */
export const DEFAULT_SKETCH_WAIT_SECONDS = 60;

export interface PrintEnv extends SketchEnv {
  /** Overrides DEFAULT_SKETCH_WAIT_SECONDS (the tests do not wait a minute). */
  PRINT_SKETCH_WAIT_SECONDS?: string;
  /** The app Worker sends the order to the print partner once its PDF exists (decision 028). */
  PRINT_SUBMIT_QUEUE?: Queue<PrintSubmission>;
}

const { orders, books, images } = schema;

export type PrintOutcome =
  | { status: "stored"; key: string; pageCount: number }
  | { status: "already-stored"; key: string }
  | { status: "waiting"; unfinished: number }
  | { status: "skipped"; reason: string };

export async function handlePrintJobs(batch: MessageBatch<unknown>, env: PrintEnv): Promise<void> {
  // One at a time: each build holds a page image and an upload part.
  for (const message of batch.messages) await handlePrintJob(message, env);
}

async function handlePrintJob(message: Message<unknown>, env: PrintEnv): Promise<void> {
  const orderId = jobOrderId(message.body);
  if (orderId === null) {
    console.error("print job without a valid orderId; dropped", message.id, message.body);
    message.ack();
    return;
  }
  try {
    const outcome = await buildOrderPdf(env, orderId);
    if (outcome.status === "waiting") {
      console.log(`order ${orderId}: ${outcome.unfinished} sketch(es) still being drawn; the PDF waits`);
      message.retry({ delaySeconds: sketchWaitSeconds(env) });
      return;
    }
    if (outcome.status === "skipped") console.warn(`order ${orderId}: no PDF: ${outcome.reason}`);
    // The PDF exists (new or stored before): on to the printer. Sending twice is harmless (the
    // app Worker sends each order once); a failed send retries this message.
    else await env.PRINT_SUBMIT_QUEUE?.send({ orderId } satisfies PrintSubmission);
    message.ack();
  } catch (error) {
    console.error(`order ${orderId}: PDF attempt ${message.attempts} failed, will retry: ${describeError(error)}`);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/**
 * Messages that used up their retries: the order is marked "needs attention" on the desk (with
 * Send again), and the hourly cron leaves it to a person (decision 028).
 */
export async function handlePrintDeadLetters(batch: MessageBatch<unknown>, env: PrintEnv): Promise<void> {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const orderId = jobOrderId(message.body);
    console.error(`order ${orderId ?? "?"}: no print PDF after every retry`);
    if (orderId !== null) await markNeedsAttention(db, orderId, "The print PDF could not be made after every retry.");
    message.ack();
  }
}

/** Builds and records the order's PDF, or says why not (yet). */
export async function buildOrderPdf(env: PrintEnv, orderId: number, now = new Date()): Promise<PrintOutcome> {
  const db = database(env.DB);
  const order = await db.query.orders.findFirst({ where: eq(orders.id, orderId) });
  if (!order) return { status: "skipped", reason: "the order does not exist" };
  if (order.paymentStatus !== "paid") return { status: "skipped", reason: `the order is ${order.paymentStatus}, not paid` };

  const key = printKeyFor(order.orderNumber);
  const coverKey = coverKeyFor(order.orderNumber);
  // A stored PDF is never rebuilt; one stored by an earlier run that stopped before recording it
  // is only recorded. Its cover alone is made again when it is missing: the app Worker removes
  // it when the print partner asks for another cover size (decision 028).
  const storedKey = order.pdfKey && (await env.IMAGES.head(order.pdfKey)) ? order.pdfKey : (await env.IMAGES.head(key)) ? key : null;
  if (storedKey && (await env.IMAGES.head(coverKey))) {
    if (!order.pdfKey) await recordPdf(env, order.id, key, now);
    return { status: "already-stored", key: storedKey };
  }

  const book = await db.query.books.findFirst({ where: eq(books.id, order.bookId) });
  if (!book) return { status: "skipped", reason: `book ${order.bookId} does not exist` };
  const pages = await pagesToPrint(env, db, order);
  const unfinished = pages.filter((page) => page.print === "wait");
  if (unfinished.length > 0) return { status: "waiting", unfinished: unfinished.length };

  const printable = pages.flatMap(({ print }) => (typeof print === "object" && "sketchKey" in print ? [print.sketchKey] : []));
  const leftOut = pages.flatMap(({ imageId, print }) => (typeof print === "object" && "leaveOut" in print ? [{ imageId, reason: print.leaveOut }] : []));
  // No short book is ever printed: a paid page that cannot be printed stops the order for a
  // person (the desk shows it as needing attention, with the pages named), never goes out short.
  if (leftOut.length > 0 || printable.length === 0) {
    const named = await namePages(db, leftOut);
    const reason = named.length ? `Not printed: ${named.join("; ")}` : "Not printed: the book has no drawn pages";
    console.warn(`order ${order.orderNumber}: ${reason}`);
    await markNeedsAttention(db, order.id, reason);
    return { status: "skipped", reason };
  }

  // The cover first (the print partner takes it as a file of its own, decision 028): once the
  // interior is stored, a later run records it without rebuilding, so the cover must exist by then.
  if (!(await env.IMAGES.head(coverKey))) {
    const size = order.coverWidthPt && order.coverHeightPt ? { widthPt: order.coverWidthPt, heightPt: order.coverHeightPt } : undefined;
    const made = await writeCoverPdf(new R2MultipartSink(env.IMAGES, coverKey, { httpMetadata: { contentType: "application/pdf" } }), {
      title: book.title,
      front: () => loadSketch(env.IMAGES, printable[0]),
      size,
    });
    // The size it was made at, so the app Worker can hold it against the partner's.
    await db
      .update(orders)
      .set({ coverWidthPt: made.widthPt, coverHeightPt: made.heightPt })
      .where(and(eq(orders.id, order.id), isNull(orders.coverWidthPt)));
  }

  // The partner's single-sided interior, also before the plain PDF that marks the order done.
  const partnerKey = partnerInteriorKeyFor(order.orderNumber);
  if (!(await env.IMAGES.head(partnerKey))) {
    await writeBookPdf(new R2MultipartSink(env.IMAGES, partnerKey, { httpMetadata: { contentType: "application/pdf" } }), {
      title: book.title,
      dedication: book.personalMessage,
      pages: printable.map((sketchKey) => () => loadSketch(env.IMAGES, sketchKey)),
      blankBacks: true,
    });
  }

  if (storedKey) {
    if (!order.pdfKey) await recordPdf(env, order.id, key, now);
    return { status: "already-stored", key: storedKey };
  }

  const sink = new R2MultipartSink(env.IMAGES, key, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { orderNumber: order.orderNumber, quantity: String(order.pricing.quantity) },
  });
  const result = await writeBookPdf(sink, {
    title: book.title,
    dedication: book.personalMessage,
    pages: printable.map((sketchKey) => () => loadSketch(env.IMAGES, sketchKey)),
  });
  if (result.missingCharacters.length) {
    console.warn(`order ${order.orderNumber}: letters the book's fonts cannot show were left out: ${result.missingCharacters.join(" ")}`);
  }
  if (result.lowestDpi !== null && result.lowestDpi < 300) {
    console.warn(`order ${order.orderNumber}: a page prints at ${Math.round(result.lowestDpi)} dpi (small photo)`);
  }
  await recordPdf(env, order.id, key, now);
  return { status: "stored", key, pageCount: result.pageCount };
}

type PagePrint = { sketchKey: string } | "wait" | { leaveOut: string };
type PageToPrint = { imageId: number; print: PagePrint };

/**
 * What each paid page prints. An order paid before pages were recorded prints its book's
 * selection (frozen since it was paid). At most 50 pages, so one query with the ids in it.
 */
async function pagesToPrint(env: PrintEnv, db: Database, order: Order): Promise<PageToPrint[]> {
  const { printPages } = order;
  const rows = await db
    .select()
    .from(images)
    .where(
      and(
        eq(images.bookId, order.bookId),
        printPages ? inArray(images.id, printPages.map((page) => page.imageId)) : eq(images.isSelected, true),
      ),
    )
    .orderBy(asc(images.id));
  const pages: PrintPage[] =
    printPages ??
    rows.map((row) => ({ imageId: row.id, sketchKey: null, detailLevel: row.sketchKey ? drawnLevel(row.sketchKey) : DEFAULT_DETAIL_LEVEL }));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result: PageToPrint[] = [];
  for (const page of pages) result.push({ imageId: page.imageId, print: await pagePrint(env, page, byId.get(page.imageId)) });
  return result;
}

/**
 * The drawing recorded with the payment (still in R2 even if the row has moved on); for a page
 * not drawn when paid for, its drawing at the recorded level once the sketch Worker has made it.
 */
async function pagePrint(env: PrintEnv, page: PrintPage, row: Image | undefined): Promise<PagePrint> {
  if (!row) return { leaveOut: "the photo is no longer in the book" };
  if (page.sketchKey !== null && (row.sketchKey === page.sketchKey || (await env.IMAGES.head(page.sketchKey)))) {
    return { sketchKey: page.sketchKey };
  }
  if (row.processingStatus === "pending" || row.processingStatus === "processing") return "wait";
  if (page.sketchKey === null && row.processingStatus === "completed" && row.sketchKey && drawnLevel(row.sketchKey) === page.detailLevel) {
    return { sketchKey: row.sketchKey };
  }
  const problem =
    row.processingStatus === "failed"
      ? `failed: ${row.error ?? "no reason"}`
      : `the page paid for (${page.sketchKey ?? `${page.detailLevel} level`}) is not drawn`;
  return redrawPage(env, page, row, problem);
}

/**
 * No short book: a paid page that failed, or is not drawn at its paid level, is drawn again at
 * that level from the photo's stored regions, or from its original when they are gone (the book
 * is locked, so both are still there; pipeline.ts). A photo that cannot be drawn stops the order
 * for the desk with both reasons; a storage error is thrown, so the queue tries again later.
 */
async function redrawPage(env: PrintEnv, page: PrintPage, row: Image, problem: string): Promise<PagePrint> {
  let sketchKey: string;
  try {
    const drawn = await convertOriginal(env.IMAGES, row.originalKey, { detail: page.detailLevel });
    sketchKey = drawn.sketchKey;
    // The customer's page shows the drawing that is printed, unless the page has moved on since.
    if (row.processingStatus === "failed") {
      await database(env.DB)
        .update(images)
        .set({ processingStatus: "completed", sketchKey, qualityScore: drawn.qualityScore, width: drawn.width, height: drawn.height, error: null })
        .where(and(eq(images.id, row.id), eq(images.processingStatus, "failed"), sql`${pageDetailLevel} = ${page.detailLevel}`));
    }
  } catch (error) {
    if (!isPermanent(error)) throw error;
    return { leaveOut: `${problem}; drawn again: ${customerReason(error)}` };
  }
  console.warn(`photo ${row.id}: ${problem}; drawn again at ${page.detailLevel} for the print`);
  return { sketchKey };
}

/** "photo 12 (IMG_0042.jpg): failed: ...", for the desk. */
async function namePages(db: Database, pages: { imageId: number; reason: string }[]): Promise<string[]> {
  if (pages.length === 0) return [];
  const rows = await db
    .select({ id: images.id, name: images.originalFilename })
    .from(images)
    .where(inArray(images.id, pages.map((page) => page.imageId)));
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return pages.map(({ imageId, reason }) => `photo ${imageId}${names.get(imageId) ? ` (${names.get(imageId)})` : ""}: ${reason}`);
}

/** The desk shows it with Send again; the hourly cron leaves it to a person. */
async function markNeedsAttention(db: Database, orderId: number, reason: string): Promise<void> {
  await db
    .update(orders)
    .set({ printStatus: "needs-attention", printStatusDetail: reason.slice(0, 500) })
    .where(and(eq(orders.id, orderId), isNull(orders.printStatus)));
}

async function loadSketch(bucket: R2Bucket, key: string): Promise<Uint8Array> {
  const object = await bucket.get(key);
  // The row says completed but the file is gone: fail this attempt rather than print a hole.
  if (!object) throw new Error(`sketch ${key} is missing from R2`);
  return new Uint8Array(await object.arrayBuffer());
}

/** Sets pdf_key once; a second run (or a concurrent one) changes nothing. */
async function recordPdf(env: PrintEnv, orderId: number, key: string, now: Date): Promise<void> {
  await database(env.DB)
    .update(orders)
    .set({ pdfKey: key, pdfReadyAt: now })
    .where(and(eq(orders.id, orderId), isNull(orders.pdfKey)));
}

function sketchWaitSeconds(env: PrintEnv): number {
  const configured = Number(env.PRINT_SKETCH_WAIT_SECONDS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_SKETCH_WAIT_SECONDS;
}

function jobOrderId(body: unknown): number | null {
  const orderId = (body as Partial<PrintJob> | null)?.orderId;
  return typeof orderId === "number" && Number.isSafeInteger(orderId) && orderId > 0 ? orderId : null;
}
