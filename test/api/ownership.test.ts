/**
 * Ids are sequential integers, so the session check is all that stands between a visitor and a
 * stranger's family photos (docs/design.md §7): every endpoint answers a stranger 404, exactly
 * as for an id that does not exist, and changes nothing.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { dbRun, fakeJpeg, pngFile, Visitor } from "./helpers";

it("answers a stranger 404 on every endpoint of someone else's book and changes nothing", async () => {
  const owner = new Visitor();
  const bookId = await owner.createBook("Ours");
  const files = [await pngFile("family.png", 20, 20), ...Array.from({ length: 4 }, (_, i) => fakeJpeg(`b${i}.jpg`))];
  const [image] = await owner.uploadOk(bookId, files);
  await dbRun("UPDATE images SET processing_status = 'completed', is_selected = 1 WHERE book_id = ?", bookId);
  const address = { country: "US", zipCode: "10001" };
  const { quoteId } = (await (await owner.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: address })).json()) as {
    quoteId: string;
  };
  const deliveryInfo = { firstName: "A", lastName: "B", email: "a@b.co", address1: "1 Main St", city: "NYC", stateCode: "NY", phone: "212 555 0100", ...address };
  const order = (await (await owner.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo })).json()) as { id: number };
  const snapshot = async () => ({
    books: await env.DB.prepare("SELECT * FROM books WHERE id = ?").bind(bookId).all().then((r) => r.results),
    images: await env.DB.prepare("SELECT * FROM images WHERE book_id = ?").bind(bookId).all().then((r) => r.results),
    orders: await env.DB.prepare("SELECT * FROM orders WHERE book_id = ?").bind(bookId).all().then((r) => r.results),
    quotes: await env.DB.prepare("SELECT count(*) AS n FROM quotes WHERE book_id = ?").bind(bookId).all().then((r) => r.results),
  });
  const before = await snapshot();

  const stranger = new Visitor();
  const attempts: [string, () => Promise<Response>][] = [
    ["list images", () => stranger.fetch(`/api/books/${bookId}/images`)],
    ["upload", () => stranger.upload(bookId, [fakeJpeg("x.jpg")])],
    ["process", () => stranger.fetch(`/api/books/${bookId}/process`, { method: "POST" })],
    ["progress", () => stranger.fetch(`/api/books/${bookId}/progress`)],
    ["select", () => stranger.send("PATCH", `/api/images/${image.id}/selection`, { isSelected: false })],
    ["quote", () => stranger.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: address })],
    ["order", () => stranger.send("POST", "/api/orders", { bookId, quoteId, deliveryInfo })],
    ["pay", () => stranger.send("POST", `/api/orders/${order.id}/payment`, { paymentMethod: "card" })],
    ["original", () => stranger.fetch(image.originalUrl)],
  ];
  for (const [what, attempt] of attempts) {
    const response = await attempt();
    expect(response.status, what).toBe(404);
    expect(await response.json(), what).toEqual({ message: "Not found" });
  }
  expect(await snapshot()).toEqual(before);
});
