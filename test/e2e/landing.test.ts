/**
 * The landing page in a real browser against `wrangler dev`: the before/after slider (mouse and
 * keyboard), the live statistics, the testimonial carousel, the example gallery and the calls
 * to action. Full-page screenshots at 1280 and 375 px go to test-results/e2e for a human to look at.
 */
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, SCREENSHOTS_DIR as screenshotsDir, waitForHydration } from "./browser";
import { GALLERY_EXAMPLE_COUNT, STATS_CACHE_MAX_AGE_SECONDS, TESTIMONIALS_PER_PAGE } from "../../app/lib/shop-rules";
import type { ShopStats } from "../../app/lib/api-types";
import { STATS_LABELS, STATS_LOADING_TEXT } from "../../app/lib/customer-copy";
import { TESTIMONIALS } from "../../app/lib/content/testimonials";

const STEP_TIMEOUT_MS = 20_000;

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** A new visitor (fresh cookies and cache) on a page of the given width. */
async function openPage(
  width = 1280,
  { reducedMotion = "no-preference" }: { reducedMotion?: "reduce" | "no-preference" } = {},
): Promise<Page> {
  context = await browser.newContext({ baseURL: inject("baseUrl"), viewport: { width, height: 900 }, reducedMotion });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  return context.newPage();
}

const statValue = (page: Page, label: string) =>
  page.getByTestId("shop-stats").getByText(label, { exact: true }).locator("xpath=following-sibling::dd");

async function waitForStats(page: Page) {
  await expect.poll(() => statValue(page, STATS_LABELS.booksCreated).textContent()).not.toBe(STATS_LOADING_TEXT);
}

async function waitForGalleryImages(page: Page) {
  // The heading, not the drifting strip: an animated element never counts as "stable".
  await page.getByRole("heading", { name: "Pages our customers colour" }).scrollIntoViewIfNeeded();
  const gallery = page.getByRole("list", { name: "Example coloring pages" });
  await expect
    .poll(() => gallery.getByRole("img").evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0)))
    .toEqual(Array.from({ length: GALLERY_EXAMPLE_COUNT }, () => true));
  return gallery;
}

