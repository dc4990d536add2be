/**
 * The print-ready PDF (workers/sketch/pdf): the file itself, read back with a small parser
 * (test/sketch/pdf-parser.ts), the R2 multipart sink, and the print-jobs consumer on rows and
 * sketches seeded in the sketch Worker's own D1 and R2.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/sketch/index";
import { encodeGrayPng } from "../../workers/sketch/encode";
import { PAGE_HEIGHT_PT, PAGE_WIDTH_PT, SAFE_AREA, writeBookPdf, writeCoverPdf } from "../../workers/sketch/pdf/book-pdf";
import { coverKeyFor, printKeyFor, type PrintJob } from "../../app/core/contracts/print";
import { readPngForPdf } from "../../workers/sketch/pdf/png";
import { DEFAULT_SKETCH_WAIT_SECONDS, type PrintEnv } from "../../workers/sketch/pdf/print-jobs";
import { PART_SIZE, R2MultipartSink } from "../../workers/sketch/pdf/sink";
import { textWidth, toWinAnsi } from "../../workers/sketch/pdf/text";
import { bookFonts } from "../../workers/sketch/pdf/fonts";
import { database, schema } from "../../app/core/db/database.server";
import { decodeFlatePngPredicted, parsePdf, shownText } from "./pdf-parser";
import { lineArt } from "./line-art";
import { syntheticPhoto, toPng } from "./helpers";
import { sketchKeyFor } from "../../app/core/contracts/sketch";

const printEnv = env as unknown as PrintEnv;
const LETTER_WITH_BLEED = [0, 0, 630, 810];
const TRIM = [9, 9, 621, 801];

afterEach(() => vi.restoreAllMocks());

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function readObject(key: string): Promise<Uint8Array<ArrayBuffer>> {
  const object = await env.IMAGES.get(key);
  expect(object, `${key} in R2`).not.toBeNull();
  return new Uint8Array(await object!.arrayBuffer());
}

/** Where the unit square lands under a `cm` matrix: [left, bottom, right, top]. */
function placedBox(matrix: number[]) {
  const [a, b, c, d, e, f] = matrix;
  const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) => [a * u + c * v + e, b * u + d * v + f]);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function cmOf(content: string): number[] {
  const match = /q ([-\d. ]+) cm \/Im1 Do Q/.exec(content);
  expect(match, content).not.toBeNull();
  return match![1].trim().split(" ").map(Number);
}

