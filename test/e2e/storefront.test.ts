/**
 * The storefront's content pages in a real browser against `wrangler dev`: choose plan, FAQ,
 * help center, privacy, terms, the 404 page, and the site header, footer and toasts around them.
 * Elements are found by role and visible text. Every page is photographed at 1280 and 375 px
 * into test-results/e2e/storefront-*.png for a human to look at.
 */
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RETENTION_TEXTS } from "../../app/lib/customer-copy";
import { launchChromium, newVisitor, SCREENSHOTS_DIR as screenshotsDir, waitForHydration } from "./browser";

const WIDTHS = [1280, 375] as const;

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

/** Photographs the current page at both widths, then goes back to the desktop width. */
async function screenshotBothWidths(name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(screenshotsDir, `storefront-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function metaDescription() {
  return page.locator('head meta[name="description"]').getAttribute("content");
}

function pathAndQuery() {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

describe("choose plan", () => {
  it("shows both books from the constants and leads to create-book with the chosen type", async () => {
    await page.goto("/choose-plan");
    const standard = page.getByRole("region", { name: "Standard Book" });
    const premium = page.getByRole("region", { name: "Premium Book" });
    for (const text of ["£19.99", "£25.99", "Save £6.00", "115 GSM paper", "Paperback binding", "50 pages", "5-15 photos", "Free delivery in 3-15 business days", "Limited-time offer"]) {
      await standard.getByText(text).first().waitFor();
    }
    for (const text of ["£25.99", "£29.99", "Save £4.00", "170 GSM bond paper", "Hardcover binding", "16-50 photos", "MOST POPULAR"]) {
      await premium.getByText(text).first().waitFor();
    }
    expect(await standard.getByText("MOST POPULAR").count()).toBe(0);
    expect(await page.title()).toBe("Choose your book – Coloring Book Shop");
    expect(await metaDescription()).toMatch(/Standard and Premium/);
    await screenshotBothWidths("choose-plan");

    // create-book may not exist on this branch: only the URL is asserted.
    await page.getByRole("link", { name: "Standard Book", exact: true }).click();
    await page.waitForURL("**/create-book?type=standard");
    expect(pathAndQuery()).toBe("/create-book?type=standard");

    await page.goto("/choose-plan");
    await page.getByRole("link", { name: "Premium Book", exact: true }).click();
    await page.waitForURL("**/create-book?type=premium");
    expect(pathAndQuery()).toBe("/create-book?type=premium");
  });

  it("goes back in history, or home when the visit started on the plan page", async () => {
    await page.goto("/faq");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/choose-plan");
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.waitForURL("**/faq");

    await page.goto("/choose-plan");
    const back = page.getByRole("button", { name: "Back", exact: true });
    await waitForHydration(back);
    await back.click();
    await page.waitForURL((url) => url.pathname === "/");
  });
});

describe("FAQ", () => {
  it("has 15 questions and keeps several answers open at once", async () => {
    await page.goto("/faq");
    await page.getByRole("heading", { name: "Frequently Asked Questions" }).waitFor();
    const questions = page.getByRole("main").locator("button[aria-expanded]");
    expect(await questions.count()).toBe(15);
    expect(await page.title()).toBe("Frequently asked questions – Coloring Book Shop");

    const photos = page.getByRole("button", { name: "How many photos do I need?" });
    const safety = page.getByRole("button", { name: "Are my photos safe?" });
    expect(await photos.getAttribute("aria-expanded")).toBe("false");
    await photos.click();
    await safety.click();
    expect(await photos.getAttribute("aria-expanded")).toBe("true");
    expect(await safety.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("region", { name: "How many photos do I need?" }).getByText("Between 5 and 50").waitFor();
    await page.getByRole("region", { name: "Are my photos safe?" }).getByText(/deleted after 24 hours/).waitFor();
    // Each button controls its own panel.
    const panelId = await safety.getAttribute("aria-controls");
    expect(await page.locator(`[id="${panelId}"]`).isVisible()).toBe(true);

    await photos.click();
    expect(await photos.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByText("Between 5 and 50").isVisible()).toBe(false);
    expect(await safety.getAttribute("aria-expanded")).toBe("true");
    await safety.click();

    await page.getByRole("button", { name: "Do you ship internationally?" }).click();
    await page.getByText(/Today we deliver to United States, Canada, United Kingdom and Australia/).waitFor();
    await screenshotBothWidths("faq");

    expect(await page.getByRole("link", { name: "Get Started" }).getAttribute("href")).toBe("/create-book");
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });
});

describe("help center", () => {
  it("filters by a tag, shows an empty state for nonsense, and drills down with breadcrumbs", async () => {
    await page.goto("/help");
    const search = page.getByRole("searchbox", { name: "Search help articles" });
    for (const category of ["Getting Started", "Ordering & Payment", "Shipping & Delivery", "Privacy & Security"]) {
      await page.getByRole("link", { name: new RegExp(category) }).waitFor();
    }
    expect(await page.title()).toBe("Help Center – Coloring Book Shop");
    await screenshotBothWidths("help");

    // "gps" is only a tag of the privacy article.
    await search.fill("gps");
    await page.getByRole("link", { name: /How we look after your photos/ }).waitFor();
    expect(await page.getByRole("link", { name: /Getting Started/ }).count()).toBe(0);
    await screenshotBothWidths("help-search");

    await search.fill("xylophone zebra");
    await page.getByText("No results for “xylophone zebra”").waitFor();
    expect(await page.getByRole("link", { name: /articles?$/ }).count()).toBe(0);
    await screenshotBothWidths("help-no-results");

    await search.fill("");
    await page.getByRole("link", { name: /Shipping & Delivery/ }).click();
    await page.waitForURL("**/help?category=shipping-delivery");
    await page.getByRole("link", { name: /Countries we deliver to/ }).click();
    await page.waitForURL("**/help?category=shipping-delivery&article=countries");
    const breadcrumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    expect(await breadcrumbs.getByRole("listitem").allTextContents()).toEqual([
      "Help Center",
      "Shipping & Delivery",
      "Countries we deliver to",
    ]);
    await page.getByRole("heading", { name: "Countries we deliver to" }).waitFor();
    await screenshotBothWidths("help-article");

    await breadcrumbs.getByRole("link", { name: "Shipping & Delivery" }).click();
    await page.waitForURL("**/help?category=shipping-delivery");
    await page.getByRole("link", { name: /How long delivery takes/ }).waitFor();
    // The drill-down lives in the URL, so the browser's Back returns to the article.
    await page.goBack();
    await page.waitForURL("**/help?category=shipping-delivery&article=countries");
    await page.getByRole("link", { name: "Back to Shipping & Delivery" }).click();
    await page.waitForURL("**/help?category=shipping-delivery");
    await page.getByRole("link", { name: "Back to Help Center" }).click();
    await page.waitForURL((url) => url.pathname === "/help" && url.search === "");

    expect(await page.getByRole("link", { name: "View FAQ" }).getAttribute("href")).toBe("/faq");
    expect(await page.getByRole("link", { name: "Contact Support" }).getAttribute("href")).toMatch(
      /^mailto:hello@coloringbook\.example\?subject=/,
    );
  });

  it("confirms Contact Support with a toast, and F8 moves focus to the toasts", async () => {
    await page.goto("/help");
    await page.getByRole("link", { name: "Contact Support" }).click();
    await page.getByTestId("toast").filter({ hasText: "Opening your e-mail app" }).waitFor();
    await page.keyboard.press("F8");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Notifications (F8)");
    await page.getByRole("button", { name: "Close" }).click();
    expect(await page.getByTestId("toast").count()).toBe(0);
  });

  it("keeps a toast dragged a little to the right and dismisses one swiped past 50 px", async () => {
    // The page's clock stands still, so the toast's 5000 ms timer cannot be what removes it.
    await page.clock.install();
    await page.goto("/help");
    await page.waitForLoadState("networkidle");
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    const contact = page.getByRole("link", { name: "Contact Support" });
    const toast = page.getByTestId("toast");
    const drag = async (distancePx: number) => {
      const box = await toast.boundingBox();
      if (!box) throw new Error("no toast to drag");
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 20, y);
      await page.mouse.down();
      await page.mouse.move(box.x + 20 + distancePx, y, { steps: 5 });
      await page.mouse.up();
    };

    await contact.click();
    await toast.waitFor();
    await drag(30);
    expect(await toast.count()).toBe(1);
    await page.clock.runFor(1_000); // a swipe that is undone must not dismiss later either
    expect(await toast.count()).toBe(1);
    await drag(-120);
    expect(await toast.count()).toBe(1);
    await drag(80);
    await toast.waitFor({ state: "detached" });
  });
});

describe("privacy and terms", () => {
  it("publishes the privacy notice with the retention periods", async () => {
    await page.goto("/privacy");
    await page.getByRole("heading", { level: 1, name: "Privacy Notice" }).waitFor();
    for (const heading of ["Who we are", "What we store", "How long we keep it", "Cookies and browser storage", "Your rights"]) {
      await page.getByRole("heading", { name: new RegExp(heading) }).waitFor();
    }
    // Every retention rule the daily Cron Trigger applies, in the words built from its numbers.
    for (const text of Object.values(RETENTION_TEXTS)) await page.getByText(text).first().waitFor();
    await page.getByText(/we never see or store your card number/).waitFor();
    expect(await page.title()).toBe("Privacy notice – Coloring Book Shop");
    await screenshotBothWidths("privacy");
  });

  it("publishes the terms with prices, refunds, consent and delivery", async () => {
    await page.goto("/terms");
    await page.getByRole("heading", { level: 1, name: "Terms and Conditions" }).waitFor();
    for (const heading of ["The product", "Prices and payment", "Your photos", "Acceptable content", "Delivery", "Cancellations and refunds"]) {
      await page.getByRole("heading", { name: new RegExp(heading) }).waitFor();
    }
    await page.getByText(/pounds sterling \(GBP\)/).waitFor();
    await page.getByText(/until your book is printed/).waitFor();
    await page.getByText(/3-15 business days/).first().waitFor();
    expect(await metaDescription()).toMatch(/terms/);
    await screenshotBothWidths("terms");
  });
});

describe("page not found", () => {
  it("answers 404 with Go Back and Home", async () => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
    expect(await page.title()).toBe("Page Not Found – Coloring Book Shop");
    await screenshotBothWidths("not-found");
    expect(await page.getByRole("link", { name: "Home", exact: true }).getAttribute("href")).toBe("/");
    // Opened directly, there is nothing to go back to: Go Back lands on the home page.
    await page.getByRole("button", { name: "Go Back" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("goes back in history when the visitor came from one of our pages", async () => {
    await page.goto("/faq");
    // The router exists once the page has hydrated: on a busy machine, not yet when goto returns.
    await waitForHydration(page.locator("body"));
    // A client-side navigation, as a stale link inside the shop would make.
    await page.evaluate(() => (window as unknown as { __remixRouter: { navigate(to: string): void } }).__remixRouter.navigate("/gone"));
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
    await page.getByRole("button", { name: "Go Back" }).click();
    await page.waitForURL("**/faq");
  });
});

describe("every storefront page", () => {
  it("hydrates without a console error or an uncaught exception", async () => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    for (const url of ["/choose-plan", "/faq", "/help", "/help?category=privacy-security&article=photo-privacy", "/privacy", "/terms"]) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const description = await metaDescription();
      expect(description?.length, url).toBeGreaterThan(20);
    }
    expect(problems).toEqual([]);
  });
});

describe("site header and footer", () => {
  it("opens the menu at 375 px and links every storefront page from the footer", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/privacy");
    const menuButton = page.getByRole("button", { name: "Menu" });
    expect(await menuButton.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("navigation", { name: "Main", exact: true }).isVisible()).toBe(false);
    await menuButton.click();
    expect(await menuButton.getAttribute("aria-expanded")).toBe("true");
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await page.screenshot({ path: path.join(screenshotsDir, "storefront-menu-375.png") });
    await menu.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/choose-plan");
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("false");

    const footer = page.getByRole("contentinfo");
    await footer.getByText("© 2025 Coloring Book Shop").waitFor();
    for (const [name, href] of [["FAQ", "/faq"], ["Help Center", "/help"], ["Privacy", "/privacy"], ["Terms", "/terms"]]) {
      expect(await footer.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(href);
    }
    expect(await footer.getByRole("link", { name: "hello@coloringbook.example" }).getAttribute("href")).toBe(
      "mailto:hello@coloringbook.example",
    );
    for (const network of ["Instagram", "Facebook", "Pinterest", "TikTok"]) {
      await footer.getByRole("link", { name: `Coloring Book Shop on ${network}` }).waitFor();
    }
  });

  it("names the social icons with tooltips: 700 ms to open, at once within 300 ms of another closing", async () => {
    // The page's clock only moves when the test moves it, so "not open yet" is not a race.
    await page.clock.install();
    await page.goto("/faq");
    await page.waitForLoadState("networkidle");
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    const icon = (network: string) => page.getByRole("link", { name: `Coloring Book Shop on ${network}` });
    const tooltip = page.getByRole("tooltip");

    await icon("Instagram").hover();
    await page.clock.runFor(699);
    expect(await tooltip.count()).toBe(0);
    await page.clock.runFor(1);
    await page.getByRole("tooltip", { name: "Instagram" }).waitFor();
    expect(await icon("Instagram").getAttribute("aria-describedby")).toBe(await tooltip.getAttribute("id"));

    // Straight on to the next icon: no new wait.
    await icon("Facebook").hover();
    await page.getByRole("tooltip", { name: "Facebook" }).waitFor();

    // Away for longer than the skip delay: the next one waits the full 700 ms again.
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: "detached" });
    await page.clock.runFor(400);
    await icon("Pinterest").hover();
    expect(await tooltip.count()).toBe(0);
    await page.clock.runFor(700);
    await page.getByRole("tooltip", { name: "Pinterest" }).waitFor();
    await page.keyboard.press("Escape");
    await tooltip.waitFor({ state: "detached" });
  });

  it("leaves the /book/{id} pages to their own header, and their unknown ids to the 404 page", async () => {
    await page.goto("/?mode=create");
    await page.getByLabel("Book title").fill("Header check");
    await page.getByRole("button", { name: "Continue to Upload Images" }).click();
    await page.waitForURL(/\/book\/\d+\/upload$/);
    await page.getByRole("link", { name: "Admin" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main", exact: true }).count()).toBe(0);

    const response = await page.goto("/book/999999/upload");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
  });
});