describe("landing page", () => {
  it("moves the before/after slider with the mouse, clamps it at the edges and follows the arrow keys", async () => {
    const page = await openPage();
    await page.goto("/");
    const slider = page.getByRole("slider", { name: "Compare the photo with its sketch" });
    const value = async () => Number(await slider.getAttribute("aria-valuenow"));
    expect(await value()).toBe(50);
    // Both pictures of the comparison are real files that load.
    const frame = page.getByTestId("before-after");
    await expect
      .poll(() => frame.getByRole("img").evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0)))
      .toBe(true);
    // The handle only moves once React has hydrated it (React keeps its props on the element).
    await waitForHydration(slider);

    const box = (await frame.boundingBox())!;
    const handle = (await slider.boundingBox())!;
    const middleY = box.y + box.height / 2;
    await page.mouse.move(handle.x + handle.width / 2, middleY);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, middleY, { steps: 5 });
    await page.mouse.up();
    await expect.poll(value).toBeGreaterThanOrEqual(24);
    expect(await value()).toBeLessThanOrEqual(26);

    // Past the left edge and past the right edge while still dragging: clamped to 0 and 100.
    await page.mouse.move(box.x + box.width * 0.25, middleY);
    await page.mouse.down();
    await page.mouse.move(box.x - 80, middleY, { steps: 5 });
    await expect.poll(value).toBe(0);
    await page.mouse.move(box.x + box.width + 80, middleY, { steps: 8 });
    await expect.poll(value).toBe(100);
    await page.mouse.up();

    await slider.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await value()).toBe(90);
    await page.keyboard.press("ArrowRight");
    expect(await value()).toBe(95);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await value()).toBe(100);
  });

  it("shows '...' while the statistics load, then the counts from the shop's database", async () => {
    const page = await openPage();
    // One more book than before this test: a visitor with a book is a customer too.
    const made = await page.request.post("/api/books", { data: { title: "Counted on the landing page" } });
    expect(made.status()).toBe(201);
    // The counts may be up to a minute old (the Cache API keeps them): an earlier test that opened
    // the page may have cached them before this book. Wait until the shop's answer includes it.
    const booksCounted = async () => ((await (await page.request.get("/api/get-stats")).json()) as ShopStats).booksCreated;
    await expect
      .poll(booksCounted, { timeout: (STATS_CACHE_MAX_AGE_SECONDS + 15) * 1000, interval: 1000 })
      .toBeGreaterThanOrEqual(1);

    // Hold the answer back until the placeholder has been seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/get-stats", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/");
    for (const label of Object.values(STATS_LABELS)) {
      expect(await statValue(page, label).textContent()).toBe(STATS_LOADING_TEXT);
    }
    release();
    await waitForStats(page);
    const number = async (label: string) => Number((await statValue(page, label).textContent())!.replace(/,/g, ""));
    expect(await number(STATS_LABELS.booksCreated)).toBeGreaterThanOrEqual(1);
    expect(await number(STATS_LABELS.happyFamilies)).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(await number(STATS_LABELS.photosConverted))).toBe(true);
  });

  it("keeps the counters at 0 and only logs when the statistics cannot be loaded", async () => {
    const page = await openPage();
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.route("**/api/get-stats", (route) => route.fulfill({ status: 503, body: "down" }));
    await page.goto("/");
    await waitForStats(page);
    for (const label of Object.values(STATS_LABELS)) {
      expect(await statValue(page, label).textContent()).toBe("0");
    }
    await expect.poll(() => errors.some((text) => text.includes("Could not load the shop statistics"))).toBe(true);
    expect(await page.getByTestId("toast").count()).toBe(0);
  });

  it("pages the testimonials three at a time, forward and back", async () => {
    const page = await openPage();
    await page.goto("/");
    const carousel = page.getByRole("region", { name: "What our customers say" });
    const quotes = () => carousel.locator("blockquote").allTextContents();
    const previous = carousel.getByRole("button", { name: "Previous testimonials" });
    const next = carousel.getByRole("button", { name: "Next testimonials" });
    const dot = (n: number) => carousel.getByRole("button", { name: `Show testimonials page ${n} of 2` });

    const firstPage = TESTIMONIALS.slice(0, TESTIMONIALS_PER_PAGE).map((t) => t.quote);
    const secondPage = TESTIMONIALS.slice(TESTIMONIALS_PER_PAGE).map((t) => t.quote);
    expect(secondPage).toHaveLength(TESTIMONIALS_PER_PAGE);
    expect(await quotes()).toEqual(firstPage);
    expect(await previous.isDisabled()).toBe(true);
    expect(await dot(1).getAttribute("aria-current")).toBe("true");

    await next.click();
    await expect.poll(quotes).toEqual(secondPage);
    expect(await next.isDisabled()).toBe(true);
    expect(await dot(2).getAttribute("aria-current")).toBe("true");
    expect(await dot(1).getAttribute("aria-current")).toBeNull();

    await previous.click();
    await expect.poll(quotes).toEqual(firstPage);
    await dot(2).click();
    await expect.poll(quotes).toEqual(secondPage);
  });

  it("shows five example sketches that load, drifting unless the visitor prefers reduced motion", async () => {
    const page = await openPage();
    await page.goto("/");
    const gallery = await waitForGalleryImages(page);
    const alts = await gallery.getByRole("img").evaluateAll((images) => images.map((image) => image.getAttribute("alt")));
    expect(alts).toHaveLength(GALLERY_EXAMPLE_COUNT);
    for (const alt of alts) expect(alt).toMatch(/^Coloring page sketch of /);
    const strip = page.getByTestId("example-gallery").locator("> div");
    const playState = () => strip.evaluate((element) => getComputedStyle(element).animationPlayState);
    expect(await strip.evaluate((element) => getComputedStyle(element).animationName)).toBe("gallery-scroll");
    expect(await playState()).toBe("running");
    await page.getByRole("button", { name: "Pause the gallery" }).click();
    expect(await playState()).toBe("paused");
    await page.getByRole("button", { name: "Play the gallery" }).click();
    expect(await playState()).toBe("running");
    await context?.close();

    const still = await openPage(1280, { reducedMotion: "reduce" });
    await still.goto("/");
    await waitForGalleryImages(still);
    const stillStrip = still.getByTestId("example-gallery").locator("> div");
    expect(await stillStrip.evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
  });

  it("leads to the free preview and the plans, never to the hidden inline form, and has its social card", async () => {
    const page = await openPage();
    await page.goto("/");
    expect(await page.title()).toMatch(/Coloring Book Shop/);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length).toBeGreaterThan(50);
    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toBe(`${inject("baseUrl")}/og-image.png`);
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBeTruthy();
    const card = await page.request.get(ogImage!);
    expect(card.status()).toBe(200);
    expect(card.headers()["content-type"]).toBe("image/png");

    // The hidden inline mode is only reachable by typing its address.
    const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs.filter((href) => href?.includes("mode="))).toEqual([]);
    expect(await page.getByRole("heading", { name: "Create Your Custom Coloring Book" }).count()).toBe(0);
    expect(hrefs).toContain("/choose-plan");

    const hero = page.getByRole("region", { name: "Turn your photos into a coloring book" });
    await hero.getByRole("link", { name: "Try a free preview" }).click();
    // The preview page may not exist on this branch yet: the address is what counts here.
    await page.waitForURL("**/preview-test");
    expect(new URL(page.url()).pathname).toBe("/preview-test");
  });

  it("still opens the hidden inline create form at /?mode=create, loaded only there", async () => {
    const page = await openPage();
    const scripts: string[] = [];
    page.on("request", (request) => request.resourceType() === "script" && scripts.push(request.url()));
    await page.goto("/");
    await waitForStats(page);
    const landingScripts = scripts.splice(0);

    await page.goto("/?mode=create");
    await page.getByRole("heading", { name: "Create Your Custom Coloring Book" }).waitFor();
    // Client-side validation answers, so the lazily loaded form has hydrated.
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.getByText("Book title is required").waitFor();
    const formScripts = scripts.filter((url) => !landingScripts.includes(url));
    expect(formScripts.length).toBeGreaterThan(0);
    expect(await page.getByRole("slider").count()).toBe(0);
  });

  it("looks right at 1280 and 375 px wide (screenshots for a human)", async () => {
    for (const width of [1280, 375]) {
      const page = await openPage(width);
      await page.goto("/");
      await waitForStats(page);
      await waitForGalleryImages(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      // No part of the page may be wider than the screen (a sideways-scrolling phone page).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      // The drifting gallery is shown at its start: a full-page capture of a moving strip tears.
      await page.screenshot({ path: path.join(screenshotsDir, `landing-${width}.png`), fullPage: true, animations: "disabled" });
      await context?.close();
      context = undefined;
    }
  });
});
