import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "~/server/env.server";
import { MissingSessionSecretError, resolveVisitorSession, SESSION_COOKIE_NAME } from "~/server/session.server";
import { Visitor } from "./helpers";

const request = (cookie?: string) => new Request("http://example.com/", { headers: cookie ? { Cookie: cookie } : {} });

describe("visitor session cookie", () => {
  it("is minted once, signed, HttpOnly and SameSite=Lax, and then kept", async () => {
    const first = await resolveVisitorSession(request(), env);
    expect(first.setCookie).toMatch(new RegExp(`^${SESSION_COOKIE_NAME}=.+; Max-Age=\\d+; Path=/; HttpOnly; SameSite=Lax`));
    const again = await resolveVisitorSession(request(first.setCookie!.split(";")[0]), env);
    expect(again).toEqual({ sessionId: first.sessionId, setCookie: null });
  });

  it("gives a cookie with a broken signature a new identity instead of trusting it", async () => {
    const owner = new Visitor();
    const bookId = await owner.createBook();
    const ownCookie = owner.cookie!;
    expect((await SELF.fetch(`http://example.com/api/books/${bookId}/images`, { headers: { Cookie: ownCookie } })).status).toBe(200);
    // The owner's own session id with one character of the signature changed: were signatures not
    // checked, this would still open the owner's book.
    // (A character well inside the signature: the last base64 character may carry only padding.)
    const at = ownCookie.length - 10;
    const forged = ownCookie.slice(0, at) + (ownCookie[at] === "A" ? "B" : "A") + ownCookie.slice(at + 1);
    const response = await SELF.fetch(`http://example.com/api/books/${bookId}/images`, { headers: { Cookie: forged } });
    expect(response.status).toBe(404);
    expect(response.headers.get("Set-Cookie")).toContain(`${SESSION_COOKIE_NAME}=`);
  });

  it("refuses to sign with a built-in secret in production", async () => {
    const production = { ...env, APP_ENV: "production", SESSION_SECRET: undefined } as Env;
    await expect(resolveVisitorSession(request(), production)).rejects.toBeInstanceOf(MissingSessionSecretError);
    const configured = { ...production, SESSION_SECRET: "a-long-random-production-secret" } as Env;
    const visitor = await resolveVisitorSession(request(), configured);
    expect(visitor.setCookie).toContain("Secure"); // production cookies travel over HTTPS only
  });
});
