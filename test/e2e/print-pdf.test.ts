/**
 * The print-ready PDF opens in Chromium's own PDF viewer (PDFium): a 5-sketch book made by the
 * Worker's writer (workers/sketch/pdf) is written to a file, opened at 1280 px, and the viewer
 * reports its 7 pages and the book's title. Screenshots of the title, dedication and a turned
 * landscape page go to test-results/e2e/ for a human to look at.
 */
import { appendFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeGrayPng } from "../../workers/sketch/encode";
import { writeBookPdf } from "../../workers/sketch/pdf/book-pdf";
import type { ByteSink } from "../../workers/sketch/pdf/sink";
import { lineArt } from "../sketch/line-art";
import { launchChromium, SCREENSHOTS_DIR, screenshotPath, STEP_TIMEOUT_MS } from "./browser";

const TITLE = "Summer at Grandma's";

/** A file on disk as the PDF's sink (the Worker's is an R2 multipart upload). */
function fileSink(file: string): ByteSink {
  return {
    write: (bytes) => appendFile(file, bytes),
    close: async () => undefined,
    abort: async () => undefined,
  };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("the print PDF in Chromium's PDF viewer", () => {
  it("opens with its 7 pages and the book's title", async () => {
    const file = path.join(SCREENSHOTS_DIR, "print-book.pdf");
    await writeFile(file, "");
    const planes = [lineArt(1275, 1650, 1), lineArt(3300, 2550, 2), lineArt(1200, 1200, 3), lineArt(2550, 3300, 4), lineArt(1650, 1100, 5)];
    const pngs = await Promise.all(planes.map(encodeGrayPng));
    const result = await writeBookPdf(fileSink(file), {
      title: TITLE,
      dedication: "For Ada and Max,\nwho coloured every wall of the house before they ever had a book of their own.\n\nLove, Grandma",
      pages: pngs.map((png) => async () => png),
    });
    expect(result.pageCount).toBe(7);

    for (const [pageNumber, name] of [[1, "print-pdf-title"], [2, "print-pdf-dedication"], [4, "print-pdf-landscape"]] as const) {
      // A fresh tab per look: the fragment opens the viewer on that page, fitted.
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${pathToFileURL(file).href}#page=${pageNumber}&view=Fit`).catch(() => undefined);
      const viewer = await pdfViewerFrame(page);
      // "0" until PDFium has read the file, then its page count.
      await expect.poll(() => viewer.locator("#pagelength").first().textContent(), { timeout: STEP_TIMEOUT_MS }).toBe("7");
      expect(await viewer.locator("#title").first().textContent()).toBe(TITLE);
      // The page itself is painted by the plugin after that; give it a moment before the picture.
      await page.waitForTimeout(1500);
      await page.screenshot({ path: screenshotPath(name) });
      await page.close();
    }
  });
});

/** Chromium's PDF viewer lives in an extension frame inside the page. */
async function pdfViewerFrame(page: import("playwright-core").Page) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const frame = page.frames().find((candidate) => candidate.url().startsWith("chrome-extension://"));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error("Chromium's PDF viewer did not open");
    await page.waitForTimeout(100);
  }
}
