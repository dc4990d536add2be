/**
 * The free preview (/preview-test) in a real browser against `wrangler dev` (both Workers):
 * a real photo becomes a sketch shown beside it, the next visit finds the preview used, the
 * drop zone refuses what docs/product.md §5.2 says it refuses, and the owner sees the debug view.
 * Screenshots (1280 and 375 px wide) go to test-results/e2e/preview-*.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, ROOT as root, SCREENSHOTS_DIR as screenshotsDir } from "./browser";
import { MAX_UPLOAD_BYTES } from "../../app/lib/shop-rules";
import { MESSAGES, PREVIEW_LABELS, PREVIEW_MESSAGES } from "../../app/lib/customer-copy";

const CHELSEA = path.join(root, "test/fixtures/photos/chelsea.jpg");
const ASTRONAUT = path.join(root, "test/fixtures/photos/astronaut.jpg");
/**
 * The astronaut's mouth and chin, in the photo's pixels (512 x 512): left, top, right, bottom.
 * Her face is one region there (decisions 031 and 034), so its region lines barely reach the box;
 * the feature strokes (decision 033) draw her smile, her teeth and the line of her chin.
 */
const ASTRONAUT_MOUTH_AND_CHIN = [195, 135, 250, 185];
/** Share of that box inked: about 0.1 % with the region lines alone, 3.8 % with the strokes. */
const MOUTH_AND_CHIN_INK_WITH_FEATURES = 0.02;
const CONVERSION_TIMEOUT_MS = 120_000;
const STEP_TIMEOUT_MS = 20_000;
const WIDTHS = [1280, 375] as const;

let browser: Browser;
let context: BrowserContext | null = null;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "preview-e2e-"));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

afterEach(async () => {
  await context?.close();
  context = null;
});

/** A new visitor (fresh cookie jar and local storage) on /preview-test. */
async function visit(width: number = WIDTHS[0]): Promise<Page> {
  context = await browser.newContext({ baseURL: inject("baseUrl"), viewport: { width, height: 900 } });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const page = await context.newPage();
  await page.goto("/preview-test");
  await page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }).waitFor();
  return page;
}

function chooseFile(page: Page, file: string) {
  return page.getByLabel(PREVIEW_LABELS.photoFile).setInputFiles(file);
}

async function toast(page: Page, title: string, description: string) {
  const shown = page.getByTestId("toast").filter({ hasText: title });
  await shown.waitFor();
  await expect(shown.textContent()).resolves.toContain(description);
}

async function convertChelsea(page: Page) {
  await convertPhoto(page, CHELSEA);
}

async function convertPhoto(page: Page, file: string) {
  await chooseFile(page, file);
  const convert = page.getByRole("button", { name: PREVIEW_LABELS.convert });
  await page.waitForFunction((label) => {
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes(label));
    return button && !button.disabled;
  }, PREVIEW_LABELS.convert);
  await convert.click();
  await page.getByTestId("before-after").waitFor({ timeout: CONVERSION_TIMEOUT_MS });
}