describe("the book PDF", () => {
  it("5 sketches: 7 Letter pages with bleed, the title and dedication as text, every sketch's PNG data embedded as stored", async () => {
    const planes = [lineArt(600, 800, 1), lineArt(3300, 2550, 2), lineArt(700, 700, 3), lineArt(2550, 3300, 4), lineArt(900, 500, 5)];
    const pngs = await Promise.all(planes.map(encodeGrayPng));
    const loads: number[] = [];
    const key = "print/TEST-FIVE.pdf";
    const result = await writeBookPdf(new R2MultipartSink(env.IMAGES, key), {
      title: "Summer at Grandma's",
      dedication: "For Ada and Max,\nwho coloured every wall of the house (and the cat).",
      pages: pngs.map((png, i) => async () => (loads.push(i), png)),
    });
    expect(result).toEqual({ pageCount: 7, missingCharacters: [], lowestDpi: expect.any(Number) });
    expect(loads).toEqual([0, 1, 2, 3, 4]);

    const pdf = parsePdf(await readObject(key));
    expect(pdf.pageObjectCount).toBe(7);
    expect(pdf.pages).toHaveLength(7);
    for (const page of pdf.pages) {
      expect(page.mediaBox).toEqual(LETTER_WITH_BLEED);
      expect(page.trimBox).toEqual(TRIM);
    }
    expect([PAGE_WIDTH_PT, PAGE_HEIGHT_PT]).toEqual([630, 810]);

    expect(shownText(pdf.pages[0].content)).toEqual(["Summer at Grandma's"]);
    expect(shownText(pdf.pages[1].content).join(" ")).toBe("For Ada and Max, who coloured every wall of the house (and the cat).");
    expect(pdf.pages[0].image).toBeNull();
    expect(pdf.pages[1].image).toBeNull();

    for (const [i, page] of pdf.pages.slice(2).entries()) {
      const image = page.image!;
      expect([image.width, image.height]).toEqual([planes[i].width, planes[i].height]);
      expect(image.dictionary).toMatch(/\/ColorSpace \/DeviceGray \/BitsPerComponent 8 \/Filter \/FlateDecode/);
      expect(image.dictionary).toContain(`/DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns ${planes[i].width} >>`);
      // Not re-encoded: the stream is the PNG's IDAT data, byte for byte.
      const { idat, idatLength } = readPngForPdf(pngs[i]);
      const expected = new Uint8Array(idatLength);
      idat.reduce((at, chunk) => (expected.set(chunk, at), at + chunk.length), 0);
      expect(image.data).toEqual(expected);

      // Fitted inside the safe area, centred across it, turned when landscape.
      const matrix = cmOf(page.content);
      const [left, bottom, right, top] = placedBox(matrix);
      expect(left).toBeGreaterThanOrEqual(SAFE_AREA.left - 0.01);
      expect(bottom).toBeGreaterThanOrEqual(SAFE_AREA.bottom - 0.01);
      expect(right).toBeLessThanOrEqual(SAFE_AREA.right + 0.01);
      expect(top).toBeLessThanOrEqual(SAFE_AREA.top + 0.01);
      expect(Math.abs(left + right - (SAFE_AREA.left + SAFE_AREA.right))).toBeLessThan(0.01);
      expect(Math.abs(bottom + top - (SAFE_AREA.bottom + SAFE_AREA.top))).toBeLessThan(0.01);
      const landscape = planes[i].width > planes[i].height;
      expect(matrix[0] === 0, `page ${i + 3} turned`).toBe(landscape);
      // Fitted: it touches the safe area on two sides.
      expect(Math.max(right - left - (SAFE_AREA.right - SAFE_AREA.left), top - bottom - (SAFE_AREA.top - SAFE_AREA.bottom))).toBeCloseTo(0, 1);
      // Print size (3300 px long edge) prints at 300 dpi or more.
      if (Math.max(planes[i].width, planes[i].height) === 3300) {
        const longEdgeInches = Math.max(right - left, top - bottom) / 72;
        expect(3300 / longEdgeInches).toBeGreaterThanOrEqual(300);
      }
    }
    // The pixels come back out exactly (Flate + PNG predictors, as a viewer decodes them).
    const small = pdf.pages[2].image!;
    expect(await decodeFlatePngPredicted(small.data, small.width, small.height)).toEqual(planes[0].data);
    expect(pdf.info).toContain("/Title <FEFF");
  });

  it("embeds a 1-bit black-and-white page as stored, and it decodes back to the same pixels", async () => {
    // The engine's pages are pure black and white, which our encoder writes as 1-bit grey PNG.
    const width = 301;
    const height = 200;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 40; y < 160; y++) for (let x = 50; x < 250; x++) if (x < 54 || x > 245 || y < 44 || y > 155) data[y * width + x] = 0;
    const png = await encodeGrayPng({ width, height, data });
    expect(png[24]).toBe(1); // IHDR bit depth
    const key = "print/TEST-BILEVEL.pdf";
    await writeBookPdf(new R2MultipartSink(env.IMAGES, key), { title: "Lines", dedication: "", pages: [async () => png] });
    const image = parsePdf(await readObject(key)).pages[2].image!;
    expect(image.dictionary).toContain("/ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode");
    expect(image.dictionary).toContain(`/DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 1 /Columns ${width} >>`);
    // A viewer unfilters whole bytes of packed bits (one byte per "pixel" for the predictor).
    const packedWidth = Math.ceil(width / 8);
    const packed = await decodeFlatePngPredicted(image.data, packedWidth, height);
    const unpacked = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) unpacked[y * width + x] = (packed[y * packedWidth + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
    expect(unpacked).toEqual(data);
  });

  it("wraps a long title inside the safe area and keeps Latin letters; other scripts are left out and reported", async () => {
    const title = "Zoë's summer in Łódź, Kraków and Ålesund with Grandma Søren and the whole family";
    const png = await encodeGrayPng(lineArt(300, 400, 9));
    const key = "print/TEST-TITLE.pdf";
    const result = await writeBookPdf(new R2MultipartSink(env.IMAGES, key), {
      title,
      dedication: "Für Oma — mit Liebe. Спасибо!",
      pages: [async () => png],
    });
    expect(result.pageCount).toBe(3);
    expect(result.missingCharacters.sort()).toEqual([..."Спасибо"].sort());
    const pdf = parsePdf(await readObject(key));
    const lines = shownText(pdf.pages[0].content);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(" ")).toBe("Zoë's summer in Lódz, Kraków and Ålesund with Grandma Søren and the whole family");
    const size = Number(/\/F1 (\d+) Tf/.exec(pdf.pages[0].content)![1]);
    // Each line fits the safe area and is centred on the page (not on the off-centre safe area).
    const starts = [...pdf.pages[0].content.matchAll(/1 0 0 1 ([\d.]+) [\d.]+ Tm/g)].map((m) => Number(m[1]));
    expect(starts).toHaveLength(lines.length);
    lines.forEach((line, i) => {
      const width = textWidth(toWinAnsi(line).bytes, bookFonts().bold, size);
      expect(width).toBeLessThanOrEqual(SAFE_AREA.right - SAFE_AREA.left);
      expect(starts[i]).toBeGreaterThanOrEqual(SAFE_AREA.left);
      expect(starts[i] + width / 2).toBeCloseTo(PAGE_WIDTH_PT / 2, 1);
    });
    expect(shownText(pdf.pages[1].content).join(" ")).toBe("Für Oma \x97 mit Liebe. !"); // WinAnsi 151 is the em dash
  });
});

