/**
 * Every page of the shop (docs/product.md §5), in Chromium against `wrangler dev`, checked with axe-core's
 * WCAG 2.1 A and AA rules at 1280 and 375 px, in the states a visitor meets (a modal open, photos
 * chosen, a quote shown, an answer expanded, the pending state before the page has run its
 * scripts). Any violation fails, listed as page, width, rule and element. A page whose Content
 * Security Policy refused something (a library's inline style or script) fails too.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { helpHref } from "../../app/components/help-center";
import { HELP_CATEGORIES } from "../../app/lib/content/help";
import {
  chooseFivePhotos,
  SKETCH_TIMEOUT_MS,
  callApi,
  fillUkDeliveryAddress,
  launchChromium,
  newVisitor,
  orderedBook,
  payOnTestCheckout,
  waitForHydration,
} from "./browser";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WIDTHS = [1280, 375] as const;
const WCAG_21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/**
 * Two rules axe files under best practice that check WCAG 1.3.1 and 2.4.6 in practice: headings
 * that skip a level, and a page without an h1. The issue counted both; they run here too.
 */
const HEADING_RULES = ["heading-order", "page-has-heading-one"];

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

interface Visit {
  name: string;
  /** Brings the page into the state to check; called once per width, so it must be repeatable. */
  open: (page: Page) => Promise<void>;
  /** The admin's browser instead of the customer's. */
  asAdmin?: boolean;
}

let browser: Browser;
const contexts: BrowserContext[] = [];
let customer: Page;
let admin: Page;
/** What a page's CSP refused, by the page that was open. */
let refusals: string[] = [];

/** A book with no photos, and one whose photos are drawn, selected and ordered but not yet paid. */
const fixture = { emptyBookId: 0, bookId: 0, checkoutPath: "", orderReturnPath: "", orderNumber: "", paid: false };

async function visitor(): Promise<Page> {
  const { context, page } = await newVisitor(browser);
  contexts.push(context);
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refusals.push(`${page.url()}: ${message.text()}`);
  });
  return page;
}

/** Presses Pay once, on the first visit that needs the order paid. */
async function payOnce(page: Page) {
  if (fixture.paid) return;
  await payOnTestCheckout(page, fixture.checkoutPath);
  const url = new URL(page.url());
  fixture.orderReturnPath = `${url.pathname}${url.search}`;
  fixture.orderNumber = (await page.getByText("Order number").locator("xpath=following-sibling::dd").textContent())!.trim();
  fixture.paid = true;
}

async function goto(page: Page, url: string, heading?: string | RegExp) {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  if (heading) await page.getByRole("heading", { name: heading }).first().waitFor();
}

/** The server's markup alone: the page's own scripts never load, so it stays as first painted. */
async function withoutScripts(page: Page, url: string) {
  await page.route("**/build/**/*.js", (route) => route.abort());
  try {
    await page.goto(url);
    await page.waitForLoadState("load");
  } finally {
    await page.unroute("**/build/**/*.js");
  }
}

