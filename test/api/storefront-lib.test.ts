import { describe, expect, it } from "vitest";
import { PLANS, TOAST_SWIPE_THRESHOLD_PX, TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "~/lib/shop-rules";
import { FAQ_ITEMS } from "~/lib/content/faq";
import { HELP_CATEGORIES, searchHelp } from "~/lib/content/help";

describe("toast and tooltip numbers (docs/product.md §5, given to the Radix primitives)", () => {
  it("dismisses a toast dragged right by more than 50 px; opens a tooltip after 700 ms, at once within 300 ms", () => {
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
    expect(TOOLTIP_OPEN_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });
});

describe("help center content and search", () => {
  it("has the four categories with 2, 2, 2 and 1 articles", () => {
    expect(HELP_CATEGORIES.map((category) => [category.title, category.articles.length])).toEqual([
      ["Getting Started", 2],
      ["Ordering & Payment", 2],
      ["Shipping & Delivery", 2],
      ["Privacy & Security", 1],
    ]);
  });

  it("shows every category and no article list for an empty query", () => {
    expect(searchHelp("   ")).toEqual({ categories: HELP_CATEGORIES, articles: [] });
  });

  it("finds categories by title or description", () => {
    expect(searchHelp("shipping").categories.map((category) => category.id)).toEqual(["shipping-delivery"]);
    expect(searchHelp("protect").categories.map((category) => category.id)).toEqual(["privacy-security"]);
  });

  it("finds articles by title or by a tag alone, case-insensitively", () => {
    expect(searchHelp("Delivery Takes").articles.map((match) => match.article.id)).toEqual(["delivery-times"]);
    // "gps" is only a tag of the photo-privacy article, never in a title.
    const byTag = searchHelp("GPS").articles;
    expect(byTag.map((match) => [match.category.id, match.article.id])).toEqual([["privacy-security", "photo-privacy"]]);
  });

  it("needs every word to match, and finds nothing for nonsense", () => {
    expect(searchHelp("refund japan").articles).toEqual([]);
    expect(searchHelp("zzqx")).toEqual({ categories: [], articles: [] });
  });
});

describe("FAQ content", () => {
  it("has 15 questions with unique ids", () => {
    expect(FAQ_ITEMS).toHaveLength(15);
    expect(new Set(FAQ_ITEMS.map((item) => item.id)).size).toBe(15);
  });

  it("states the chosen photo range and the lowest price from the constants", () => {
    const text = FAQ_ITEMS.flatMap((item) => item.answer).join(" ");
    expect(text).toContain(`${PLANS.standard.minPhotos}-${PLANS.standard.maxPhotos}`);
    expect(text).toContain(`${PLANS.premium.minPhotos}-${PLANS.premium.maxPhotos}`);
    expect(text).toContain("from £19.99");
    // Honest about the old international promise (docs/product.md §4): today's countries are the delivery form's.
    expect(text).toContain("Today we deliver to United States, Canada, United Kingdom and Australia");
    expect(text).toContain("Delivery to the rest of Europe and to Japan is planned but not open yet.");
  });
});
