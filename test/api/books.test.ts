import { describe, expect, it } from "vitest";
import { MAX_TITLE_LENGTH } from "~/lib/shop-rules";
import { MESSAGES } from "~/lib/customer-copy";
import { Visitor, type ApiError } from "./helpers";

describe("POST /api/books", () => {
  it("creates a draft book owned by the visitor", async () => {
    const visitor = new Visitor();
    const response = await visitor.send("POST", "/api/books", { title: "  Our trip  ", personalMessage: "For Mia" });
    expect(response.status).toBe(201);
    const book = await response.json();
    expect(book).toEqual({
      id: expect.any(Number),
      title: "Our trip",
      personalMessage: "For Mia",
      status: "draft",
      totalPages: 0,
      detailLevel: "standard",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("accepts a plain form post too", async () => {
    const response = await new Visitor().fetch("/api/books", {
      method: "POST",
      body: new URLSearchParams({ title: "Form book", personalMessage: "" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ title: "Form book", personalMessage: null });
  });

  it("allows a title of exactly 100 characters and refuses 101", async () => {
    const visitor = new Visitor();
    const ok = await visitor.send("POST", "/api/books", { title: "a".repeat(MAX_TITLE_LENGTH) });
    expect(ok.status).toBe(201);

    const tooLong = await visitor.send("POST", "/api/books", { title: "a".repeat(MAX_TITLE_LENGTH + 1) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      message: MESSAGES.titleTooLong,
      fieldErrors: { title: [MESSAGES.titleTooLong] },
    });
  });

  it("requires a title and bounds the personal message", async () => {
    const visitor = new Visitor();
    const missing = await visitor.send("POST", "/api/books", {});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ApiError).message).toBe(MESSAGES.titleRequired);

    const blank = await visitor.send("POST", "/api/books", { title: "   " });
    expect(((await blank.json()) as ApiError).fieldErrors).toEqual({ title: [MESSAGES.titleRequired] });

    const longMessage = await visitor.send("POST", "/api/books", { title: "ok", personalMessage: "m".repeat(501) });
    expect(longMessage.status).toBe(400);
    expect(((await longMessage.json()) as ApiError).message).toBe(MESSAGES.messageTooLong);
  });

  it("answers bad JSON with 400, an oversized body with 413 and a wrong method with 405", async () => {
    const visitor = new Visitor();
    const badJson = await visitor.fetch("/api/books", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as ApiError).message).toMatch(/JSON/);

    const huge = await visitor.send("POST", "/api/books", { title: "ok", padding: "x".repeat(100_000) });
    expect(huge.status).toBe(413);

    const get = await visitor.fetch("/api/books");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
  });
});
