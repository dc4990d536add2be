/**
 * docs/product.md §5.8: the preview page (/book/{id}/preview) says the plan's photo range, and what to
 * do when the book has too few or too many photos, before Create My Book; not only the order
 * page later. Read from the server-rendered page, so it holds before any script runs.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BOOK_PAGE_MESSAGES, CREATE_BOOK_MESSAGES, LABELS } from "~/lib/customer-copy";
import { PLANS } from "~/lib/shop-rules";
import { dbRun, fakeJpeg, pngFile, Visitor } from "./helpers";

/** A book of `photos` drawn photos, the first `selected` of them selected, of `plan` if given. */
async function drawnBook(visitor: Visitor, photos: number, selected: number, plan?: "standard" | "premium") {
  const bookId = await visitor.createBook("Plan range");
  await visitor.uploadOk(bookId, Array.from({ length: photos }, (_, i) => fakeJpeg(`p${i}.jpg`)));
  await dbRun("UPDATE images SET processing_status = 'completed' WHERE book_id = ?", bookId);
  await dbRun(
    "UPDATE images SET is_selected = 1 WHERE id IN (SELECT id FROM images WHERE book_id = ? ORDER BY id LIMIT ?)",
    bookId,
    selected,
  );
  if (plan) await dbRun("UPDATE books SET book_type = ? WHERE id = ?", plan, bookId);
  return bookId;
}

async function previewHtml(visitor: Visitor, bookId: number): Promise<string> {
  const response = await visitor.fetch(`/book/${bookId}/preview`);
  expect(response.status).toBe(200);
  return response.text();
}

/** `text` is on the page, before the Create My Book button. */
function expectBeforeCreate(html: string, text: string) {
  const at = html.indexOf(text);
  expect(at, `"${text}" is on the page`).toBeGreaterThan(-1);
  expect(at, `"${text}" comes before ${LABELS.createMyBook}`).toBeLessThan(html.indexOf(`>${LABELS.createMyBook}<`));
}

const { standard, premium } = PLANS;

describe("preview page: the plan's photo range", () => {
  it("too few photos: says the 'at least' text, the plan's range and to upload more, before Create My Book", async () => {
    const visitor = new Visitor();
    const bookId = await drawnBook(visitor, 3, 3);
    const html = await previewHtml(visitor, bookId);
    expectBeforeCreate(html, CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", standard.minPhotos));
    expectBeforeCreate(html, BOOK_PAGE_MESSAGES.planPhotoRange(standard.name, standard.minPhotos, standard.maxPhotos));
    expectBeforeCreate(html, BOOK_PAGE_MESSAGES.uploadMore(standard.minPhotos - 3));
    expectBeforeCreate(html, `href="/book/${bookId}/upload"`);
  });

  it("enough photos but too few selected: asks to select more, not to upload", async () => {
    const visitor = new Visitor();
    const bookId = await drawnBook(visitor, 7, 2);
    const html = await previewHtml(visitor, bookId);
    expectBeforeCreate(html, BOOK_PAGE_MESSAGES.selectMore(standard.minPhotos - 2));
    expect(html).not.toContain(CREATE_BOOK_MESSAGES.notEnoughPhotos("standard", standard.minPhotos));
  });

  it("too many selected for the chosen plan: says the 'no more than' text and to deselect", async () => {
    const visitor = new Visitor();
    const bookId = await drawnBook(visitor, standard.maxPhotos + 2, standard.maxPhotos + 2, "standard");
    const html = await previewHtml(visitor, bookId);
    expectBeforeCreate(html, CREATE_BOOK_MESSAGES.tooManyPhotos("standard", standard.maxPhotos));
    expectBeforeCreate(html, BOOK_PAGE_MESSAGES.deselect(2));
  });

  it("a count within the range: says the range and nothing to fix", async () => {
    const visitor = new Visitor();
    const bookId = await drawnBook(visitor, premium.minPhotos, premium.minPhotos, "premium");
    const html = await previewHtml(visitor, bookId);
    expectBeforeCreate(html, BOOK_PAGE_MESSAGES.planPhotoRange(premium.name, premium.minPhotos, premium.maxPhotos));
    expect(html).not.toContain(CREATE_BOOK_MESSAGES.notEnoughPhotosTitle);
    expect(html).not.toContain(CREATE_BOOK_MESSAGES.tooManyPhotosTitle);
  });
});

describe("preview page opened before the photos were sent to be drawn", () => {
  it("photos uploaded without pressing Next: opening the preview sends them, says so, and they get drawn; a reload sends nothing twice", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook("Opened from a bookmark");
    await visitor.uploadOk(bookId, [await pngFile("waiting-1.png"), await pngFile("waiting-2.png")]);
    // No POST /process: the upload page's Next was never pressed.

    const html = await previewHtml(visitor, bookId);
    expect(html).toContain(BOOK_PAGE_MESSAGES.waitingPhotosSent(2).replaceAll("'", "&#x27;"));

    await expect
      .poll(
        async () => ((await (await visitor.fetch(`/api/books/${bookId}/progress`)).json()) as { processedImages: number }).processedImages,
        { timeout: 60_000, interval: 250 },
      )
      .toBe(2);
    const again = await previewHtml(visitor, bookId);
    expect(again).not.toContain("still waiting to be drawn");
    const sends = await env.DB.prepare("SELECT sum(process_attempts) AS n FROM images WHERE book_id = ?").bind(bookId).first<number>("n");
    expect(sends).toBe(2);
  });
});