describe("the print PDFs' fonts", () => {
  /** Every object of a PDF written by our writer (no object streams), by number. */
  function objectsOf(bytes: Uint8Array): Map<number, string> {
    const text = new TextDecoder("latin1").decode(bytes);
    const objects = new Map<number, string>();
    for (const match of text.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) objects.set(Number(match[1]), match[2]);
    return objects;
  }
  const ref = (dictionary: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dictionary)?.[1]);

  it("are embedded: every /Font of the book and the cover is a TrueType font with a /FontDescriptor and its /FontFile2, measured with its own widths", async () => {
    const png = await encodeGrayPng(lineArt(300, 400, 12));
    await writeBookPdf(new R2MultipartSink(env.IMAGES, "print/TEST-FONTS.pdf"), { title: "Fonts", dedication: "For the printer", pages: [async () => png] });
    await writeCoverPdf(new R2MultipartSink(env.IMAGES, "print/TEST-FONTS-cover.pdf"), { title: "Fonts", front: async () => png });
    for (const key of ["print/TEST-FONTS.pdf", "print/TEST-FONTS-cover.pdf"]) {
      const objects = objectsOf(await readObject(key));
      const fonts = [...objects.values()].filter((body) => /\/Type \/Font\b/.test(body));
      expect(fonts.length, key).toBeGreaterThan(0);
      for (const font of fonts) {
        expect(font).toContain("/Subtype /TrueType");
        expect(font).not.toMatch(/\/BaseFont \/Helvetica/);
        const descriptor = objects.get(ref(font, "FontDescriptor"));
        expect(descriptor, font).toBeDefined();
        const file = objects.get(ref(descriptor!, "FontFile2"));
        expect(file, descriptor).toMatch(/^<< \/Length1 \d+ \/Filter \/FlateDecode \/Length \d+ >>\nstream\n/);
        const face = font.includes("Italic") ? bookFonts().italic : bookFonts().bold;
        expect(/\/Widths \[([\d ]+)\]/.exec(font)![1].split(" ").map(Number)).toEqual(face.widths);
      }
    }
    expect(bookFonts().bold.widths["W".charCodeAt(0) - 32]).toBeGreaterThan(0);
    expect(bookFonts().bold.postScriptName).toBe("Lato-Bold");
    expect(bookFonts().italic.italic).toBe(true);
  });
});

