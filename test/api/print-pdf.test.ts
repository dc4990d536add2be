/**
 * A paid order becomes a print-ready PDF without anyone touching it: the create-book purchase is
 * paid on the local test checkout before its photos are drawn, the sketch Worker beside the app
 * draws them, and its print job (which waits for them) stores print/<orderNumber>.pdf in R2 and
 * records it on the order.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EXTRA_PAGES } from "~/lib/shop-rules";
import { env as testEnv, SELF } from "cloudflare:test";
import { coverKeyFor, partnerInteriorKeyFor, printKeyFor } from "../../app/core/contracts/print";
import { signedPrintFileUrl } from "~/server/printing/print-files.server";
import { PRINT_FILE_URL_TTL_SECONDS } from "~/lib/shop-rules";
import { ORIGIN } from "./helpers";
import { parsePdf, shownText } from "../sketch/pdf-parser";
import { orderRow, payLocally, TEST_DELIVERY, uploadedPhotos, Visitor } from "./helpers";

const form = { bookType: "standard", title: "Grandpa's Garden", customMessage: "For Grandpa, who grew every flower in this book", quantity: 2, agreeToTerms: true, newsletterSignup: false };

describe("print-ready PDF of a paid order", () => {
  it("is built after the sketches are drawn, stored in R2 and recorded on the order", async () => {
    const visitor = new Visitor();
    const keys = await uploadedPhotos(visitor, 5);
    const response = await visitor.send("POST", "/api/create-checkout-session", {
      ...form,
      sessionId: "1732300000000-printpdf",
      filesCount: keys.length,
      uploadKeys: keys,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { url, orderId } = (await response.json()) as { url: string; orderId: number };
    expect((await orderRow(orderId))!.pdf_key).toBeNull();

    await payLocally(visitor, url, TEST_DELIVERY);

    await expect.poll(async () => (await orderRow(orderId))!.pdf_key, { timeout: 60_000, interval: 250 }).not.toBeNull();
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ payment_status: "paid", pdf_key: printKeyFor(order!.order_number as string) });
    expect(order!.pdf_ready_at).toEqual(expect.any(Number));
    // Every photo was drawn before the PDF was made (the job waited for them).
    const drawn = await env.DB.prepare("SELECT count(*) AS n FROM images WHERE book_id = ? AND processing_status = 'completed'")
      .bind(order!.book_id)
      .first<number>("n");
    expect(drawn).toBe(5);

    const object = await env.IMAGES.get(order!.pdf_key as string);
    expect(object!.httpMetadata?.contentType).toBe("application/pdf");
    const pdf = parsePdf(new Uint8Array(await object!.arrayBuffer()));
    // One file whatever the quantity (2 here): photos + title + dedication.
    expect(pdf.pageObjectCount).toBe(5 + EXTRA_PAGES);
    expect(shownText(pdf.pages[0].content)).toEqual(["Grandpa's Garden"]);
    expect(shownText(pdf.pages[1].content).join(" ")).toBe(form.customMessage);
    // Each 96 x 72 photo's page is drawn at print size (300 dpi on the 11 in long edge).
    for (const page of pdf.pages.slice(2)) expect([page.image!.width, page.image!.height]).toEqual([3300, 2475]);
    // Interior pages: 8.5 x 11 in trim with 0.125 in bleed (decision 028).
    for (const page of pdf.pages) {
      expect(page.mediaBox).toEqual([0, 0, 630, 810]);
      expect(page.trimBox).toEqual([9, 9, 621, 801]);
    }

    // The cover, a PDF of its own for the print partner: back and front side by side, no spine
    // (coil), 0.125 in bleed: 17.25 x 11.25 in, the title and one of the book's pages on the front.
    const coverObject = await env.IMAGES.get(coverKeyFor(order!.order_number as string));
    expect(coverObject!.httpMetadata?.contentType).toBe("application/pdf");
    const cover = parsePdf(new Uint8Array(await coverObject!.arrayBuffer()));
    expect(cover.pages).toHaveLength(1);
    expect(cover.pages[0].mediaBox).toEqual([0, 0, 1242, 810]);
    expect(cover.pages[0].trimBox).toEqual([9, 9, 1233, 801]);
    expect(shownText(cover.pages[0].content)).toEqual(["Grandpa's Garden"]);
    expect([cover.pages[0].image!.width, cover.pages[0].image!.height]).toEqual([3300, 2475]);
    // Everything on the front half (x from 621 pt), inside its safety margin.
    const placement = cover.pages[0].content.match(/q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm/)!.slice(1).map(Number);
    expect(placement[2]).toBeGreaterThanOrEqual(621 + 27);
    expect(placement[2] + placement[0]).toBeLessThanOrEqual(1233 - 27 + 0.01);

    // The partner's interior: single-sided, every page followed by a blank back, same boxes.
    const partner = parsePdf(new Uint8Array(await (await env.IMAGES.get(partnerInteriorKeyFor(order!.order_number as string)))!.arrayBuffer()));
    expect(partner.pages).toHaveLength(2 * (5 + EXTRA_PAGES));
    partner.pages.forEach((page, index) => {
      expect(page.mediaBox).toEqual([0, 0, 630, 810]);
      expect(page.trimBox).toEqual([9, 9, 621, 801]);
      if (index % 2 === 1) expect([page.content.trim(), page.image]).toEqual(["", null]);
    });
    expect(shownText(partner.pages[0].content)).toEqual(["Grandpa's Garden"]);
    expect(partner.pages.filter((page) => page.image).length).toBe(5);

    // The partner fetches both through signed, expiring URLs of the app Worker; R2 stays private.
    const number = order!.order_number as string;
    const now = new Date();
    for (const [file, key] of [["interior", partnerInteriorKeyFor(number)], ["cover", coverKeyFor(number)]] as const) {
      const url = await signedPrintFileUrl(testEnv, ORIGIN, number, file, now);
      const response = await SELF.fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect((await response.arrayBuffer()).byteLength).toBe((await env.IMAGES.head(key))!.size);
      const tampered = new URL(url);
      const signature = tampered.searchParams.get("signature")!;
      tampered.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
      expect((await SELF.fetch(tampered)).status).toBe(404);
      expect((await SELF.fetch(url.replace(`/${file}.pdf`, `/${file === "cover" ? "interior" : "cover"}.pdf`))).status).toBe(404);
    }
    const expired = await signedPrintFileUrl(testEnv, ORIGIN, number, "interior", new Date(now.getTime() - (PRINT_FILE_URL_TTL_SECONDS + 60) * 1000));
    expect((await SELF.fetch(expired)).status).toBe(404);
  });
});