describe("free preview", () => {
  for (const width of WIDTHS) {
    it(`turns a real photo into a sketch, then shows the used-preview card on the next visit (${width} px)`, async () => {
      const page = await visit(width);
      await page.screenshot({ path: path.join(screenshotsDir, `preview-empty-${width}.png`), fullPage: true });

      await convertChelsea(page);
      await toast(page, PREVIEW_MESSAGES.convertedTitle, PREVIEW_MESSAGES.convertedDescription);
      const sketch = page.getByRole("img", { name: `${PREVIEW_LABELS.yourSketch}: chelsea.jpg` });
      await page.waitForFunction(
        (alt) => [...document.images].some((img) => img.alt === alt && img.complete && img.naturalWidth > 0),
        `${PREVIEW_LABELS.yourSketch}: chelsea.jpg`,
      );
      expect(await sketch.getAttribute("src")).toMatch(/^\/images\/sketches\/[0-9a-f-]{36}\.e\d+-standard\.png$/);
      await page.getByRole("link", { name: PREVIEW_LABELS.createFullBook }).waitFor();
      expect(await page.getByRole("link", { name: PREVIEW_LABELS.seePlans }).getAttribute("href")).toBe("/choose-plan");
      expect(await page.getByRole("link", { name: PREVIEW_LABELS.createFullBook }).getAttribute("href")).toBe("/create-book");
      // The toast would cover the call to action in the picture.
      await page.getByTestId("toast").getByRole("button", { name: "Close" }).click();
      await page.screenshot({ path: path.join(screenshotsDir, `preview-converted-${width}.png`), fullPage: true });

      await page.reload();
      await page.getByRole("heading", { name: PREVIEW_MESSAGES.alreadyUsedTitle }).waitFor();
      expect(await page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }).count()).toBe(0);
      expect(await page.getByRole("link", { name: PREVIEW_LABELS.choosePlan }).getAttribute("href")).toBe("/choose-plan");
      expect(await page.getByRole("link", { name: PREVIEW_LABELS.backToHome }).getAttribute("href")).toBe("/");
      await page.screenshot({ path: path.join(screenshotsDir, `preview-used-${width}.png`), fullPage: true });
    });
  }

  it("draws a portrait's features: the preview of a face has the lines of its smile and chin", async () => {
    const page = await visit();
    await convertPhoto(page, ASTRONAUT);
    const alt = `${PREVIEW_LABELS.yourSketch}: astronaut.jpg`;
    await page.waitForFunction((name) => [...document.images].some((img) => img.alt === name && img.complete && img.naturalWidth > 0), alt);
    // The page as the browser shows it, read back through a canvas: the share of dark pixels in the box.
    const ink = await page.evaluate(
      ([name, box]) => {
        const img = [...document.images].find((image) => image.alt === name)!;
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext("2d")!;
        context.drawImage(img, 0, 0);
        const scale = img.naturalWidth / 512;
        const [left, top, right, bottom] = (box as number[]).map((v) => Math.round(v * scale));
        const { data } = context.getImageData(left, top, right - left, bottom - top);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] < 128) dark++;
        return dark / (data.length / 4);
      },
      [alt, ASTRONAUT_MOUTH_AND_CHIN] as const,
    );
    await page.screenshot({ path: path.join(screenshotsDir, "preview-portrait.png"), fullPage: true });
    expect(ink).toBeGreaterThan(MOUTH_AND_CHIN_INK_WITH_FEATURES);
  });

  it("refuses a file that is not an image with the product's message", async () => {
    const page = await visit();
    const notes = path.join(scratch, "notes.txt");
    writeFileSync(notes, "Shopping list: crayons, paper, glue.");
    await chooseFile(page, notes);
    await toast(page, PREVIEW_MESSAGES.invalidFileTypeTitle, MESSAGES.unsupportedPreviewUpload("notes.txt"));
    await page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }).waitFor();
  });

  it("refuses a photo over 15 MB before uploading it", async () => {
    const page = await visit();
    const big = path.join(scratch, "huge-photo.jpg");
    const bytes = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    writeFileSync(big, bytes);
    await chooseFile(page, big);
    await toast(page, MESSAGES.previewTooLargeTitle, MESSAGES.previewTooLarge);
    await page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }).waitFor();
  });

  it("shows the owner the debug view of the conversion: input, mask and page", async () => {
    const page = await visit();
    await convertChelsea(page);
    await page.getByTestId("toast").getByRole("button", { name: "Close" }).click();
    await page.getByText(PREVIEW_LABELS.debugHeading).click();
    const debugView = page.getByTestId("debug-view");
    for (const label of [PREVIEW_LABELS.debugInput, PREVIEW_LABELS.debugMask, PREVIEW_LABELS.debugPage]) {
      await debugView.getByRole("img", { name: label }).waitFor();
    }
    const loaded = await page.waitForFunction(() => {
      const images = [...document.querySelectorAll<HTMLImageElement>("[data-testid=debug-view] img")];
      return images.length === 3 && images.every((img) => img.complete && img.naturalWidth > 0) && images.map((img) => img.getAttribute("src"));
    });
    const sources = (await loaded.jsonValue()) as string[];
    expect(sources.map((src) => src.replace(/\d+/, "T"))).toEqual([
      "/debug/debug-image-T.png",
      "/debug/debug-mask-T.png",
      "/debug/debug-sketch-T.png",
    ]);
    await debugView.screenshot({ path: path.join(screenshotsDir, "preview-debug-1280.png") });

    // Another visitor gets nothing of it.
    const stranger = await browser.newContext({ baseURL: inject("baseUrl") });
    try {
      const response = await stranger.request.get(sources[0]);
      expect(response.status()).toBe(404);
    } finally {
      await stranger.close();
    }
  });
});
