/**
 * The product's last texts (docs/product.md §9), in Chromium against `wrangler dev`: the free preview says
 * 'Upload Complete' once its photo is uploaded; the book's upload page says 'Upload Rejected' when
 * the server refuses a photo; every drop zone shows react-dropzone's own messages ('File type must
 * be ...', 'File is larger than N bytes', 'Too many files') under itself, and notices a file
 * dialog closed with nothing chosen 300 ms after the window has its focus back; the order
 * confirmation's Create Another Book reloads the page.
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BOOK_PAGE_MESSAGES, CREATE_BOOK_LABELS, DROPZONE_TEXT, LABELS, MESSAGES, PREVIEW_LABELS, PREVIEW_MESSAGES } from "../../app/lib/customer-copy";
import { FILE_DIALOG_CANCEL_MS, MAX_PHOTOS_PER_BOOK, MAX_UPLOAD_BYTES } from "../../app/lib/shop-rules";
import { FIVE_PHOTOS, SKETCH_TIMEOUT_MS, callApi, launchChromium, newVisitor, orderedBook, payOnTestCheckout, waitForHydration, waitForToast } from "./browser";

let browser: Browser;
let context: BrowserContext | null = null;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = null;
});

async function visit(url: string): Promise<Page> {
  ({ context, page } = await newVisitor(browser));
  await page.goto(url);
  return page;
}

async function emptyBookUploadPage(): Promise<Locator> {
  await visit("/");
  const { id } = await callApi<{ id: number }>(page, "POST", "/api/books", { title: "Drop zone check" });
  await page.goto(`/book/${id}/upload`);
  const picker = page.getByRole("button", { name: /Drag & drop photos/ });
  await waitForHydration(picker);
  return picker;
}

/** Drops files made in the page (a name, a type and a size each) on a drop zone. */
async function dropFiles(zone: Locator, files: { name: string; type: string; size: number }[]) {
  const dataTransfer = await zone.page().evaluateHandle((specs) => {
    const transfer = new DataTransfer();
    for (const spec of specs) transfer.items.add(new File([new Uint8Array(spec.size)], spec.name, { type: spec.type }));
    return transfer;
  }, files);
  await zone.dispatchEvent("drop", { dataTransfer });
}

const feedback = () => page.getByTestId("dropzone-feedback");
/** The product's titles are written out here: the test is that the page uses these very words. */
const toastSaying = (title: string, text: string) =>
  page.getByTestId("toast").filter({ hasText: title }).filter({ hasText: text }).first().waitFor();
const photos = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `photo-${i + 1}.jpg`, type: "image/jpeg", size: 1024 }));

describe("the free preview", () => {
  it("says 'Upload Complete' once the photo is uploaded, before it is converted", async () => {
    await visit("/preview-test");
    const file = page.getByLabel(PREVIEW_LABELS.photoFile);
    await waitForHydration(page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }));
    await file.setInputFiles(FIVE_PHOTOS[1]);
    await toastSaying("Upload Complete", PREVIEW_MESSAGES.uploadComplete);
    expect(await page.getByRole("button", { name: PREVIEW_LABELS.convert }).isEnabled()).toBe(true);
  });

  it("shows the drop zone's own messages: 'Too many files' and 'File is larger than N bytes'", async () => {
    await visit("/preview-test");
    const zone = page.getByRole("region", { name: PREVIEW_LABELS.dropzoneTitle });
    await waitForHydration(page.getByRole("button", { name: PREVIEW_LABELS.pickPhoto }));
    await dropFiles(zone, photos(2));
    await feedback().getByText("Too many files", { exact: true }).waitFor();
    await dropFiles(zone, [{ name: "huge.jpg", type: "image/jpeg", size: MAX_UPLOAD_BYTES + 1 }]);
    await feedback().getByText(`huge.jpg: File is larger than ${MAX_UPLOAD_BYTES} bytes`).waitFor();
    expect(await feedback().getByText("Too many files").count()).toBe(0);
  });
});

