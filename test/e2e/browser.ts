/**
 * What every browser test shares: Debian's Chromium (`apt-get install -y chromium`, as .ci/run
 * does), launched headless without its sandbox, GPU or background traffic (a container has none
 * of them), a fresh visitor (own cookies and storage) against the `wrangler dev` of
 * global-setup.ts, screenshots into test-results/e2e/ for a human to look at, and toasts found by
 * their text.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "playwright-core";
import { inject } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SCREENSHOTS_DIR = path.join(ROOT, "test-results", "e2e");
export const STEP_TIMEOUT_MS = 20_000;

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
}

/** A new visitor: a fresh cookie jar (so a fresh signed session) and fresh local storage. */
export async function newVisitor(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: inject("baseUrl"), viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  return { context, page: await context.newPage() };
}

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS_DIR, `${name}.png`);
}

export async function waitForToast(page: Page, text: string): Promise<void> {
  await page.getByTestId("toast").filter({ hasText: text }).first().waitFor();
}

/**
 * Waits until React has hydrated the element (React keeps its props on it). A click that lands
 * on the server-rendered markup before that does nothing, which a busy machine makes likely.
 */
export async function waitForHydration(element: Locator): Promise<void> {
  await element.evaluate(
    (node) =>
      new Promise<void>((resolve) => {
        const check = () => (Object.keys(node).some((key) => key.startsWith("__reactProps")) ? resolve() : setTimeout(check, 50));
        check();
      }),
  );
}

/** Five real photos (the fewest a standard book takes, docs/product.md §3), as files on disk. */
export const FIVE_PHOTOS = [
  "test/fixtures/photos/astronaut.jpg",
  "test/fixtures/photos/chelsea.jpg",
  "test/fixtures/photos/coffee.jpg",
  "test/fixtures/images/chelsea-444-baseline.jpg",
  "test/fixtures/images/coffee-420-baseline.jpg",
].map((file) => path.join(ROOT, file));

/** On /create-book with its plan chosen: the five photos added through the drop zone's file dialog, all listed. */
export async function chooseFivePhotos(page: Page): Promise<void> {
  const dropzone = page.getByRole("button", { name: /Add photos/ });
  await waitForHydration(dropzone);
  const chooser = page.waitForEvent("filechooser");
  await dropzone.click();
  await (await chooser).setFiles(FIVE_PHOTOS);
  await page.getByRole("list", { name: "Chosen photos" }).getByRole("listitem").nth(4).waitFor();
}

/**
 * A UK delivery address typed into the form on the page: the book's order step and the local test
 * checkout label their fields alike.
 */
export async function fillUkDeliveryAddress(page: Page): Promise<void> {
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Phone").fill("+44 20 7946 0000");
  await page.getByLabel("Address line 1").fill("12 St James's Square");
  await page.getByLabel("City").fill("London");
  await page.getByLabel("ZIP code").fill("SW1Y 4JH");
  await page.getByLabel("Country").selectOption("UK");
}

/**
 * A Standard book bought on /create-book as a customer buys it: FIVE_PHOTOS, the title (and a
 * dedication), the local test checkout paid with a UK address. Answers the paid order's number,
 * read from /success.
 */
export async function buyOnCreateBook(page: Page, book: { title: string; dedication?: string }): Promise<string> {
  await page.goto("/create-book");
  await page.getByRole("dialog", { name: "Which book would you like?" }).waitFor();
  await page.getByRole("button", { name: /^Standard Book, 5-15 pages/ }).click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Add photos: drag and drop/ }).click();
  await (await chooser).setFiles(FIVE_PHOTOS);
  await waitForToast(page, "5 file(s) added. Total: 5/50.");
  await page.getByLabel("Book title").fill(book.title);
  if (book.dedication) await page.getByLabel(/Custom message/).fill(book.dedication);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Purchase Coloring Book" }).click();
  await page.waitForURL(/\/test-checkout\/cs_local_/, { timeout: 60_000 });
  await fillUkDeliveryAddress(page);
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL(/\/success\?session_id=cs_local_/);
  await page.getByRole("heading", { name: "Payment Successful" }).waitFor();
  return (await page.getByTestId("success-order-number").textContent())!;
}

/** Signs the page in to the orders desk with the local password of this wrangler dev. */
export async function signInToDesk(page: Page): Promise<void> {
  await page.goto("/admin/sign-in");
  await page.getByLabel("Password").fill(inject("adminPassword"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
}

/** The JSON API, as the visitor's browser calls it (its cookie, so what it makes is its own). */
export async function callApi<T>(page: Page, method: "GET" | "POST" | "PATCH", url: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(url, { method, data });
  if (!response.ok()) throw new Error(`${method} ${url} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The sketch Worker draws five photos within this on a busy machine. */
export const SKETCH_TIMEOUT_MS = 240_000;

/**
 * A book made through the API as the pages would make it: FIVE_PHOTOS uploaded and drawn, all
 * selected, a UK quote, an order, and its payment opened (not paid) on the local test checkout.
 */
export async function orderedBook(page: Page, title = "Our Cat"): Promise<{ bookId: number; checkoutPath: string }> {
  const bookId = (await callApi<{ id: number }>(page, "POST", "/api/books", { title, personalMessage: "For Chelsea." })).id;
  for (const photo of FIVE_PHOTOS) {
    const upload = await page.request.post(`/api/books/${bookId}/images`, {
      multipart: { images: { name: path.basename(photo), mimeType: "image/jpeg", buffer: readFileSync(photo) } },
    });
    if (!upload.ok()) throw new Error(`upload answered ${upload.status()}: ${await upload.text()}`);
  }
  await callApi(page, "POST", `/api/books/${bookId}/process`);
  type Image = { id: number; processingStatus: string };
  const images = () => callApi<Image[]>(page, "GET", `/api/books/${bookId}/images`);
  const deadline = Date.now() + SKETCH_TIMEOUT_MS;
  while (!(await images()).every((image) => image.processingStatus === "completed")) {
    if (Date.now() > deadline) throw new Error(`the sketches of book ${bookId} were not drawn within ${SKETCH_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  for (const image of await images()) await callApi(page, "PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
  const address = { country: "UK", zipCode: "SW1Y 4JH" };
  const { quoteId } = await callApi<{ quoteId: string }>(page, "POST", `/api/books/${bookId}/quote`, { deliveryAddress: address });
  const deliveryInfo = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000", address1: "12 St James's Square", city: "London", ...address };
  const order = await callApi<{ id: number }>(page, "POST", "/api/orders", { bookId, quoteId, deliveryInfo, paymentMethod: "card" });
  const { checkoutUrl } = await callApi<{ checkoutUrl: string }>(page, "POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card" });
  return { bookId, checkoutPath: new URL(checkoutUrl, inject("baseUrl")).pathname };
}

/** Presses Pay on the local test checkout; the page is left on the order's confirmation. */
export async function payOnTestCheckout(page: Page, checkoutPath: string): Promise<void> {
  await page.goto(checkoutPath);
  const pay = page.getByRole("button", { name: /^Pay / });
  await waitForHydration(pay);
  await pay.click();
  await page.waitForURL(/\/book\/\d+\/order\?session_id=/);
  await page.getByRole("heading", { name: "Order Confirmed" }).waitFor();
}
