import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "~/server/http/env.server";
import { MissingSessionSecretError, resolveVisitorSession, SESSION_COOKIE_NAME } from "~/server/http/session.server";
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
    // Forged in every way a cookie can be: a changed character anywhere in the value (some
    // positions also break its base64 or its percent-encoding), or junk appended.
    const [name, value] = [ownCookie.slice(0, ownCookie.indexOf("=") + 1), ownCookie.slice(ownCookie.indexOf("=") + 1)];
    const forgeries = [
      ...Array.from({ length: value.length }, (_, at) => name + value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1)),
      `${ownCookie}%`,
      `${ownCookie}!!`,
      `${name}%%%`,
    ].filter((forged) => forged !== ownCookie);
    for (const forged of forgeries) {
      const response = await SELF.fetch(`http://example.com/api/books/${bookId}/images`, { headers: { Cookie: forged } });
      // Either it no longer verifies (a new identity, 404) or the change hit only base64 padding
      // bits and it is, byte for byte, the owner's cookie: never a 500, never someone else.
      expect([200, 404], forged).toContain(response.status);
      if (response.status === 404) expect(response.headers.get("Set-Cookie")).toContain(`${SESSION_COOKIE_NAME}=`);
    }
    const broken = await SELF.fetch(`http://example.com/api/books/${bookId}/images`, { headers: { Cookie: `${name}%%%` } });
    expect(broken.status).toBe(404);
  });

  it("refuses to sign with a built-in secret in production", async () => {
    const production = { ...env, APP_ENV: "production", SESSION_SECRET: undefined } as Env;
    await expect(resolveVisitorSession(request(), production)).rejects.toBeInstanceOf(MissingSessionSecretError);
    const configured = { ...production, SESSION_SECRET: "a-long-random-production-secret" } as Env;
    const visitor = await resolveVisitorSession(request(), configured);
    expect(visitor.setCookie).toContain("Secure"); // production cookies travel over HTTPS only
  });
});
