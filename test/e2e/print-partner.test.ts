/**
 * The print partner's must-show (docs/decisions/028), in Chromium against `wrangler dev` with the
 * local test printer, as `npm run dev` runs it: a book is paid → its PDF is made and the order
 * reaches the printer by itself → the test printer's page moves it to in production, then shipped
 * with a tracking number (each move calling our webhook, signed, as Lulu would) → the desk, the
 * customer's tracking page and the outbox show the tracking number; the customer downloads their
 * book's PDF from the success page.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyOnCreateBook, launchChromium, newVisitor, screenshotPath, signInToDesk } from "./browser";

const SENT_TIMEOUT_MS = 300_000;
const TITLE = "Printed By Itself";

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

describe("print partner (local test printer)", () => {
  it("paid → sent to the printer by itself → in production → shipped with tracking → the customer and the outbox see it", { timeout: 480_000 }, async () => {
    const customer = await visitor();
    const orderNumber = await buyOnCreateBook(customer, { title: TITLE });

    const admin = await visitor();
    await signInToDesk(admin);

    // Nobody presses anything: the PDF is made, then the order goes to the printer.
    const card = admin.getByRole("article", { name: `Order ${orderNumber}` });
    await expect
      .poll(
        async () => {
          await admin.reload();
          return (await card.count()) ? card.getByTestId("desk-status").textContent() : null;
        },
        { timeout: SENT_TIMEOUT_MS, interval: 3_000 },
      )
      .toBe("Sent to print");
    expect(await card.getByTestId("desk-print").textContent()).toContain("Local test printer");
    await admin.screenshot({ path: screenshotPath("print-partner-01-desk-sent"), fullPage: true });

    // The customer's own PDF, on the success page they are still on (it asks again until the PDF is made).
    const pdfLink = customer.getByTestId("customer-pdf-link");
    await pdfLink.waitFor({ timeout: 60_000 });
    await customer.screenshot({ path: screenshotPath("print-partner-00-success-pdf"), fullPage: true });
    const download = await customer.request.get((await pdfLink.getAttribute("href"))!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    expect((await download.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The test printer plays Lulu: production, then shipping with a tracking number.
    await admin.getByRole("link", { name: "Test printer" }).click();
    await admin.waitForURL((url) => url.pathname === "/admin/test-printer");
    const job = admin.locator(`[data-testid="test-print-job"][data-external-id="${orderNumber}"]`);
    expect(await job.getByTestId("test-print-status").textContent()).toBe("CREATED");
    await job.getByRole("button", { name: "Start production" }).click();
    await expect.poll(() => admin.getByTestId("test-printer-answer").textContent()).toContain("200 applied");
    await job.getByRole("button", { name: "Ship with a tracking number" }).click();
    await expect.poll(() => job.getByTestId("test-print-status").textContent()).toBe("SHIPPED");
    expect(await admin.getByTestId("test-printer-answer").textContent()).toContain("200 applied");
    const trackingNumber = (await job.textContent())!.match(/TEST\d{8}/)![0];
    await admin.screenshot({ path: screenshotPath("print-partner-02-test-printer"), fullPage: true });

    await admin.goto("/admin");
    await expect.poll(() => card.getByTestId("desk-status").textContent()).toBe("Shipped");
    expect(await card.getByTestId("desk-tracking").textContent()).toBe(trackingNumber);

    await customer.goto(`/orders/${orderNumber}`);
    expect(await customer.getByTestId("tracking-number").textContent()).toBe(trackingNumber);
    expect(await customer.getByTestId("carrier").textContent()).toBe("Test Post");
    expect(await customer.getByTestId("tracking-link").getAttribute("href")).toBe(`https://tracking.example/${trackingNumber}`);
    await customer.screenshot({ path: screenshotPath("print-partner-03-customer-tracking"), fullPage: true });

    const shippedEmail = admin.locator(`[data-testid="outbox-email"][data-order="${orderNumber}"][data-kind="order-shipped"]`);
    await expect.poll(() => shippedEmail.count()).toBe(1);
    await shippedEmail.getByRole("link").click();
    await admin.waitForURL(/\/admin\/emails\/\d+$/);
    expect(await admin.locator("body").textContent()).toContain(trackingNumber);
  });
});