const VISITS: Visit[] = [
  { name: "/", open: (page) => goto(page, "/") },
  { name: "/preview-test", open: (page) => goto(page, "/preview-test") },
  { name: "/choose-plan", open: (page) => goto(page, "/choose-plan") },
  {
    name: "/create-book (plan question open)",
    open: async (page) => {
      await goto(page, "/create-book");
      await page.getByRole("dialog", { name: "Which book would you like?" }).waitFor();
    },
  },
  {
    name: "/create-book (five photos chosen)",
    open: async (page) => {
      await goto(page, "/create-book?type=standard");
      await chooseFivePhotos(page);
      await page.getByTestId("toast").first().waitFor();
    },
  },
  { name: "/faq", open: (page) => goto(page, "/faq") },
  {
    name: "/faq (an answer open)",
    open: async (page) => {
      await goto(page, "/faq");
      const question = page.getByRole("button", { expanded: false }).first();
      await waitForHydration(question);
      await question.click();
      await page.getByRole("button", { expanded: true }).first().waitFor();
    },
  },
  { name: "/help", open: (page) => goto(page, "/help") },
  { name: "/help (a category)", open: (page) => goto(page, helpHref(HELP_CATEGORIES[0]), HELP_CATEGORIES[0].title) },
  {
    name: "/help (an article)",
    open: (page) => goto(page, helpHref(HELP_CATEGORIES[0], HELP_CATEGORIES[0].articles[0]), HELP_CATEGORIES[0].articles[0].title),
  },
  { name: "/privacy", open: (page) => goto(page, "/privacy") },
  { name: "/terms", open: (page) => goto(page, "/terms") },
  { name: "/cancel (checking)", open: (page) => withoutScripts(page, "/cancel") },
  { name: "/cancel", open: (page) => goto(page, "/cancel", "Payment Cancelled") },
  { name: "/success (checking)", open: (page) => withoutScripts(page, "/success") },
  { name: "/success", open: (page) => goto(page, "/success", "Payment Successful") },
  { name: "Page Not Found", open: (page) => goto(page, "/no-such-page", "Page Not Found") },
  { name: "/book/{id}/upload (no photos)", open: (page) => goto(page, `/book/${fixture.emptyBookId}/upload`, /Upload photos for/) },
  {
    name: "/book/{id}/upload (a photo uploaded)",
    open: async (page) => {
      await goto(page, `/book/${fixture.bookId}/upload`, /Upload photos for/);
      await page.getByRole("img", { name: "chelsea.jpg" }).first().waitFor();
    },
  },
  {
    name: "/book/{id}/preview (drawn and selected)",
    open: async (page) => {
      await goto(page, `/book/${fixture.bookId}/preview`, "Choose the sketches for your book");
      await page.getByRole("img", { name: "Sketch of chelsea.jpg" }).first().waitFor();
    },
  },
  {
    name: "/book/{id}/order (a quote shown)",
    open: async (page) => {
      await goto(page, `/book/${fixture.bookId}/order`, "Order your printed book");
      await waitForHydration(page.getByLabel("Country"));
      await fillUkDeliveryAddress(page);
      await page.getByRole("definition").filter({ hasText: "FREE" }).first().waitFor();
    },
  },
  { name: "/test-checkout/{id}", open: (page) => goto(page, fixture.checkoutPath, /^Pay /) },
  {
    name: "/book/{id}/order (order confirmed)",
    open: async (page) => {
      await payOnce(page);
      await goto(page, fixture.orderReturnPath, "Order Confirmed");
    },
  },
  { name: "/orders/{number}", open: (page) => goto(page, `/orders/${fixture.orderNumber}`) },
  { name: "/admin/sign-in", asAdmin: true, open: (page) => goto(page, "/admin/sign-in") },
  {
    name: "/admin (orders desk)",
    asAdmin: true,
    open: async (page) => {
      await goto(page, "/admin");
      if (new URL(page.url()).pathname !== "/admin" || (await page.getByRole("heading", { name: "Orders desk" }).count()) === 0) {
        await goto(page, "/admin/sign-in");
        await page.getByLabel("Password").fill(inject("adminPassword"));
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL((url) => url.pathname === "/admin");
      }
      await page.getByRole("heading", { name: "Orders desk" }).waitFor();
      await page.getByRole("article", { name: `Order ${fixture.orderNumber}` }).waitFor();
    },
  },
  {
    name: "/admin/emails/{id}",
    asAdmin: true,
    open: async (page) => {
      await goto(page, "/admin", "Orders desk");
      const email = page.locator('a[href^="/admin/emails/"]').first();
      await goto(page, (await email.getAttribute("href"))!);
    },
  },
];

/** Waits until nothing is mid-transition (a colour read while a toast fades in is not its colour). */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
}

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  // Through the DevTools protocol, so the page's CSP (no inline scripts) does not apply to it.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, {
        runOnly: { type: "tag", values: tags },
        rules: Object.fromEntries(rules.map((rule) => [rule, { enabled: true }])),
        resultTypes: ["violations"],
      });
      return result.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.map(({ target }) => ({ target })) }));
    },
    { tags: WCAG_21_A_AA, rules: HEADING_RULES },
  );
}

function describeViolations(page: string, width: number, violations: AxeViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${page} @ ${width}px: ${violation.id} (${violation.help}) at ${JSON.stringify(node.target)}`),
  );
}

beforeAll(async () => {
  browser = await launchChromium();
  customer = await visitor();
  admin = await visitor();
  await customer.goto("/");
  fixture.emptyBookId = (await callApi<{ id: number }>(customer, "POST", "/api/books", { title: "An empty book" })).id;
  Object.assign(fixture, await orderedBook(customer));
}, SKETCH_TIMEOUT_MS + 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe("every page passes axe's WCAG 2.1 A/AA rules at 1280 and 375 px", () => {
  for (const visit of VISITS) {
    it(visit.name, async () => {
      const page = visit.asAdmin ? admin : customer;
      const found: string[] = [];
      refusals = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await visit.open(page);
        found.push(...describeViolations(visit.name, width, await axeViolations(page)));
      }
      expect(found, found.join("\n")).toEqual([]);
      expect(refusals, refusals.join("\n")).toEqual([]);
    });
  }
});
