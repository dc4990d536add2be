/**
 * A phone's page never scrolls sideways: at 390 px (a current iPhone) and 375 px (the smaller
 * ones), every page of the shop a customer meets is no wider than the window. A failure names the
 * elements that make a page wide, so the fix can go to its source.
 */
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIVE_PHOTOS, SKETCH_TIMEOUT_MS, callApi, chooseFivePhotos, launchChromium, newVisitor } from "./browser";

const WIDTHS = [390, 375] as const;

let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A book without photos, and one with a photo drawn and selected (its preview and order pages have content). */
const fixture = { emptyBookId: 0, bookId: 0 };

interface Overflow {
  scrollWidth: number;
  clientWidth: number;
  /** The innermost elements without which the page would fit, outermost first, as tag.class "text". */
  culprits: string[];
}

/**
 * How far the page scrolls sideways, and what makes it: the path of elements each of which, hidden,
 * lets the page fit, down to the innermost. (A box that sticks out is not always it: an sr-only
 * label inside a scrolling strip sticks out of no box yet widens the page when positioned from it.)
 */
function measureOverflow(target: Page): Promise<Overflow> {
  return target.evaluate(() => {
    const root = document.documentElement;
    const fits = () => root.scrollWidth <= root.clientWidth;
    const culprits: string[] = [];
    for (let node: Element | undefined = document.body; node && !fits(); ) {
      node = [...node.children].find((child) => {
        const element = child as HTMLElement;
        const display = element.style.display;
        element.style.display = "none";
        const fitsWithout = fits();
        element.style.display = display;
        return fitsWithout;
      });
      if (!node) break;
      const classes = typeof node.className === "string" ? node.className.trim().split(/\s+/).slice(0, 6).join(".") : "";
      culprits.push(`${node.tagName.toLowerCase()}${classes ? `.${classes}` : ""} "${(node.textContent ?? "").trim().slice(0, 40)}"`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: culprits.slice(-3) };
  });
}

async function goto(url: string, heading?: string | RegExp) {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  if (heading) await page.getByRole("heading", { name: heading }).first().waitFor();
}

const VISITS: { name: string; open: () => Promise<void> }[] = [
  { name: "/", open: () => goto("/") },
  { name: "/choose-plan", open: () => goto("/choose-plan") },
  {
    name: "/create-book (plan question open)",
    open: async () => {
      await goto("/create-book");
      await page.getByRole("dialog", { name: "Which book would you like?" }).waitFor();
    },
  },
  {
    name: "/create-book (a standard book, five photos chosen)",
    open: async () => {
      await goto("/create-book?type=standard");
      await chooseFivePhotos(page);
    },
  },
  { name: "/preview-test", open: () => goto("/preview-test") },
  { name: "/faq", open: () => goto("/faq") },
  { name: "/help", open: () => goto("/help") },
  { name: "/privacy", open: () => goto("/privacy") },
  { name: "/terms", open: () => goto("/terms") },
  { name: "Page Not Found", open: () => goto("/no-such-page", "Page Not Found") },
  { name: "/book/{id}/upload (no photos)", open: () => goto(`/book/${fixture.emptyBookId}/upload`, /Upload photos for/) },
  {
    name: "/book/{id}/upload (a photo uploaded)",
    open: async () => {
      await goto(`/book/${fixture.bookId}/upload`, /Upload photos for/);
      await page.getByRole("img", { name: "chelsea.jpg" }).first().waitFor();
    },
  },
  {
    name: "/book/{id}/preview",
    open: async () => {
      await goto(`/book/${fixture.bookId}/preview`, "Choose the sketches for your book");
      await page.getByRole("img", { name: "Sketch of chelsea.jpg" }).first().waitFor();
    },
  },
  { name: "/book/{id}/order", open: () => goto(`/book/${fixture.bookId}/order`, "Order your printed book") },
];

beforeAll(async () => {
  browser = await launchChromium();
  ({ context, page } = await newVisitor(browser));
  fixture.emptyBookId = (await callApi<{ id: number }>(page, "POST", "/api/books", { title: "Nothing Yet" })).id;
  fixture.bookId = (await callApi<{ id: number }>(page, "POST", "/api/books", { title: "A Very Long Book Title That Keeps Going On A Phone" })).id;
  const chelsea = FIVE_PHOTOS.find((photo) => photo.endsWith("/chelsea.jpg"))!;
  const upload = await page.request.post(`/api/books/${fixture.bookId}/images`, {
    multipart: { images: { name: "chelsea.jpg", mimeType: "image/jpeg", buffer: readFileSync(chelsea) } },
  });
  if (!upload.ok()) throw new Error(`upload answered ${upload.status()}: ${await upload.text()}`);
  await callApi(page, "POST", `/api/books/${fixture.bookId}/process`);
  type Image = { id: number; processingStatus: string };
  const deadline = Date.now() + SKETCH_TIMEOUT_MS;
  let images = await callApi<Image[]>(page, "GET", `/api/books/${fixture.bookId}/images`);
  while (!images.every((image) => image.processingStatus === "completed")) {
    if (Date.now() > deadline) throw new Error(`the sketch of book ${fixture.bookId} was not drawn within ${SKETCH_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    images = await callApi<Image[]>(page, "GET", `/api/books/${fixture.bookId}/images`);
  }
  for (const image of images) await callApi(page, "PATCH", `/api/images/${image.id}/selection`, { isSelected: true });
}, SKETCH_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("no page scrolls sideways on a phone", () => {
  for (const width of WIDTHS) {
    it(`at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 844 });
      const wide: string[] = [];
      for (const visit of VISITS) {
        await visit.open();
        const { scrollWidth, clientWidth, culprits } = await measureOverflow(page);
        if (scrollWidth > clientWidth) wide.push(`${visit.name}: ${scrollWidth} px wide in ${clientWidth} px\n    ${culprits.join("\n    ")}`);
      }
      expect(wide, wide.join("\n")).toEqual([]);
    });
  }
});
