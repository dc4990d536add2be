/**
 * The create-book purchase in a real browser against `wrangler dev` (both Workers, local
 * D1/R2/Queues, the local test checkout playing Stripe): plan modal, five real photos, title,
 * terms, Purchase, the test checkout's Pay, /success from our records, and the book's photos
 * drawn by the sketch Worker. Then Cancel → Retry Payment → restored form, and every rule of docs/product.md §5.4.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, FileChooser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fillUkDeliveryAddress, FIVE_PHOTOS, launchChromium, newVisitor, SCREENSHOTS_DIR as screenshotsDir, waitForHydration } from "./browser";

const PHOTOS = FIVE_PHOTOS;
const SKETCH_TIMEOUT_MS = 180_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ({ context, page } = await newVisitor(browser));
});

afterEach(async () => {
  await context?.close();
});

async function screenshot(name: string, fullPage = true) {
  await page.screenshot({ path: path.join(screenshotsDir, `create-book-${name}.png`), fullPage });
}

async function waitForToast(text: string) {
  await page.getByTestId("toast").filter({ hasText: text }).first().waitFor();
}

async function addFiles(files: Parameters<FileChooser["setFiles"]>[0]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Add photos: drag and drop/ }).click();
  await (await chooser).setFiles(files);
}

const purchaseButton = () => page.getByRole("button", { name: "Purchase Coloring Book" });

/** Plan modal → five photos → title → terms: ready to buy. */
async function readyStandardBook(title = "Our Summer Adventures") {
  await page.goto("/create-book");
  await page.getByRole("dialog", { name: "Which book would you like?" }).waitFor();
  await page.getByRole("button", { name: /^Standard Book, 5-15 pages/ }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
  await addFiles(PHOTOS);
  await waitForToast("5 file(s) added. Total: 5/50.");
  await page.getByLabel("Book title").fill(title);
  await page.getByLabel(/Custom message/).fill("For Grandma, with love.");
  await page.getByLabel(/I agree to the/).check();
}

async function ownBookId(): Promise<number> {
  // A new visitor owns exactly one book here; every other id answers 404.
  return page.evaluate(async () => {
    for (let id = 1; id < 500; id++) {
      if ((await fetch(`/api/books/${id}/progress`)).ok) return id;
    }
    throw new Error("no book of this visitor");
  });
}

describe("create-book purchase", () => {
  it("buys a standard book of five real photos through the test checkout and draws its pages", async () => {
    await page.goto("/create-book");
    const dialog = page.getByRole("dialog", { name: "Which book would you like?" });
    await dialog.waitFor();
    await dialog.getByText("MOST POPULAR").waitFor();
    await dialog.getByText("16-50 pages").waitFor();
    await screenshot("01-plan-modal", false);
    await page.getByRole("button", { name: /^Standard Book, 5-15 pages/ }).click();

    expect(await purchaseButton().isDisabled()).toBe(true);
    await addFiles(PHOTOS);
    await waitForToast("Files added");
    await waitForToast("5 file(s) added. Total: 5/50.");
    expect(await page.getByTestId("photo-count").textContent()).toBe("5/50");
    expect(await page.getByRole("list", { name: "Chosen photos" }).getByRole("listitem").count()).toBe(5);

    await page.getByLabel("Book title").fill("Our Summer Adventures");
    await page.getByLabel(/Custom message/).fill("For Grandma, with love.");
    await page.getByText("23/2000").waitFor();
    expect(await purchaseButton().isDisabled()).toBe(true); // terms not yet accepted
    await page.getByLabel(/I agree to the/).check();
    await page.getByLabel(/Send me ideas/).check();
    await expect.poll(() => purchaseButton().isEnabled()).toBe(true);

    await page.getByRole("button", { name: "Increase quantity" }).click();
    expect(await page.getByTestId("summary-total").textContent()).toBe("£39.98");
    await page.getByRole("button", { name: "Decrease quantity" }).click();
    expect(await page.getByTestId("summary-total").textContent()).toBe("£19.99");
    expect(await page.getByRole("button", { name: "Decrease quantity" }).isDisabled()).toBe(true);
    await page.getByText("3-15 business days").first().waitFor();
    await screenshot("02-ready");
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot("02m-ready-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    await purchaseButton().click();
    await page.waitForURL(/\/test-checkout\/cs_local_[0-9a-f]{32}$/, { timeout: 60_000 });
    await page.getByText("Test payment", { exact: true }).waitFor();
    expect(await page.getByTestId("test-checkout-total").textContent()).toBe("£19.99");
    const pending = await page.evaluate(() => JSON.parse(localStorage.getItem("coloring-book-pending-order") ?? "null"));
    expect(pending).toMatchObject({ bookType: "standard", title: "Our Summer Adventures", quantity: 1, filesCount: 5, agreeToTerms: true, newsletterSignup: true });

    // The test checkout asks for the address, as Stripe's page would.
    await page.getByRole("button", { name: "Pay £19.99" }).click();
    await page.getByText("First name is required").waitFor();
    await fillUkDeliveryAddress(page);
    await screenshot("03-test-checkout");
    await page.getByRole("button", { name: "Pay £19.99" }).click();

    await page.waitForURL(/\/success\?session_id=cs_local_/);
    await page.getByRole("heading", { name: "Payment Successful" }).waitFor();
    expect(await page.getByTestId("success-order-number").textContent()).toMatch(/^CB-\d{8}-[2-9A-HJ-NP-Z]{5}$/);
    expect(await page.getByTestId("success-status").textContent()).toBe("Payment Confirmed");
    await page.getByRole("heading", { name: "What happens next" }).waitFor();
    await waitForToast("Your order has been placed successfully.");
    expect(await page.evaluate(() => localStorage.getItem("coloring-book-pending-order"))).toBeNull();
    await screenshot("04-success");

    // Track Your Order: the order's progress, for the session that placed it.
    const orderNumber = await page.getByTestId("success-order-number").textContent();
    await page.getByRole("link", { name: "Track Your Order" }).click();
    await page.waitForURL(`**/orders/${orderNumber}`);
    await page.getByRole("heading", { name: "“Our Summer Adventures”" }).waitFor();
    expect(await page.getByTestId("step-paid").getAttribute("data-done")).toBe("true");
    expect(await page.getByTestId("step-shipped").getAttribute("data-done")).toBe("false");
    await screenshot("05-tracking");

    // The paid book's photos go through the queue to the sketch Worker.
    const bookId = await ownBookId();
    const processed = () =>
      page.evaluate(async (id) => ((await (await fetch(`/api/books/${id}/progress`)).json()) as { processedImages: number }).processedImages, bookId);
    await expect
      .poll(processed, {
        timeout: SKETCH_TIMEOUT_MS,
        interval: 1000,
      })
      .toBe(5);
    const images: { processingStatus: string; isSelected: boolean }[] = await page.evaluate(
      async (id) => (await fetch(`/api/books/${id}/images`)).json(),
      bookId,
    );
    expect(images.map((image) => [image.processingStatus, image.isSelected])).toEqual(Array(5).fill(["completed", true]));
  });

  it("Cancel closes the checkout, Retry Payment opens a new one; a failed retry restores the form", async () => {
    await readyStandardBook("Retry me");
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: /Switch to Premium/ }).click();
    await page.getByRole("button", { name: /Switch to Standard/ }).click();
    await purchaseButton().click();
    await page.waitForURL(/\/test-checkout\//, { timeout: 60_000 });
    const checkoutUrl = page.url();
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.waitForURL(/\/cancel$/);
    await page.getByRole("heading", { name: "Payment Cancelled" }).waitFor();
    await page.getByText("No charges were made to your account.").waitFor();
    await screenshot("05-cancel");
    await page.getByRole("button", { name: "Retry Payment" }).click();
    await page.waitForURL(/\/test-checkout\//);
    expect(page.url()).not.toBe(checkoutUrl);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL(/\/cancel$/);

    // The retry service fails: the visitor gets the form back with what they had chosen.
    await page.route("**/api/retry-payment", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
    await page.getByRole("button", { name: "Retry Payment" }).click();
    await page.waitForURL(/\/create-book\?retry=true$/);
    await waitForToast("Order Restored");
    await waitForToast("Your previous order details have been restored. You can modify them or proceed with payment.");
    expect(await page.getByLabel("Book title").inputValue()).toBe("Retry me");
    expect(await page.getByLabel(/Custom message/).inputValue()).toBe("For Grandma, with love.");
    expect(await page.getByLabel("Quantity", { exact: true }).textContent()).toBe("2");
    await page.getByRole("button", { name: /Switch to Premium/ }).waitFor(); // standard restored
    expect(await page.getByRole("dialog").count()).toBe(0);
    await screenshot("06-restored");
  });

  it("Back to Home from /cancel forgets the pending order and starts a new session id", async () => {
    await page.goto("/create-book?type=premium");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.getByRole("button", { name: /Switch to Standard/ }).waitFor();
    await page.evaluate(() =>
      localStorage.setItem("coloring-book-pending-order", JSON.stringify({ bookType: "premium", title: "Kept", quantity: 1, filesCount: 16 })),
    );
    const before = await page.evaluate(() => localStorage.getItem("coloring-book-session-id"));
    await page.goto("/cancel");
    await page.getByRole("button", { name: "Retry Payment" }).waitFor();
    await page.getByRole("button", { name: "Back to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.evaluate(() => localStorage.getItem("coloring-book-pending-order"))).toBeNull();
    const after = await page.evaluate(() => localStorage.getItem("coloring-book-session-id"));
    expect(after).not.toBe(before);
    expect((await context.cookies()).find((cookie) => cookie.name === "coloring-book-session-id")?.value).toBe(after);
    await page.goto("/cancel");
    await page.getByRole("link", { name: "Try Again" }).waitFor();
  });
});

describe("create-book rules", () => {
  it("keeps Purchase disabled until the photo range, title and terms are met, per plan", async () => {
    await page.goto("/create-book?type=standard");
    await addFiles(PHOTOS.slice(0, 4));
    await page.getByLabel("Book title").fill("   ");
    await page.getByLabel(/I agree to the/).check();
    expect(await purchaseButton().isDisabled()).toBe(true);
    await page.getByText("5-15 photos for the standard book (4 added)").waitFor();
    await addFiles(PHOTOS.slice(4));
    expect(await purchaseButton().isDisabled()).toBe(true); // blank title
    await page.getByLabel("Book title").fill("A title");
    await expect.poll(() => purchaseButton().isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Switch to Premium" }).click();
    expect(await purchaseButton().isDisabled()).toBe(true);
    await page.getByText("16-50 photos for the premium book (5 added)").waitFor();
    await page.getByRole("button", { name: "Switch to Standard" }).click();
    await page.getByLabel(/I agree to the/).uncheck();
    expect(await purchaseButton().isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Remove chelsea.jpg" }).click();
    expect(await page.getByTestId("photo-count").textContent()).toBe("4/50");
    await page.getByRole("button", { name: "Clear All" }).click();
    expect(await page.getByTestId("photo-count").textContent()).toBe("0/50");
  });

  it("skips a wrong type and a file over 15 MB with the product's messages, and refuses more than 50", async () => {
    await page.goto("/create-book?type=premium");
    await addFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") });
    await waitForToast("File 'notes.txt' is not a supported image format. Allowed: JPG, PNG, GIF, BMP, WebP");
    expect(await page.getByTestId("photo-count").textContent()).toBe("0/50");

    const big = path.join(mkdtempSync(path.join(tmpdir(), "big-photo-")), "huge.jpg");
    writeFileSync(big, Buffer.alloc(15 * 1024 * 1024 + 1, 0xff));
    await addFiles(big);
    await waitForToast("File 'huge.jpg' is larger than 15 MB. Please choose a smaller image.");
    expect(await page.getByTestId("photo-count").textContent()).toBe("0/50");

    const many = Array.from({ length: 51 }, (_, i) => ({ name: `p${i}.png`, mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }));
    await addFiles(many);
    await waitForToast("You can upload a maximum of 50 photos. You currently have 0 and trying to add 51 more.");
    expect(await page.getByTestId("photo-count").textContent()).toBe("0/50");
  });

  it("adds a stock photo after a short wait", async () => {
    await page.goto("/create-book?type=standard");
    const addMandala = page.getByRole("button", { name: "Add Mandala to book" });
    await waitForHydration(addMandala);
    await addMandala.click();
    await waitForToast("Stock photo added!");
    expect(await page.getByTestId("photo-count").textContent()).toBe("1/50");
  });

  it("disables Purchase while the photos upload, and stops on an upload error with the product's text", async () => {
    await readyStandardBook("Slow upload");
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let puts = 0;
    await page.route("**/api/uploads/**", async (route) => {
      puts += 1;
      if (puts === 1) {
        await gate;
        return route.continue();
      }
      return route.fulfill({ status: 500, contentType: "application/json", body: "{}" });
    });
    await purchaseButton().click();
    await page.getByRole("progressbar", { name: "Uploading your photos" }).waitFor();
    expect(await purchaseButton().isDisabled()).toBe(true);
    expect(await page.getByLabel("Book title").isDisabled()).toBe(true);
    await screenshot("07-uploading", false);
    release();
    await waitForToast("Upload Error");
    await waitForToast("Upload failed for chelsea.jpg: Internal Server Error");
    expect(new URL(page.url()).pathname).toBe("/create-book");
    await expect.poll(() => purchaseButton().isEnabled()).toBe(true);
  });
});
