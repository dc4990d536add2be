/**
 * The preview page never waits for ever, in a real browser against `wrangler dev` (both Workers,
 * the real sketch queue):
 * - photos uploaded without pressing the upload page's Next, the preview then opened directly
 *   (a bookmark, the history): the page sends them to be drawn itself, says so, and they are;
 * - a page set to Simple and at once to Detailed, back and forth, queues jobs for both levels
 *   that may land in any order: the page ends drawn at the level it is set to, and the customer
 *   can go on to the order page.
 * Screenshots go to test-results/e2e/goes-on-*.png.
 */
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOK_PAGE_MESSAGES, LABELS } from "../../app/lib/customer-copy";
import type { ImageDto } from "../../app/lib/api-types";
import { callApi, FIVE_PHOTOS, launchChromium, newVisitor, screenshotPath, SKETCH_TIMEOUT_MS, waitForHydration, waitForToast } from "./browser";

const PHOTO_NAMES = FIVE_PHOTOS.map((file) => path.basename(file));

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  ({ context, page } = await newVisitor(browser));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const sketchOf = (name: string) => page.getByRole("img", { name: `Sketch of ${name}` });

describe("the preview page lets the customer go on", () => {
  let bookId = 0;

  it("photos uploaded without Next, preview opened from a bookmark: the page starts drawing them and says so", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("Opened from a bookmark");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    bookId = Number(new URL(page.url()).pathname.split("/")[2]);
    const dropzone = page.getByRole("button", { name: /Drag & drop photos/ });
    await waitForHydration(dropzone);
    const chooser = page.waitForEvent("filechooser");
    await dropzone.click();
    await (await chooser).setFiles([...FIVE_PHOTOS]);
    await waitForToast(page, "Images uploaded successfully!");

    // Not Next: the customer leaves and comes back to the preview's address.
    await page.goto("/");
    await page.goto(`/book/${bookId}/preview`);
    await page.getByText(BOOK_PAGE_MESSAGES.waitingPhotosSent(FIVE_PHOTOS.length)).waitFor();
    await page.screenshot({ path: screenshotPath("goes-on-01-sent"), fullPage: true });
    for (const name of PHOTO_NAMES) {
      await expect.poll(() => sketchOf(name).getAttribute("src"), { timeout: SKETCH_TIMEOUT_MS, interval: 500 }).toMatch(/-standard\.png$/);
    }
  });

  it("a page set to Simple and Detailed back and forth ends drawn at Detailed, and Create My Book goes on", async () => {
    expect(bookId).toBeGreaterThan(0);
    const images = await callApi<ImageDto[]>(page, "GET", `/api/books/${bookId}/images`);
    const first = images.find((image) => image.originalFilename === PHOTO_NAMES[0])!;
    // Back to back, not waiting for a drawing: four jobs for one page, in flight together.
    for (const detailLevel of ["simple", "detailed", "simple", "detailed"]) {
      await callApi(page, "PATCH", `/api/images/${first.id}/detail`, { detailLevel });
    }
    await page.reload();
    await expect.poll(() => sketchOf(PHOTO_NAMES[0]).getAttribute("src"), { timeout: SKETCH_TIMEOUT_MS, interval: 500 }).toMatch(/-detailed\.png$/);
    // Once every page is drawn, the bulk tools appear; a page drawn at a level nobody wants would keep them away.
    const selectAll = page.getByRole("button", { name: LABELS.selectAll }).first();
    await selectAll.waitFor({ timeout: SKETCH_TIMEOUT_MS });
    await waitForHydration(selectAll);
    await selectAll.click();
    const create = page.getByRole("button", { name: LABELS.createMyBook }).first();
    await expect.poll(() => create.isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.screenshot({ path: screenshotPath("goes-on-02-detailed"), fullPage: true });
    await create.click();
    await page.waitForURL(`**/book/${bookId}/order`);
    const drawn = (await callApi<ImageDto[]>(page, "GET", `/api/books/${bookId}/images`)).find((image) => image.id === first.id)!;
    expect(drawn).toMatchObject({ processingStatus: "completed", detailLevel: "detailed" });
    expect(drawn.sketchUrl).toMatch(/-detailed\.png$/);
  });
});
