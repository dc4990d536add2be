/**
 * Detail levels on the preview page in a real browser against `wrangler dev` (both Workers, the
 * real sketch queue): five real photos are drawn, the book goes to Simple and every page is
 * redrawn (the old sketch stays, dimmed, until the new one replaces it), then page 2 alone goes
 * to Detailed. A photo that cannot be read fails with its reason and can be tried again. Last, a
 * page whose photo is gone from storage still changes level: the new page is cut from the region
 * hierarchy stored when the photo was first drawn, and appears without a reload.
 * Screenshots (1280 and 375 px wide) go to test-results/e2e/detail-*.png.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { ImageDto } from "../../app/lib/api-types";
import { DETAIL_LEVEL_MESSAGES, LABELS } from "../../app/lib/customer-copy";
import { FIVE_PHOTOS, ROOT, launchChromium, newVisitor, screenshotPath, waitForToast } from "./browser";

const SKETCH_TIMEOUT_MS = 180_000;
const PHOTO_NAMES = FIVE_PHOTOS.map((file) => path.basename(file));
/** Half of a real JPEG: its header passes the upload's checks, its picture ends halfway (a permanent failure). */
const CHELSEA = readFileSync(FIVE_PHOTOS[1]);
const BROKEN_JPEG = { name: "half-a-photo.jpg", mimeType: "image/jpeg", buffer: CHELSEA.subarray(0, Math.floor(CHELSEA.length / 2)) };

/** The bucket behind the app's IMAGES binding, as wrangler.toml names it. */
const IMAGES_BUCKET = /\[\[r2_buckets\]\]\s*binding\s*=\s*"IMAGES"\s*bucket_name\s*=\s*"([^"]+)"/.exec(
  readFileSync(path.join(ROOT, "wrangler.toml"), "utf8"),
)![1];

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

afterEach(async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
});

async function screenshot(name: string, fullPage = true) {
  await page.screenshot({ path: screenshotPath(name), fullPage });
}

/** The sketch image of one photo's card. */
const sketchOf = (name: string) => page.getByRole("img", { name: `Sketch of ${name}` });

/** Waits until the sketch of every named photo is the one at `level` (its URL names the level). */
async function waitForSketchesAt(names: string[], level: string) {
  for (const name of names) {
    await expect
      .poll(() => sketchOf(name).getAttribute("src"), { timeout: SKETCH_TIMEOUT_MS, interval: 500 })
      .toMatch(new RegExp(`-${level}\\.png$`));
  }
}

/**
 * Deletes an object from the local R2 of the running `wrangler dev`, behind the app's back: wrangler's
 * own command on the same --persist-to directory. Miniflare keeps R2 there as sqlite rows and blob
 * files, and the running workerd reads them afresh on every request.
 */
