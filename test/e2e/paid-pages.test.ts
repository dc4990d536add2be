/**
 * Decision 018 in Chromium against `wrangler dev`: what is printed is what was paid for. A book of
 * five sketched photos goes to the local test checkout (7 pages); while that checkout is open the
 * buyer's browser tries to add five more photos through the API and to change the selection
 * (409, with the lock's message; the preview and upload pages show it instead of failing), then
 * pays. The print PDF the desk serves has the 7 paid pages and no more.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREATE_BOOK_MESSAGES } from "../../app/lib/customer-copy";
import { parsePdf, shownText } from "../sketch/pdf-parser";
import { fillUkDeliveryAddress, FIVE_PHOTOS, launchChromium, newVisitor, screenshotPath, signInToDesk, waitForToast } from "./browser";

const TITLE = "Paid as seven pages";
/** Five photos sketched in local workerd, then the PDF built from them. */
const SKETCH_TIMEOUT_MS = 180_000;
const PDF_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 480_000;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function visitor(): Promise<{ context: BrowserContext; page: Page }> {
  const made = await newVisitor(browser);
  contexts.push(made.context);
  return made;
}

/** /?mode=create → upload five photos → sketches ready → all selected: the book's id. */
async function sketchedBook(page: Page): Promise<number> {
  await page.goto("/?mode=create");
  await page.getByLabel("Book title").fill(TITLE);
  await page.getByRole("button", { name: "Continue to Upload Images" }).click();
  await page.waitForURL(/\/book\/\d+\/upload$/);
  const bookId = Number(new URL(page.url()).pathname.split("/")[2]);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Drag & drop photos/ }).click();
  await (await chooser).setFiles(FIVE_PHOTOS);
  await waitForToast(page, "Images uploaded successfully!");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await page.waitForURL(`**/book/${bookId}/preview`);
  await page.getByText("Ready", { exact: true }).nth(4).waitFor({ timeout: SKETCH_TIMEOUT_MS });
  await page.getByRole("button", { name: "Select All", exact: true }).click();
  await page.getByRole("button", { name: "Selected (5)" }).waitFor();
  return bookId;
}

describe("a book under an open checkout", () => {
  it("refuses photos added while paying, and the print PDF has the paid pages and no more", async () => {
    const { context, page } = await visitor();
    const bookId = await sketchedBook(page);

    // The order step opens the local test checkout for 5 photos: 7 pages.
    await page.getByRole("button", { name: "Create My Book" }).click();
    await page.waitForURL(`**/book/${bookId}/order`);
    await fillUkDeliveryAddress(page);
    await page.getByRole("definition").filter({ hasText: "FREE" }).waitFor();
    await page.getByRole("button", { name: "Complete Order" }).click();
    await page.waitForURL(/\/test-checkout\/cs_local_/);
    await page.getByText("7 pages", { exact: true }).waitFor();

    // While it is open, five more photos through the API (as the load run that found it did) are refused.
    const morePhotos = await page.evaluate(
      async ({ id, files }) => {
        const form = new FormData();
        for (const file of files) form.append("images", new File([new Uint8Array(file.bytes)], file.name, { type: "image/jpeg" }));
        const response = await fetch(`/api/books/${id}/images`, { method: "POST", body: form });
        return { status: response.status, body: await response.json() };
      },
      { id: bookId, files: FIVE_PHOTOS.map((file) => ({ name: `more-${path.basename(file)}`, bytes: [...readFileSync(file)] })) },
    );
    expect(morePhotos).toEqual({ status: 409, body: { message: CREATE_BOOK_MESSAGES.pagesLockedWhilePaying } });

    // The book's own pages, opened in another tab, say why nothing can change, and a try is refused in words.
    const preview = await context.newPage();
    await preview.goto(`/book/${bookId}/preview`);
    await preview.getByRole("status").filter({ hasText: CREATE_BOOK_MESSAGES.pagesLockedWhilePaying }).waitFor();
    await preview.getByText("Ready", { exact: true }).nth(4).waitFor();
    const checkbox = preview.getByRole("checkbox", { name: "Select astronaut.jpg" });
    await expect.poll(() => checkbox.isChecked()).toBe(true);
    await checkbox.click();
    await waitForToast(preview, CREATE_BOOK_MESSAGES.pagesLockedWhilePaying);
    await expect.poll(() => checkbox.isChecked()).toBe(true);
    await preview.screenshot({ path: screenshotPath("paid-pages-01-preview-locked"), fullPage: true });

    await preview.goto(`/book/${bookId}/upload`);
    const chooser = preview.waitForEvent("filechooser");
    await preview.getByRole("button", { name: /Drag & drop photos/ }).click();
    await (await chooser).setFiles(FIVE_PHOTOS.slice(0, 1));
    await waitForToast(preview, CREATE_BOOK_MESSAGES.pagesLockedWhilePaying);
    await preview.screenshot({ path: screenshotPath("paid-pages-02-upload-locked"), fullPage: true });
    await preview.close();

    // Pay on the checkout that was opened for the five.
    await page.getByRole("button", { name: "Pay £19.99" }).click();
    await page.waitForURL(new RegExp(`/book/${bookId}/order\\?session_id=cs_local_`));
    await page.getByRole("heading", { name: "Order Confirmed" }).waitFor();
    const orderNumber = (await page.getByText("Order number").locator("xpath=following-sibling::dd").textContent())!.trim();

    // The desk's print PDF: title, dedication and the five paid sketches.
    const { page: admin } = await visitor();
    await signInToDesk(admin);
    const pdfUrl = `/admin/orders/${orderNumber}/pdf`;
    await expect
      .poll(async () => (await admin.request.get(pdfUrl)).status(), { timeout: PDF_TIMEOUT_MS, interval: 2_000 })
      .toBe(200);
    const pdf = parsePdf(new Uint8Array(await (await admin.request.get(pdfUrl)).body()));
    expect(pdf.pageObjectCount).toBe(7);
    expect(pdf.pages.slice(2).every((printed) => printed.image !== null)).toBe(true);
    expect(shownText(pdf.pages[0].content)).toEqual([TITLE]);

    await admin.reload();
    const card = admin.getByRole("article", { name: `Order ${orderNumber}` });
    expect(await card.textContent()).toContain("7 pages");
    await admin.screenshot({ path: screenshotPath("paid-pages-03-desk"), fullPage: true });
  }, TEST_TIMEOUT_MS);
});
