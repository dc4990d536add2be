/**
 * Decision 012: sessions cost nothing to mint, so the shop's own actions are limited per
 * session and per client address (bursts through API_LIMITER, daily counts in D1), and a
 * processing run can never queue an image twice.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SHOP_BURST_PERIOD_SECONDS, SHOP_DAILY_LIMITS } from "~/lib/shop-rules";
import { SHOP_LIMIT_MESSAGES } from "~/lib/customer-copy";
import { BURST_TEST_TIMEOUT_MS, dbRun, fakeJpeg, sessionIdOf, startOfRateLimitWindow, Visitor } from "./helpers";
import { PreviewVisitor } from "./preview-helpers";

const today = () => new Date().toISOString().slice(0, 10);

async function message(response: Response) {
  return ((await response.json()) as { message: string }).message;
}

describe("daily limits", () => {
  it("refuses a session's book past its daily count with 429, Retry-After, and no book", async () => {
    const visitor = new Visitor();
    const sessionId = await sessionIdOf(visitor);
    await dbRun("INSERT OR REPLACE INTO usage_counts (action, subject, day, count) VALUES ('book', ?, ?, ?)", `session:${sessionId}`, today(), SHOP_DAILY_LIMITS.book.perSession);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM books").first("n");
    const refused = await visitor.send("POST", "/api/books", { title: "One too many" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await message(refused)).toBe(SHOP_LIMIT_MESSAGES.daily);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM books").first("n")).toBe(before);
    // Another visitor is not affected.
    expect((await new Visitor().send("POST", "/api/books", { title: "Mine" })).status).toBe(201);
  });

  it("refuses every session behind one client address past the address's daily count", async () => {
    const address = { "CF-Connecting-IP": "203.0.113.77" };
    const first = new Visitor();
    const created = await first.fetch("/api/books", { method: "POST", headers: { ...address, "Content-Type": "application/json" }, body: JSON.stringify({ title: "A" }) });
    expect(created.status).toBe(201);
    const subject = await env.DB.prepare("SELECT subject FROM usage_counts WHERE action = 'book' AND subject LIKE 'address:%' AND day = ?").bind(today()).first<string>("subject");
    expect(subject).toBeTruthy();
    expect(subject).not.toContain("203.0.113.77"); // only a keyed hash of the address is kept
    await dbRun("UPDATE usage_counts SET count = ? WHERE action = 'book' AND subject = ?", SHOP_DAILY_LIMITS.book.perAddress, subject);
    const second = new Visitor();
    const refused = await second.fetch("/api/books", { method: "POST", headers: { ...address, "Content-Type": "application/json" }, body: JSON.stringify({ title: "B" }) });
    expect(refused.status).toBe(429);
  });

  it("keys an IPv6 client's daily count on its /64, so rotating addresses inside it does not reset the count", async () => {
    const createFrom = (visitor: Visitor, address: string) =>
      visitor.fetch("/api/books", { method: "POST", headers: { "CF-Connecting-IP": address, "Content-Type": "application/json" }, body: JSON.stringify({ title: "IPv6" }) });
    expect((await createFrom(new Visitor(), "2001:db8:23:4::1")).status).toBe(201);
    const subject = await env.DB.prepare("SELECT subject FROM usage_counts WHERE action = 'book' AND subject LIKE 'address:%' AND day = ? ORDER BY rowid DESC").bind(today()).first<string>("subject");
    await dbRun("UPDATE usage_counts SET count = ? WHERE action = 'book' AND subject = ?", SHOP_DAILY_LIMITS.book.perAddress, subject);
    // Another address of the same /64, written out in full: the same client.
    expect((await createFrom(new Visitor(), "2001:0db8:0023:0004:9f3c:11ab:fe07:2d41")).status).toBe(429);
    // The next /64 is someone else.
    expect((await createFrom(new Visitor(), "2001:db8:23:5::1")).status).toBe(201);
  });
});

describe("bursts", () => {
  it("answers 429 to the 61st quote request of a minute, before pricing anything", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    await startOfRateLimitWindow(SHOP_BURST_PERIOD_SECONDS);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const response = await visitor.send("POST", `/api/books/${bookId}/quote`, { deliveryAddress: { country: "UK", zipCode: "SW1A 1AA" } });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get("Retry-After")).toBe("60");
        expect(await message(response)).toBe(SHOP_LIMIT_MESSAGES.burst);
        break;
      }
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true); // no photos selected yet
    expect(await env.DB.prepare("SELECT count(*) AS n FROM quotes WHERE book_id = ?").bind(bookId).first("n")).toBe(0);
  }, BURST_TEST_TIMEOUT_MS);
});

describe("book upload tickets and recorded book data (decision 012)", () => {
  const bookTickets = "count=50&sessionId=s-loop&bookType=premium";

  it("refuses book upload tickets past the daily count: a loop of 80 requests for 50 tickets each is cut short", async () => {
    const visitor = new PreviewVisitor();
    const sessionId = await sessionIdOf(visitor);
    let refused: Response | null = null;
    for (let i = 0; i < 80 && !refused; i++) {
      const response = await visitor.tickets(bookTickets);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThan(60);
    expect(await message(refused!)).toBe(SHOP_LIMIT_MESSAGES.daily);
    const tickets = await env.DB.prepare("SELECT count(*) AS n FROM uploads WHERE session_id = ?").bind(sessionId).first("n");
    expect(tickets).toBe(SHOP_DAILY_LIMITS["upload-ticket"].perSession);
  });

  it("answers 429 to the 61st book upload ticket request of a minute", async () => {
    const visitor = new PreviewVisitor();
    await startOfRateLimitWindow(SHOP_BURST_PERIOD_SECONDS);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await visitor.tickets("count=1&sessionId=s-burst&bookType=standard")).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  }, BURST_TEST_TIMEOUT_MS);

  it("refuses recorded book data past the daily count, so a loop cannot fill the checkouts table", async () => {
    const visitor = new Visitor();
    const form = { bookType: "standard", title: "Loop", quantity: 1, nrPhotos: 5, agreeToTerms: true, newsletterSignup: false };
    let refused: Response | null = null;
    let recorded = 0;
    for (let i = 0; i < 60 && !refused; i++) {
      const response = await visitor.send("POST", "/api/record-book-data", form);
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(201);
        recorded++;
      }
    }
    expect(refused?.status).toBe(429);
    expect(await message(refused!)).toBe(SHOP_LIMIT_MESSAGES.daily);
    expect(recorded).toBe(SHOP_DAILY_LIMITS["book-data"].perSession);
  });
});

describe("processing", () => {
  it("queues each pending image once, however often and however concurrently /process is called", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    await visitor.uploadOk(bookId, [fakeJpeg("a.jpg"), fakeJpeg("b.jpg"), fakeJpeg("c.jpg")]);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" }).then((r) => r.json() as Promise<{ queued: number }>)),
    );
    expect(answers.reduce((sum, answer) => sum + answer.queued, 0)).toBe(3);
    const again = (await (await visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" })).json()) as { queued: number };
    expect(again.queued).toBe(0);
    const unqueued = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ? AND queued_at IS NULL").bind(bookId).first("n");
    expect(unqueued).toBe(0);
  });
});
