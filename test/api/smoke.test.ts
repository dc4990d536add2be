import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("serves the landing page and sets a signed session cookie", async () => {
  const response = await SELF.fetch("http://example.com/");
  expect(response.status).toBe(200);
  expect(response.headers.get("Set-Cookie")).toMatch(/cb_session=.*HttpOnly; SameSite=Lax/);
});
