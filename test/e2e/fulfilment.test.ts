/**
 * Fulfilment (docs/product.md §5.16, docs/design.md §6), in Chromium against `wrangler dev` (both Workers, local D1/R2/Queues):
 * a book is paid through the local test checkout → its print PDF appears in R2 (the desk's PDF
 * link answers application/pdf) → /admin shows the order with that PDF → the admin marks it
 * shipped with a tracking number → the customer's /orders/{number} shows the number → the
 * desk's outbox holds the order's three emails (confirmation, the PDF's link once it was made,
 * shipped). Screenshots of the desk at 1280 and 375 px.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buyOnCreateBook, launchChromium, newVisitor, screenshotPath, waitForToast } from "./browser";

/** The book's five photos are drawn by the sketch Worker, then the PDF is built from them. */
const PDF_TIMEOUT_MS = 240_000;
/** The purchase, the drawing and the desk in one test: longer than the project's default. */
const TEST_TIMEOUT_MS = 420_000;
const TITLE = "Grandma's Garden";
const TRACKING_NUMBER = "JD014600003828";

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function visitor(): Promise<Page> {
  const { context, page } = await newVisitor(browser);
  contexts.push(context);
  return page;
}

async function deskScreenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: screenshotPath(`fulfilment-${name}-1280`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: screenshotPath(`fulfilment-${name}-375`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("fulfilment", () => {
  it("paid → PDF in R2 → on the desk → shipped with tracking → the customer sees it → three emails", async () => {
    const customer = await visitor();
    const orderNumber = await buyOnCreateBook(customer, { title: TITLE, dedication: "For Ada, who planted every one of these flowers." });
    expect(orderNumber).toMatch(/^CB-\d{8}-[2-9A-HJ-NP-Z]{5}$/);

    // A stranger (the customer too) finds no desk: the ordinary 404 page.
    await customer.goto("/admin");
    await customer.getByRole("heading", { name: "Page Not Found" }).waitFor();

    const admin = await visitor();
    const response = await admin.goto("/admin");
    expect(response?.status()).toBe(404);
    await admin.goto("/admin/sign-in");
    await admin.getByLabel("Password").fill("not the password");
    await admin.getByRole("button", { name: "Sign in" }).click();
    await admin.getByText("That password is not right.").waitFor();
    await deskScreenshots(admin, "00-sign-in-refused");
    await admin.getByLabel("Password").fill(inject("adminPassword"));
    await admin.getByRole("button", { name: "Sign in" }).click();
    await admin.waitForURL((url) => url.pathname === "/admin");
    await admin.getByRole("heading", { name: "Orders desk" }).waitFor();

    // The print job waits for the sketches, then streams print/<n>.pdf to R2.
    const pdfUrl = `/admin/orders/${orderNumber}/pdf`;
    await expect
      .poll(
        async () => {
          const pdf = await admin.request.get(pdfUrl);
          return `${pdf.status()} ${pdf.headers()["content-type"]}`;
        },
        { timeout: PDF_TIMEOUT_MS, interval: 2_000 },
      )
      .toBe("200 application/pdf");
    const pdfBytes = await (await admin.request.get(pdfUrl)).body();
    expect(pdfBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    await admin.reload();
    const card = admin.getByRole("article", { name: `Order ${orderNumber}` });
    await card.getByText(`“${TITLE}”`).waitFor();
    // The local test printer (as under `npm run dev`) takes the order by itself once its PDF exists.
    await expect.poll(async () => (await admin.reload(), await card.getByTestId("desk-status").textContent())).toBe("Sent to print");
    await card.getByText("12 St James's Square").waitFor();
    expect(await card.getByRole("link", { name: `Print PDF of ${orderNumber}` }).getAttribute("href")).toBe(pdfUrl);
    await deskScreenshots(admin, "01-desk-pdf-ready");

    // Shipping needs a tracking number; the form says so.
    await card.getByRole("button", { name: "Mark shipped" }).click();
    await card.getByText("Enter the carrier's tracking number.").waitFor();
    await card.getByLabel("Tracking number").fill(TRACKING_NUMBER);
    await card.getByRole("button", { name: "Mark shipped" }).click();
    await waitForToast(admin, "Marked shipped.");
    await expect.poll(() => card.getByTestId("desk-status").textContent()).toBe("Shipped");
    expect(await card.getByTestId("desk-tracking").textContent()).toBe(TRACKING_NUMBER);

    // The customer's tracking page.
    await customer.goto(`/orders/${orderNumber}`);
    await customer.getByRole("heading", { name: `“${TITLE}”` }).waitFor();
    expect(await customer.getByTestId("tracking-number").textContent()).toBe(TRACKING_NUMBER);
    expect(await customer.getByTestId("step-shipped").getAttribute("data-done")).toBe("true");
    await customer.screenshot({ path: screenshotPath("fulfilment-02-customer-tracking"), fullPage: true });

    // The outbox: the confirmation, the PDF's link (the PDF was made after the confirmation went
    // out, docs/decisions/028) and the shipped email of this order.
    await admin.reload();
    const emails = admin.locator(`[data-testid="outbox-email"][data-order="${orderNumber}"]`);
    await expect.poll(() => emails.count()).toBe(3);
    const kinds = await emails.evaluateAll((items) => items.map((item) => item.getAttribute("data-kind")).sort());
    expect(kinds).toEqual(["order-confirmation", "order-shipped", "pdf-ready"]);
    await deskScreenshots(admin, "03-desk-shipped");

    // One email, read in a sandboxed frame.
    await admin.locator(`[data-testid="outbox-email"][data-order="${orderNumber}"][data-kind="order-shipped"]`).getByRole("link").click();
    await admin.waitForURL(/\/admin\/emails\/\d+$/);
    const frame = admin.locator("iframe");
    expect(await frame.getAttribute("sandbox")).toBe("");
    await admin.frameLocator("iframe").getByText(TRACKING_NUMBER).first().waitFor();
    await deskScreenshots(admin, "04-email");
  }, TEST_TIMEOUT_MS);
});