async function deleteFromLocalR2(key: string) {
  await promisify(execFile)(
    "npx",
    ["wrangler", "r2", "object", "delete", `${IMAGES_BUCKET}/${key}`, "--local", "--persist-to", inject("persistDir")],
    { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" } },
  );
}

/** One image of the book as the JSON API gives it to the visitor (the page's own cookies). */
async function imageOfBook(bookId: number, name: string): Promise<ImageDto> {
  const response = await page.request.get(`/api/books/${bookId}/images`);
  expect(response.status()).toBe(200);
  const image = ((await response.json()) as ImageDto[]).find((candidate) => candidate.originalFilename === name);
  expect(image).toBeDefined();
  return image!;
}

describe("detail levels on the preview page", () => {
  let bookId = 0;

  it("draws five photos, and fails a photo it cannot read with a reason and Try again", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("Detail levels");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    bookId = Number(new URL(page.url()).pathname.split("/")[2]);

    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: /Drag & drop photos/ }).click();
    await (await chooser).setFiles([...FIVE_PHOTOS]);
    await waitForToast(page, "Images uploaded successfully!");
    const more = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: /Drag & drop photos/ }).click();
    await (await more).setFiles(BROKEN_JPEG);
    await waitForToast(page, "Images uploaded successfully!");
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page.waitForURL(`**/book/${bookId}/preview`);

    await page.getByText("Ready", { exact: true }).nth(4).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    await page.getByRole("button", { name: DETAIL_LEVEL_MESSAGES.tryAgainLabel(BROKEN_JPEG.name) }).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    await waitForSketchesAt(PHOTO_NAMES, "standard");
    expect(await page.getByRole("radio", { name: "Standard" }).isChecked()).toBe(true);
    for (let n = 1; n <= 6; n++) {
      expect(await page.getByRole("combobox", { name: DETAIL_LEVEL_MESSAGES.pageLevelLabel(n) }).inputValue()).toBe("book");
    }
    await screenshot("detail-01-standard");

    // Try again sends the broken photo back into the queue; it fails again, with its reason.
    await page.getByRole("button", { name: DETAIL_LEVEL_MESSAGES.tryAgainLabel(BROKEN_JPEG.name) }).click();
    await waitForToast(page, DETAIL_LEVEL_MESSAGES.retryStarted);
    await page.getByRole("button", { name: DETAIL_LEVEL_MESSAGES.tryAgainLabel(BROKEN_JPEG.name) }).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    const failedCard = page.getByRole("listitem").filter({ hasText: BROKEN_JPEG.name });
    expect(await failedCard.getByText("Failed", { exact: true }).isVisible()).toBe(true);
  });

  it("redraws every page that follows the book at Simple, then only page 2 at Detailed", async () => {
    expect(bookId).toBeGreaterThan(0);
    const before = await Promise.all(PHOTO_NAMES.map((name) => sketchOf(name).getAttribute("src")));

    // The radio is visually hidden inside its card: the visitor clicks the card.
    await page.locator("label").filter({ has: page.getByRole("radio", { name: "Simple" }) }).click();
    expect(await page.getByRole("radio", { name: "Simple" }).isChecked()).toBe(true);
    await waitForToast(page, DETAIL_LEVEL_MESSAGES.pagesRedrawing(5));
    // Each page keeps its old sketch, dimmed, with the level it is being redrawn at.
    const redrawing = page.getByText(DETAIL_LEVEL_MESSAGES.redrawing("simple"));
    await redrawing.nth(4).waitFor();
    await screenshot("detail-02-redrawing-simple");
    expect(await page.getByRole("button", { name: "Create My Book" }).isDisabled()).toBe(true);

    await waitForSketchesAt(PHOTO_NAMES, "simple");
    await redrawing.first().waitFor({ state: "detached", timeout: SKETCH_TIMEOUT_MS });
    const after = await Promise.all(PHOTO_NAMES.map((name) => sketchOf(name).getAttribute("src")));
    after.forEach((src, index) => expect(src).not.toBe(before[index]));
    await screenshot("detail-03-simple");
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot("detail-03m-simple-phone-top", false);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Page 2 alone: the others keep their Simple sketches and are not redrawn.
    await page.getByRole("combobox", { name: DETAIL_LEVEL_MESSAGES.pageLevelLabel(2) }).selectOption("detailed");
    const redrawingDetailed = page.getByText(DETAIL_LEVEL_MESSAGES.redrawing("detailed"));
    await redrawingDetailed.waitFor();
    expect(await page.getByText(/^Redrawing at /).count()).toBe(1);
    const secondCard = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("combobox", { name: DETAIL_LEVEL_MESSAGES.pageLevelLabel(2) }) });
    expect(await secondCard.getByText(DETAIL_LEVEL_MESSAGES.redrawing("detailed")).isVisible()).toBe(true);
    const secondName = (await secondCard.getByRole("img").getAttribute("alt"))!.replace("Sketch of ", "");
    const second = PHOTO_NAMES.indexOf(secondName);
    expect(second).toBeGreaterThanOrEqual(0);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot("detail-04m-redrawing-page-2-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    await waitForSketchesAt([secondName], "detailed");
    await redrawingDetailed.waitFor({ state: "detached", timeout: SKETCH_TIMEOUT_MS });
    const final = await Promise.all(PHOTO_NAMES.map((name) => sketchOf(name).getAttribute("src")));
    final.forEach((src, index) => expect(src).toEqual(index === second ? expect.stringMatching(/-detailed\.png$/) : after[index]));
    expect(await page.getByRole("combobox", { name: DETAIL_LEVEL_MESSAGES.pageLevelLabel(2) }).inputValue()).toBe("detailed");
    await screenshot("detail-05-page-2-detailed");
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot("detail-05m-page-2-detailed-phone");
  });

  it("redraws page 3 at Detailed from its stored regions once its photo is gone, without a reload", async () => {
    expect(bookId).toBeGreaterThan(0);
    const pageLevel = page.getByRole("combobox", { name: DETAIL_LEVEL_MESSAGES.pageLevelLabel(3) });
    const card = page.getByRole("listitem").filter({ has: pageLevel });
    const name = (await card.getByRole("img").getAttribute("alt"))!.replace("Sketch of ", "");
    expect(PHOTO_NAMES).toContain(name);
    const sketch = sketchOf(name);
    // Page 3 follows the book (Simple): it has never been drawn at Detailed, so no such page is stored.
    expect(await sketch.getAttribute("src")).toMatch(/-simple\.png$/);

    const image = await imageOfBook(bookId, name);
    expect((await page.request.get(image.originalUrl)).status()).toBe(200);
    await deleteFromLocalR2(image.originalUrl.replace(/^\/images\//, ""));
    expect((await page.request.get(image.originalUrl)).status()).toBe(404);

    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await pageLevel.selectOption("detailed");
    // An engine that decodes the photo again fails the page ("missing from storage"): stop at
    // whichever comes first, the new page or the failure.
    const failed = card.getByText("Failed", { exact: true });
    await card
      .locator('img[src$="-detailed.png"]')
      .or(failed)
      .waitFor({ timeout: SKETCH_TIMEOUT_MS });
    expect(await failed.count(), await card.innerText()).toBe(0);
    await card.getByText(LABELS.ready, { exact: true }).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    expect(await page.evaluate(() => (window as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(page.url()).toMatch(new RegExp(`/book/${bookId}/preview$`));

    const src = await sketch.getAttribute("src");
    expect(src).toMatch(/-detailed\.png$/);
    await sketch.scrollIntoViewIfNeeded();
    await expect
      .poll(() => sketch.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    expect(await card.getByRole("button", { name: DETAIL_LEVEL_MESSAGES.tryAgainLabel(name) }).count()).toBe(0);
    expect(await card.getByText(/^Redrawing at /).count()).toBe(0);
    expect(await pageLevel.inputValue()).toBe("detailed");

    const redrawn = await imageOfBook(bookId, name);
    expect(redrawn).toMatchObject({ processingStatus: "completed", error: null, sketchDetailLevel: "detailed", sketchUrl: src });
    // Still gone: the new page came from the stored regions, not from a photo put back.
    expect((await page.request.get(image.originalUrl)).status()).toBe(404);
    await screenshot("detail-06-page-3-detailed-without-photo");
  });
});
