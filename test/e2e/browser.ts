/**
 * What every browser test shares: Debian's Chromium launched the way TOOLCHAIN.md says, a fresh
 * visitor (own cookies and storage) against the `wrangler dev` of global-setup.ts, screenshots
 * into test-results/e2e/ for a human to look at, and toasts found by their text.
 */
import { mkdirSync } from "node:fs";
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

/** Five real photos (the fewest a standard book takes, SPEC section 5), as files on disk. */
export const FIVE_PHOTOS = [
  "test/fixtures/photos/astronaut.jpg",
  "test/fixtures/photos/chelsea.jpg",
  "test/fixtures/photos/coffee.jpg",
  "test/fixtures/images/chelsea-444-baseline.jpg",
  "test/fixtures/images/coffee-420-baseline.jpg",
].map((file) => path.join(ROOT, file));

/**
 * A UK delivery address typed into the form on the page: the book's order step and the local test
 * checkout label their fields alike.
 */
export async function fillUkDeliveryAddress(page: Page): Promise<void> {
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Address line 1").fill("12 St James's Square");
  await page.getByLabel("City").fill("London");
  await page.getByLabel("ZIP code").fill("SW1Y 4JH");
  await page.getByLabel("Country").selectOption("UK");
}
