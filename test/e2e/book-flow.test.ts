/**
 * The whole /book/{id} journey in a real browser against a real `wrangler dev` (both Workers,
 * local D1/R2/Queues): create a book through the hidden inline form, upload three real photos,
 * wait for their sketches, select them, order, and see the confirmation. Elements are found by
 * role and visible text; screenshots go to test-results/ for a human to look at.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { BOOK_PAGE_MESSAGES, CREATE_BOOK_MESSAGES } from "../../app/lib/customer-copy";
import { PLANS } from "../../app/lib/shop-rules";
import { fillUkDeliveryAddress, FIVE_PHOTOS, launchChromium, newVisitor, SCREENSHOTS_DIR as screenshotsDir } from "./browser";

// A standard book needs at least five photos (docs/product.md §3).
const PHOTOS = FIVE_PHOTOS.slice(0, 3);
const MORE_PHOTOS = FIVE_PHOTOS.slice(3);
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

// Each test is a new visitor: a fresh cookie jar means a fresh signed session.
beforeEach(async () => {
  ({ context, page } = await newVisitor(browser));
});

afterEach(async () => {
  await context?.close();
});

async function screenshot(name: string, fullPage = true) {
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`), fullPage });
}

async function waitForToast(text: string) {
  await page.getByTestId("toast").filter({ hasText: text }).waitFor();
}

describe("book flow", () => {
  it("creates a book, turns five photos into sketches and orders the printed book", async () => {
    // 1. The hidden inline mode of the landing page.
    await page.goto("/?mode=create");
    await page.getByRole("heading", { name: "Create Your Custom Coloring Book" }).waitFor();
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.getByText("Book title is required").waitFor();
    await screenshot("01-create-book-validation");

    await page.getByLabel("Book title").fill("Our Summer Adventures");
    await page.getByLabel(/Personal message/).fill("For Grandma, with love from all of us.");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    await waitForToast("Book created successfully!");
    const bookId = Number(new URL(page.url()).pathname.split("/")[2]);
    expect(bookId).toBeGreaterThan(0);

    // 2. Upload: the page says there is no size limit; a wrong type is refused with the product's text.
    await page.getByRole("heading", { name: /Upload photos for/ }).waitFor();
    await page.getByText("There is no size limit.").waitFor();
    // The header's Admin button leads to the orders desk (a 404 for this visitor: see fulfilment.test.ts).
    expect(await page.getByRole("link", { name: "Admin" }).getAttribute("href")).toBe("/admin");
    expect(await page.getByRole("button", { name: "Connect Wallet" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Next", exact: true }).isDisabled()).toBe(true);
    await screenshot("02-upload-empty");

    const dropzone = page.getByRole("button", { name: /Drag & drop photos/ });
    let chooser = page.waitForEvent("filechooser");
    await dropzone.click();
    await (await chooser).setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") });
    await waitForToast("notes.txt is not a supported image format.");

    chooser = page.waitForEvent("filechooser");
    await dropzone.click();
    await (await chooser).setFiles([...PHOTOS, ...MORE_PHOTOS]);
    await waitForToast("Images uploaded successfully!");
    const uploaded = page.getByRole("region", { name: "Your photos" }).getByRole("listitem");
    expect(await uploaded.count()).toBe(5);
    await page.getByRole("img", { name: "chelsea.jpg" }).waitFor();
    await screenshot("03-upload-done");

    // 3. Next starts processing and opens the preview, which polls until every sketch is ready.
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page.waitForURL(`**/book/${bookId}/preview`);
    await waitForToast("Processing started!");
    await page.getByRole("heading", { name: "Choose the sketches for your book" }).waitFor();
    expect(await page.getByRole("button", { name: "Create My Book" }).isDisabled()).toBe(true);
    await screenshot("04-preview-processing");

    await page
      .getByText("Ready", { exact: true })
      .nth(4)
      .waitFor({ timeout: SKETCH_TIMEOUT_MS });
    expect(await page.getByText("Ready", { exact: true }).count()).toBe(5);
    await page.getByRole("img", { name: "Sketch of coffee.jpg" }).waitFor();
    await page.getByRole("button", { name: "Select High Quality Only" }).waitFor();
    await screenshot("05-preview-ready");

    await page.getByRole("button", { name: "Preview astronaut.jpg" }).click();
    await waitForToast("Full-size preview coming soon!");

    // Select them all; the checkboxes follow and the page count is selected + 2.
    await page.getByRole("button", { name: "Select All", exact: true }).click();
    for (const name of ["astronaut.jpg", "chelsea.jpg", "coffee.jpg"]) {
      await expect.poll(() => page.getByRole("checkbox", { name: `Select ${name}` }).isChecked()).toBe(true);
    }
    await page.getByRole("button", { name: "Selected (5)" }).waitFor();
    const pages = page.getByText("Estimated pages").locator("xpath=following-sibling::dd");
    expect(await pages.textContent()).toBe("7");
    await screenshot("06-preview-selected");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot("06m-preview-selected-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // 4. Order: validation under the fields, a quote once ZIP and country are set, then pay.
    await page.getByRole("button", { name: "Create My Book" }).click();
    await page.waitForURL(`**/book/${bookId}/order`);
    await page.getByRole("heading", { name: "Order your printed book" }).waitFor();
    await page.getByText("7 (5 sketches + title and dedication)").waitFor();

    await page.getByRole("button", { name: "Complete Order" }).click();
    for (const message of ["First name is required", "Last name is required", "Invalid email address", "Address is required", "City is required", "ZIP code is required", "Country is required"]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await screenshot("07-order-validation");

    await fillUkDeliveryAddress(page);

    const quote = page.getByRole("definition").filter({ hasText: "FREE" });
    await quote.waitFor();
    await page.getByText("AI processing fee").waitFor();
    await page.getByText("Base price").waitFor();
    expect(await page.getByRole("radio", { name: /card/i }).isChecked()).toBe(true);
    await screenshot("08-order-quote");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot("08m-order-quote-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // The order page pays through the provider: here the local test checkout plays Stripe.
    await page.getByRole("button", { name: "Complete Order" }).click();
    await page.waitForURL(/\/test-checkout\/cs_local_/);
    await page.getByText("Test payment", { exact: true }).waitFor();
    expect(await page.getByTestId("test-checkout-total").textContent()).toBe("£19.99");
    await screenshot("09a-test-checkout");
    await page.getByRole("button", { name: "Pay £19.99" }).click();
    await page.waitForURL(new RegExp(`/book/${bookId}/order\\?session_id=cs_local_`));
    await page.getByRole("heading", { name: "Order Confirmed" }).waitFor();
    await waitForToast("Your order has been placed successfully.");
    const orderNumber = await page.getByText("Order number").locator("xpath=following-sibling::dd").textContent();
    expect(orderNumber?.trim()).toMatch(/\S{4,}/);
    await page.getByText("Total paid").waitFor();
    await page.getByText("Estimated delivery").waitFor();
    await page.getByRole("link", { name: "Track Your Order" }).waitFor();
    await page.getByRole("link", { name: "Create Another Book" }).waitFor();
    await screenshot("09-order-confirmed");
  });

  it("sends a non-integer book id back to / and hides another visitor's book", async () => {
    await page.goto("/book/not-a-number/upload");
    expect(new URL(page.url()).pathname).toBe("/");

    const response = await page.goto("/book/999999/preview");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
  });

  it("refuses to order without a price quote", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("No quote yet");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    // The quote service is down: the page must say why and never place an unpriced order.
    await page.route("**/api/books/*/quote", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "Quotes are unavailable." }) }),
    );
    await page.goto(page.url().replace(/upload$/, "order"));
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Phone").fill("217 555 0100");
    await page.getByLabel("Address line 1").fill("1 Main Street");
    await page.getByLabel("City").fill("Springfield");
    await page.getByLabel("State or province").fill("IL");
    await page.getByLabel("ZIP code").fill("12345");
    await page.getByLabel("Country").selectOption("US");
    await page.getByText("Quotes are unavailable.").waitFor();
    await page.getByRole("button", { name: "Complete Order" }).click();
    await waitForToast("Please provide valid delivery information to get a price quote.");
    await page.getByTestId("toast").filter({ hasText: "Quote required" }).waitFor();
    expect(await page.getByRole("heading", { name: "Order Confirmed" }).count()).toBe(0);
    await screenshot("10-order-quote-required", false);
  });

  it("shows why a photo failed and still lets the visitor order the others", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("One broken photo");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);

    // A JPEG cut off halfway: its header is fine, so the upload is accepted and the sketch fails.
    const coffee = readFileSync(PHOTOS[2]);
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: /Drag & drop photos/ }).click();
    await (await chooser).setFiles([
      { name: "chelsea.jpg", mimeType: "image/jpeg", buffer: readFileSync(PHOTOS[1]) },
      { name: "broken.jpg", mimeType: "image/jpeg", buffer: coffee.subarray(0, Math.floor(coffee.length / 2)) },
    ]);
    await waitForToast("Images uploaded successfully!");
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page.waitForURL(/\/preview$/);

    await page.getByText("Failed", { exact: true }).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    await page.getByText("Ready", { exact: true }).waitFor({ timeout: SKETCH_TIMEOUT_MS });
    expect(await page.getByRole("checkbox", { name: "Select broken.jpg" }).isDisabled()).toBe(true);
    const createButton = page.getByRole("button", { name: "Create My Book" });
    expect(await createButton.isDisabled()).toBe(true);

    await page.getByRole("checkbox", { name: "Select chelsea.jpg" }).check();
    await expect.poll(() => createButton.isEnabled()).toBe(true);
    // One usable photo of the five a standard book needs: said here, before Create My Book (docs/product.md §5.8).
    const photoRange = page.getByRole("region", { name: BOOK_PAGE_MESSAGES.photoRangeHeading });
    await photoRange.getByText(BOOK_PAGE_MESSAGES.planPhotoRange(PLANS.standard.name, PLANS.standard.minPhotos, PLANS.standard.maxPhotos)).waitFor();
    await photoRange.getByText(CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", PLANS.standard.minPhotos)).waitFor();
    await photoRange.getByText(BOOK_PAGE_MESSAGES.uploadMore(PLANS.standard.minPhotos - 1)).waitFor();
    expect(await photoRange.getByRole("link", { name: BOOK_PAGE_MESSAGES.uploadMoreLink }).getAttribute("href")).toMatch(/\/book\/\d+\/upload$/);
    await page.getByRole("button", { name: "Unselected (1)" }).click();
    expect(await page.getByRole("checkbox").count()).toBe(1);
    await page.getByRole("button", { name: "Remove broken.jpg" }).click();
    await waitForToast("Photos can't be removed from a book yet.");
    await screenshot("11-preview-failed-image");
  });
  it("shrinks a big phone photo to print size in the browser before uploading it", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("Big photos");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    const bookId = Number(new URL(page.url()).pathname.split("/")[2]);

    // A 4800x3600 (17 MP) JPEG drawn by the browser itself, as a phone camera would hand it over.
    const base64 = await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 4800;
      canvas.height = 3600;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#cde";
      context.fillRect(0, 0, 4800, 3600);
      context.fillStyle = "#234";
      context.beginPath();
      context.arc(2400, 1800, 1200, 0, Math.PI * 2);
      context.fill();
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg", 0.95));
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    });
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: /Drag & drop photos/ }).click();
    await (await chooser).setFiles([{ name: "IMG_0001.jpg", mimeType: "image/jpeg", buffer: Buffer.from(base64, "base64") }]);
    await waitForToast("Images uploaded successfully!");

    const images: { originalFilename: string; width: number; height: number }[] = await page.evaluate(
      async (id) => (await fetch(`/api/books/${id}/images`)).json(),
      bookId,
    );
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ originalFilename: "IMG_0001.jpg", width: 3300, height: 2475 });
  });
});
