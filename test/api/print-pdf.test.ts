/**
 * A paid order becomes a print-ready PDF without anyone touching it: the create-book purchase is
 * paid on the local test checkout before its photos are drawn, the sketch Worker beside the app
 * draws them, and its print job (which waits for them) stores print/<orderNumber>.pdf in R2 and
 * records it on the order.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EXTRA_PAGES } from "~/lib/shop-rules";
import { printKeyFor } from "../../app/core/contracts/print";
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
  });
});