describe("R2MultipartSink", () => {
  it("uploads equal parts of PART_SIZE and a shorter last one, and the object is every byte written", async () => {
    const total = 2 * PART_SIZE + 12345;
    const bytes = new Uint8Array(total);
    for (let at = 0; at < total; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(total, at + 65536)));
    const partSizes: number[] = [];
    const create = env.IMAGES.createMultipartUpload.bind(env.IMAGES);
    vi.spyOn(env.IMAGES, "createMultipartUpload").mockImplementation(async (key, options) => {
      const upload = await create(key, options);
      const uploadPart = upload.uploadPart.bind(upload);
      upload.uploadPart = (number: number, value: Parameters<R2MultipartUpload["uploadPart"]>[1]) => {
        partSizes.push((value as Uint8Array).byteLength);
        return uploadPart(number, value);
      };
      return upload;
    });
    const sink = new R2MultipartSink(env.IMAGES, "print/TEST-PARTS.pdf");
    // Odd-sized writes, as the PDF writer makes them.
    for (let at = 0; at < total; at += 777_777) await sink.write(bytes.subarray(at, Math.min(total, at + 777_777)));
    await sink.close();
    expect(partSizes).toEqual([PART_SIZE, PART_SIZE, 12345]);
    // Compared by digest: a failing toEqual would print megabytes.
    const stored = await readObject("print/TEST-PARTS.pdf");
    expect(stored.length).toBe(total);
    expect(await sha256(stored)).toBe(await sha256(bytes));
  });
});

let orders = 0;

/** A paid order of a book whose selected images have these statuses (completed ones with a sketch in R2). */
async function seedPaidOrder(statuses: Array<"pending" | "processing" | "completed" | "failed">, paymentStatus: "paid" | "pending" = "paid") {
  const db = database(env.DB);
  const n = ++orders;
  const [book] = await db
    .insert(schema.books)
    .values({ sessionId: "print-test", title: `Print test ${n}`, personalMessage: "For the printer", status: "ordered" })
    .returning();
  const imageIds: number[] = [];
  for (const [i, status] of statuses.entries()) {
    const originalKey = `originals/print-${n}-${i}`;
    const sketchKey = status === "completed" ? `sketches/print-${n}-${i}.png` : null;
    if (sketchKey) await env.IMAGES.put(sketchKey, await encodeGrayPng(lineArt(240, 320, n * 10 + i)));
    const [image] = await db
      .insert(schema.images)
      .values({ bookId: book.id, originalFilename: `p${i}.jpg`, originalKey, sketchKey, isSelected: true, processingStatus: status, fileSize: 1, mimeType: "image/jpeg", error: status === "failed" ? "Not a photo" : null })
      .returning();
    imageIds.push(image.id);
  }
  // Not selected: never printed.
  await db.insert(schema.images).values({ bookId: book.id, originalFilename: "spare.jpg", originalKey: `originals/print-${n}-spare`, processingStatus: "completed", sketchKey: "sketches/none.png", fileSize: 1, mimeType: "image/jpeg" });
  const orderNumber = `CB-20261123-PRINT${n}`;
  const [order] = await db
    .insert(schema.orders)
    .values({
      bookId: book.id,
      orderNumber,
      paymentStatus,
      orderStatus: paymentStatus === "paid" ? "paid" : "placed",
      pricing: { plan: "standard", photos: statuses.length, pages: statuses.length + 2, unitPrice: 1999, quantity: 3, basePrice: 5997, processingFee: 0, shipping: 0, total: 5997, currency: "GBP" },
    })
    .returning();
  return { orderId: order.id, orderNumber, imageIds, bookId: book.id };
}

let messageIds = 0;
async function runPrintJob(orderId: number) {
  const batch = createMessageBatch<PrintJob>("print-jobs", [{ id: `print-${++messageIds}`, timestamp: new Date(), attempts: 1, body: { orderId } }]);
  const retry = vi.spyOn(batch.messages[0], "retry");
  const ctx = createExecutionContext();
  await worker.queue(batch, printEnv);
  const result = await getQueueResult(batch, ctx);
  return { acked: result.explicitAcks.length === 1, retried: result.retryMessages.length === 1, delay: retry.mock.calls[0]?.[0]?.delaySeconds };
}

const orderRow = (orderId: number) => database(env.DB).query.orders.findFirst({ where: (o, { eq }) => eq(o.id, orderId) });