describe("the book's upload page", () => {
  it("shows 'File type must be ...' under the drop zone for a file it refuses", async () => {
    const picker = await emptyBookUploadPage();
    const chooser = page.waitForEvent("filechooser");
    await picker.click();
    await (await chooser).setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") });
    await waitForToast(page, MESSAGES.unsupportedBookUpload("notes.txt"));
    await feedback()
      .getByText("notes.txt: File type must be one of image/jpeg, .jpg, .jpeg, image/png, .png, image/webp, .webp")
      .waitFor();
  });

  it("says 'Too many files' for a drop over 50 photos, and 'Too many images' in the toast", async () => {
    const picker = await emptyBookUploadPage();
    await dropFiles(picker, photos(MAX_PHOTOS_PER_BOOK + 1));
    await feedback().getByText("Too many files", { exact: true }).waitFor();
    await toastSaying(BOOK_PAGE_MESSAGES.tooManyImagesTitle, MESSAGES.tooManyImagesPerBook);
  });

  it("says 'Upload Rejected' with the server's reason when the server refuses a photo", async () => {
    const picker = await emptyBookUploadPage();
    const chooser = page.waitForEvent("filechooser");
    await picker.click();
    // A JPEG by its name and type, not by its bytes: the browser lets it through, the server does not.
    await (await chooser).setFiles({ name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just some text") });
    await toastSaying("Upload Rejected", MESSAGES.unsupportedBookUpload("fake.jpg"));
  });

  it("notices a file dialog closed with nothing chosen 300 ms after the window has its focus back", async () => {
    ({ context, page } = await newVisitor(browser));
    // The page's clock moves only when the test moves it, so "not yet" is not a race.
    await page.clock.install();
    await page.goto("/");
    const { id } = await callApi<{ id: number }>(page, "POST", "/api/books", { title: "Cancelled dialog" });
    await page.goto(`/book/${id}/upload`);
    await page.waitForLoadState("networkidle");
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    const picker = page.getByRole("button", { name: /Drag & drop photos/ });
    await waitForHydration(picker);

    const chooser = page.waitForEvent("filechooser");
    await picker.click();
    await chooser; // and nothing chosen: the dialog is closed as it came
    await page.evaluate(() => window.dispatchEvent(new FocusEvent("focus")));
    await page.clock.runFor(FILE_DIALOG_CANCEL_MS - 1);
    expect(await feedback().textContent()).toBe("");
    await page.clock.runFor(1);
    await feedback().getByText(DROPZONE_TEXT.nothingChosen).waitFor();
  });
});

describe("create-book's drop zone", () => {
  it("says 'Too many files' for a drop over 50 photos, beside the page's own toast", async () => {
    await visit(`/create-book?type=standard`);
    const picker = page.getByRole("button", { name: CREATE_BOOK_LABELS.addPhotos });
    await waitForHydration(picker);
    await dropFiles(picker, photos(MAX_PHOTOS_PER_BOOK + 1));
    await feedback().getByText("Too many files", { exact: true }).waitFor();
    await waitForToast(page, `You currently have 0 and trying to add ${MAX_PHOTOS_PER_BOOK + 1} more.`);
  });
});

describe("the order confirmation", () => {
  it(
    "reloads the page with Create Another Book",
    async () => {
      await visit("/");
      const { checkoutPath } = await orderedBook(page, "Reload check");
      await payOnTestCheckout(page, checkoutPath);
      const confirmedUrl = page.url();
      // A mark only this document carries: a reload starts a new one without it.
      await page.evaluate(() => Object.assign(window, { beforeReload: true }));
      const reloaded = page.waitForEvent("load");
      await page.getByRole("link", { name: LABELS.createAnotherBook }).click();
      await reloaded;
      expect(page.url()).toBe(confirmedUrl);
      expect(await page.evaluate(() => "beforeReload" in window)).toBe(false);
      await page.getByRole("heading", { name: LABELS.orderConfirmed }).waitFor();
    },
    SKETCH_TIMEOUT_MS + 60_000,
  );
});
