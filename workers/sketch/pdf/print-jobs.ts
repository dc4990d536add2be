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
 * A create-book order is paid before its photos are drawn, so the job waits (retries with a
 * delay) while any selected image is pending or processing. A failed image is left out of the
 * book and logged. Idempotent: a PDF already stored for the order is recorded, never rebuilt.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { database, schema } from "../../../app/server/db.server";
import { retryDelaySeconds, type SketchEnv } from "../consumer";
import { printKeyFor, type PrintJob } from "./contract";
import { describeError } from "../errors";
import { writeBookPdf } from "./book-pdf";
import { R2MultipartSink } from "./sink";

export const PRINT_QUEUE = "print-jobs";
export const PRINT_DEAD_LETTER_QUEUE = "print-jobs-dlq";

/** How long to wait before looking again while the book's sketches are still being drawn. */
export const DEFAULT_SKETCH_WAIT_SECONDS = 60;

export interface PrintEnv extends SketchEnv {
  /** Overrides DEFAULT_SKETCH_WAIT_SECONDS (the tests do not wait a minute). */
  PRINT_SKETCH_WAIT_SECONDS?: string;
}

const { orders, books, images } = schema;

export type PrintOutcome =
  | { status: "stored"; key: string; pageCount: number; leftOut: number[] }
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
    message.ack();
  } catch (error) {
    console.error(`order ${orderId}: PDF attempt ${message.attempts} failed, will retry: ${describeError(error)}`);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/** Messages that used up their retries: nothing more to do automatically, so say so loudly. */
export async function handlePrintDeadLetters(batch: MessageBatch<unknown>): Promise<void> {
  for (const message of batch.messages) {
    console.error(`order ${jobOrderId(message.body) ?? "?"}: no print PDF after every retry; build it by hand or resend the job`);
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
  if (order.pdfKey && (await env.IMAGES.head(order.pdfKey))) return { status: "already-stored", key: order.pdfKey };
  // Stored by an earlier run that stopped before recording it: record it, do not rebuild.
  if (await env.IMAGES.head(key)) {
    await recordPdf(env, order.id, key, now);
    return { status: "already-stored", key };
  }

  const book = await db.query.books.findFirst({ where: eq(books.id, order.bookId) });
  if (!book) return { status: "skipped", reason: `book ${order.bookId} does not exist` };
  const selected = await db
    .select({ id: images.id, status: images.processingStatus, sketchKey: images.sketchKey, error: images.error })
    .from(images)
    .where(and(eq(images.bookId, book.id), eq(images.isSelected, true)))
    .orderBy(asc(images.id));
  const unfinished = selected.filter((image) => image.status === "pending" || image.status === "processing");
  if (unfinished.length > 0) return { status: "waiting", unfinished: unfinished.length };

  const printable = selected.filter((image) => image.status === "completed" && image.sketchKey);
  const leftOut = selected.filter((image) => !printable.includes(image));
  for (const image of leftOut) {
    console.warn(`order ${order.orderNumber}: image ${image.id} left out of the PDF (${image.status}: ${image.error ?? "no sketch"})`);
  }
  if (printable.length === 0) return { status: "skipped", reason: "the book has no drawn pages to print; needs review" };

  const sink = new R2MultipartSink(env.IMAGES, key, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { orderNumber: order.orderNumber, quantity: String(order.pricing.quantity) },
  });
  const result = await writeBookPdf(sink, {
    title: book.title,
    dedication: book.personalMessage,
    pages: printable.map((image) => () => loadSketch(env.IMAGES, image.sketchKey!)),
  });
  if (result.missingCharacters.length) {
    console.warn(`order ${order.orderNumber}: letters Helvetica cannot show were left out: ${result.missingCharacters.join(" ")}`);
  }
  if (result.lowestDpi !== null && result.lowestDpi < 300) {
    console.warn(`order ${order.orderNumber}: a page prints at ${Math.round(result.lowestDpi)} dpi (small photo)`);
  }
  await recordPdf(env, order.id, key, now);
  return { status: "stored", key, pageCount: result.pageCount, leftOut: leftOut.map((image) => image.id) };
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