describe("print-jobs consumer", () => {
  it("waits while a selected sketch is pending or processing; a page that failed stops the order as needing attention, never a short book", async () => {
    const { orderId, orderNumber, imageIds } = await seedPaidOrder(["completed", "pending", "processing", "completed"]);
    expect(await runPrintJob(orderId)).toEqual({ acked: false, retried: true, delay: DEFAULT_SKETCH_WAIT_SECONDS });
    expect(await env.IMAGES.head(printKeyFor(orderNumber))).toBeNull();
    expect((await orderRow(orderId))!.pdfKey).toBeNull();

    // The sketch Worker finishes one and gives up on the other.
    await env.DB.prepare("UPDATE images SET processing_status = 'completed', sketch_key = ? WHERE id = ?").bind(`sketches/late-${orderId}.png`, imageIds[1]).run();
    await env.IMAGES.put(`sketches/late-${orderId}.png`, await encodeGrayPng(lineArt(320, 240, 77)));
    await env.DB.prepare("UPDATE images SET processing_status = 'failed', error = 'gave up' WHERE id = ?").bind(imageIds[2]).run();
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true, retried: false });

    // Three of four paid pages could be printed: nothing is printed, and the desk is told which page.
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ pdfKey: null, printStatus: "needs-attention" });
    expect(order!.printStatusDetail).toContain(`photo ${imageIds[2]}`);
    expect(order!.printStatusDetail).toContain("failed: gave up");
    expect(await env.IMAGES.head(printKeyFor(orderNumber))).toBeNull();
  });

  it("draws a paid page that failed, or is not at its paid level, again from its original before printing: never a short book", async () => {
    const { orderId, orderNumber, imageIds } = await seedPaidOrder(["completed", "failed", "completed"]);
    const originalOf = (id: number) => env.DB.prepare("SELECT original_key FROM images WHERE id = ?").bind(id).first<string>("original_key");
    for (const id of imageIds.slice(1)) await env.IMAGES.put((await originalOf(id))!, await toPng(syntheticPhoto(640, 480, id)));
    // The third page was paid for at the detailed level; the book has it drawn at standard.
    const printPages = imageIds.map((imageId, i) => ({ imageId, detailLevel: i === 2 ? "detailed" : "standard", sketchKey: null }));
    await env.DB.prepare("UPDATE orders SET print_pages = ? WHERE id = ?").bind(JSON.stringify(printPages), orderId).run();

    expect(await runPrintJob(orderId)).toMatchObject({ acked: true, retried: false });
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ pdfKey: printKeyFor(orderNumber), printStatus: null });
    const pdf = parsePdf(await readObject(printKeyFor(orderNumber)));
    expect(pdf.pageObjectCount).toBe(2 + 3);
    // The failed page is drawn now, and the customer's page shows it.
    const redrawn = await env.DB.prepare("SELECT processing_status, sketch_key FROM images WHERE id = ?").bind(imageIds[1]).first<{ processing_status: string; sketch_key: string }>();
    expect(redrawn).toEqual({ processing_status: "completed", sketch_key: sketchKeyFor((await originalOf(imageIds[1]))!, "standard") });
    expect(await env.IMAGES.head(sketchKeyFor((await originalOf(imageIds[2]))!, "detailed"))).not.toBeNull();
  });

  it("prints every paid page once all are drawn: photos plus title and dedication, one file whatever the quantity", async () => {
    const { orderId, orderNumber } = await seedPaidOrder(["completed", "completed", "completed"]);
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true, retried: false });
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ pdfKey: printKeyFor(orderNumber), pdfReadyAt: expect.any(Date), printStatus: null });
    const object = await env.IMAGES.get(printKeyFor(orderNumber));
    expect(object!.httpMetadata?.contentType).toBe("application/pdf");
    expect(object!.customMetadata).toEqual({ orderNumber, quantity: "3" });
    const pdf = parsePdf(new Uint8Array(await object!.arrayBuffer()));
    expect(pdf.pageObjectCount).toBe(5);
  });

  it("never rebuilds a stored PDF: a repeat changes nothing, and a stored but unrecorded PDF is only recorded", async () => {
    const { orderId, orderNumber } = await seedPaidOrder(["completed", "completed"]);
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true });
    const first = await env.IMAGES.head(printKeyFor(orderNumber));
    const recorded = await orderRow(orderId);

    expect(await runPrintJob(orderId)).toMatchObject({ acked: true });
    const second = await env.IMAGES.head(printKeyFor(orderNumber));
    expect([second!.etag, second!.uploaded.getTime()]).toEqual([first!.etag, first!.uploaded.getTime()]);
    expect(await orderRow(orderId)).toEqual(recorded);

    // An earlier run stored the file and stopped before the UPDATE.
    await env.DB.prepare("UPDATE orders SET pdf_key = NULL, pdf_ready_at = NULL WHERE id = ?").bind(orderId).run();
    const put = vi.spyOn(env.IMAGES, "createMultipartUpload");
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true });
    expect(put).not.toHaveBeenCalled();
    expect((await orderRow(orderId))!.pdfKey).toBe(printKeyFor(orderNumber));
    expect((await env.IMAGES.head(printKeyFor(orderNumber)))!.etag).toBe(first!.etag);
  });

  it("prints the pages the payment recorded, not whatever the book has selected when the PDF is built", async () => {
    const { orderId, orderNumber, imageIds } = await seedPaidOrder(["completed", "completed", "completed"]);
    // The payment recorded two pages: the first at the sketch it was paid for, the second as drawn.
    const paidSketch = `sketches/paid-${orderId}.png`;
    await env.IMAGES.put(paidSketch, await encodeGrayPng(lineArt(400, 300, 91)));
    const second = await env.DB.prepare("SELECT sketch_key FROM images WHERE id = ?").bind(imageIds[1]).first<string>("sketch_key");
    const printPages = [
      { imageId: imageIds[0], sketchKey: paidSketch },
      { imageId: imageIds[1], sketchKey: second },
    ];
    await env.DB.prepare("UPDATE orders SET print_pages = ? WHERE id = ?").bind(JSON.stringify(printPages), orderId).run();
    // Behind the lock's back the first page moved on to another sketch (never stored), and the third
    // photo is selected too: neither reaches the print.
    await env.DB.prepare("UPDATE images SET sketch_key = 'sketches/moved-on.png' WHERE id = ?").bind(imageIds[0]).run();

    expect(await runPrintJob(orderId)).toMatchObject({ acked: true, retried: false });
    const pdf = parsePdf(await readObject(printKeyFor(orderNumber)));
    expect(pdf.pageObjectCount).toBe(2 + 2);
    expect(pdf.pages.slice(2).map((page) => [page.image!.width, page.image!.height])).toEqual([[400, 300], [240, 320]]);
  });

  it("makes the cover at the size the order records from the printer, and makes a removed cover again without rebuilding the stored PDF", async () => {
    const { orderId, orderNumber } = await seedPaidOrder(["completed", "completed"]);
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true });
    expect(await orderRow(orderId)).toMatchObject({ coverWidthPt: 1242, coverHeightPt: 810 });
    const interior = await env.IMAGES.head(printKeyFor(orderNumber));

    // The app Worker recorded Lulu's size and removed the cover (test/api/print-partner.test.ts).
    await env.DB.prepare("UPDATE orders SET cover_width_pt = 1260.5, cover_height_pt = 812 WHERE id = ?").bind(orderId).run();
    await env.IMAGES.delete(coverKeyFor(orderNumber));
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true, retried: false });
    const cover = parsePdf(await readObject(coverKeyFor(orderNumber)));
    expect(cover.pages[0].mediaBox).toEqual([0, 0, 1260.5, 812]);
    expect(cover.pages[0].trimBox).toEqual([9, 9, 1251.5, 803]);
    expect((await env.IMAGES.head(printKeyFor(orderNumber)))!.etag).toBe(interior!.etag);
  });

  it("makes no PDF for an order that is not paid", async () => {
    const { orderId, orderNumber } = await seedPaidOrder(["completed"], "pending");
    expect(await runPrintJob(orderId)).toMatchObject({ acked: true });
    expect(await env.IMAGES.head(printKeyFor(orderNumber))).toBeNull();
  });
});

describe("print-jobs dead letters", () => {
  it("mark the order as needing attention on the desk", async () => {
    const { orderId } = await seedPaidOrder(["completed"]);
    const batch = createMessageBatch<PrintJob>("print-jobs-dlq", [{ id: "dead-1", timestamp: new Date(), attempts: 1, body: { orderId } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, printEnv);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["dead-1"]);
    expect(await orderRow(orderId)).toMatchObject({ printStatus: "needs-attention", printStatusDetail: "The print PDF could not be made after every retry." });
  });
});
