/**
 * Decision 011, the request edge: security headers, CSRF (foreign origins, text/plain bodies), the
 * session cookie's rotation and renewal, and unsafe text. One test per thing it protects.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_MESSAGES, MESSAGES } from "~/lib/customer-copy";
import { hasUnpairedBidiControls, isSafeText } from "~/lib/text-rules";
import type { Env } from "~/server/http/env.server";
import { resolveVisitorSession, SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "~/server/http/session.server";
import { ORIGIN, pngFile, Visitor } from "./helpers";

describe("security headers", () => {
  it("give pages a nonce-based CSP that forbids framing, and every answer nosniff and a referrer policy", async () => {
    const page = await SELF.fetch(`${ORIGIN}/faq`);
    const csp = page.headers.get("Content-Security-Policy")!;
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await page.text();
    // Every inline script of the page carries this response's nonce; no other inline script exists.
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const [, attributes] of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
    const again = await SELF.fetch(`${ORIGIN}/faq`);
    expect(again.headers.get("Content-Security-Policy")).not.toBe(csp); // a new nonce per response

    for (const response of [page, await SELF.fetch(`${ORIGIN}/api/get-stats`), await SELF.fetch(`${ORIGIN}/nope`)]) {
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    }
    expect((await SELF.fetch(`${ORIGIN}/api/get-stats`)).headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("serve images inline with their real type; a failed If-Match is 412, a fresh If-None-Match 304", async () => {
    const visitor = new Visitor();
    const bookId = await visitor.createBook();
    const [image] = await visitor.uploadOk(bookId, [await pngFile("a.png", 40, 30)]);
    const first = await visitor.fetch(image.originalUrl);
    expect(first.headers.get("Content-Type")).toBe("image/png");
    expect(first.headers.get("Content-Disposition")).toBe("inline");
    const etag = first.headers.get("ETag")!;
    expect((await visitor.fetch(image.originalUrl, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await visitor.fetch(image.originalUrl, { headers: { "If-Match": '"not-this-one"' } })).status).toBe(412);
    expect((await visitor.fetch(image.originalUrl, { headers: { "If-Match": etag } })).status).toBe(200);
  });
});

describe("cross-site request forgery", () => {
  it("refuses a state change whose Origin or Sec-Fetch-Site is foreign, and changes nothing", async () => {
    const visitor = new Visitor();
    await visitor.createBook("Mine");
    const before = await env.DB.prepare("SELECT count(*) AS n FROM books").first("n");
    const foreign: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }, { "Sec-Fetch-Site": "same-site" }];
    for (const headers of foreign) {
      const response = await visitor.fetch("/api/books", {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Forged" }),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: API_MESSAGES.foreignOrigin });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM books").first("n")).toBe(before);
    const own = await visitor.fetch("/api/books", {
      method: "POST",
      headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Ours" }),
    });
    expect(own.status).toBe(201);
    // Reading stays open to links from anywhere.
    expect((await SELF.fetch(`${ORIGIN}/faq`, { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(200);
  });

  it("reads JSON only from a JSON body: a text/plain form post (no preflight) is 415", async () => {
    const visitor = new Visitor();
    const response = await visitor.fetch("/api/books", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ title: "Smuggled" }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: API_MESSAGES.jsonRequired });
  });
});

describe("session cookie", () => {
  const request = (cookie?: string) => new Request("https://shop.example/", { headers: cookie ? { Cookie: cookie } : {} });
  const production = (vars: Partial<Env>) => ({ ...env, APP_ENV: "production", ...vars }) as Env;

  it("is a __Host- cookie outside local development", async () => {
    const minted = await resolveVisitorSession(request(), production({ SESSION_SECRET: "new-secret" }));
    expect(minted.setCookie).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE_NAME}=.+; Path=/; HttpOnly; Secure; SameSite=Lax$`));
    expect(minted.setCookie).not.toContain("Domain");
    const local = await resolveVisitorSession(request(), env);
    expect(local.setCookie?.startsWith(`${SESSION_COOKIE_NAME}=`)).toBe(true);
  });

  it("survives a secret rotation: an old cookie keeps its session and is signed again with the new secret", async () => {
    const old = await resolveVisitorSession(request(), production({ SESSION_SECRET: "old-secret" }));
    const cookie = old.setCookie!.split(";")[0];
    const rotated = production({ SESSION_SECRET: "new-secret", SESSION_SECRET_PREVIOUS: "old-secret" });
    const after = await resolveVisitorSession(request(cookie), rotated);
    expect(after.sessionId).toBe(old.sessionId);
    expect(after.setCookie).toBeTruthy();
    const settled = await resolveVisitorSession(request(after.setCookie!.split(";")[0]), production({ SESSION_SECRET: "new-secret" }));
    expect(settled).toEqual({ sessionId: old.sessionId, setCookie: null });
    // Once the old secret is dropped, a cookie signed only with it opens nothing.
    const dropped = await resolveVisitorSession(request(cookie), production({ SESSION_SECRET: "new-secret" }));
    expect(dropped.sessionId).not.toBe(old.sessionId);
  });

  it("is renewed past half its life, keeping the session", async () => {
    const secret = production({ SESSION_SECRET: "a-secret" });
    const issued = await resolveVisitorSession(request(), secret, new Date("2026-01-01T00:00:00Z"));
    const cookie = issued.setCookie!.split(";")[0];
    const soon = await resolveVisitorSession(request(cookie), secret, new Date("2026-03-01T00:00:00Z"));
    expect(soon).toEqual({ sessionId: issued.sessionId, setCookie: null });
    const late = await resolveVisitorSession(request(cookie), secret, new Date("2026-08-01T00:00:00Z"));
    expect(late.sessionId).toBe(issued.sessionId);
    expect(late.setCookie).toContain("Max-Age=31536000");
  });
});

describe("text input", () => {
  it("refuses control characters and unpaired direction overrides in titles, dedications and file names", async () => {
    const visitor = new Visitor();
    for (const title of ["Tab\there", "Null\u0000", "Bell\u0007", "\u202Egpj.exe", "Open \u2066isolate"]) {
      const response = await visitor.send("POST", "/api/books", { title });
      expect(response.status, JSON.stringify(title)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(MESSAGES.unsafeText);
    }
    const dedication = await visitor.send("POST", "/api/books", { title: "Fine", personalMessage: "Line one\nLine two \u202Bعربي\u202C" });
    expect(dedication.status).toBe(201);
    const bookId = ((await dedication.json()) as { id: number }).id;
    const upload = await visitor.upload(bookId, [new File([await pngFile("x.png")], "photo\u202Egnp.exe", { type: "image/png" })]);
    expect(upload.status).toBe(400);
    expect(((await upload.json()) as { message: string }).message).toBe(MESSAGES.unsafeFileName("photognp.exe"));
  });

  it("pairs direction controls as Unicode nests them", () => {
    expect(hasUnpairedBidiControls("a\u202Eb\u202Cc")).toBe(false);
    expect(hasUnpairedBidiControls("\u2067x\u2069")).toBe(false);
    expect(hasUnpairedBidiControls("\u202Ex\u2069")).toBe(true);
    expect(hasUnpairedBidiControls("x\u202C")).toBe(true);
    expect(isSafeText("Grandma's book")).toBe(true);
    expect(isSafeText("two\nlines")).toBe(false);
    expect(isSafeText("two\nlines", { allowLineBreaks: true })).toBe(true);
  });
});
