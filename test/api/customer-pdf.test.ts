/**
 * The customer's own PDF of their book (docs/decisions/028): once the print PDF exists, the order
 * page gives a signed download link valid 30 days; a tampered link is not found, an expired one
 * leads back to the order page, which explains and gives a fresh one.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CUSTOMER_PDF_TEXT } from "~/lib/customer-copy";
import { CUSTOMER_PDF_LINK_DAYS } from "~/lib/shop-rules";
import { customerPdfUrl } from "~/server/orders/customer-pdf.server";
import { ORIGIN, Visitor } from "./helpers";
import { paidOrderWithPdf } from "./print-helpers";

const PDF_BYTES = new TextEncoder().encode("%PDF-1.7 test book");

async function orderWithStoredPdf(overrides = {}) {
  const order = await paidOrderWithPdf(overrides);
  if (order.pdfKey) await env.IMAGES.put(order.pdfKey, PDF_BYTES, { httpMetadata: { contentType: "application/pdf" } });
  return order;
}

function lookup(orderNumber: string, query = "") {
  return new Visitor().fetch(`/orders/${orderNumber}${query}`, {
    method: "POST",
    headers: { Origin: ORIGIN, Host: new URL(ORIGIN).host, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "ada@example.com" }),
  });
}

const linkIn = (html: string) => html.match(/href="(\/orders\/[^"]+\/book\.pdf\?[^"]+)"/)?.[1].replaceAll("&amp;", "&") ?? null;

describe("the customer's own PDF", () => {
  it("the order page links to the book's PDF, which downloads as an attachment", async () => {
    const order = await orderWithStoredPdf();
    const html = await (await lookup(order.orderNumber)).text();
    expect(html).toContain(CUSTOMER_PDF_TEXT.download);
    const link = linkIn(html)!;
    const expires = Number(new URL(link, ORIGIN).searchParams.get("expires"));
    const days = (expires * 1000 - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(CUSTOMER_PDF_LINK_DAYS);

    const download = await SELF.fetch(`${ORIGIN}${link}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(download.headers.get("Content-Disposition")).toContain("attachment");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF_BYTES);
  });

  it("no link while the PDF is being made", async () => {
    const order = await orderWithStoredPdf({ pdfKey: null, pdfReadyAt: null });
    const html = await (await lookup(order.orderNumber)).text();
    expect(html).toContain(`Order ${order.orderNumber}`);
    expect(linkIn(html)).toBeNull();
  });

  it("a tampered link, or one for another order, is not found", async () => {
    const order = await orderWithStoredPdf();
    const other = await orderWithStoredPdf();
    const link = await customerPdfUrl(env, order.orderNumber, new Date());
    const url = new URL(link, ORIGIN);
    const tampered = new URL(url);
    tampered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 1));
    expect((await SELF.fetch(tampered)).status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}${link.replace(order.orderNumber, other.orderNumber)}`)).status).toBe(404);
  });

  it("an expired link leads to the order page, which says so and gives a fresh link", async () => {
    const order = await orderWithStoredPdf();
    const old = await customerPdfUrl(env, order.orderNumber, new Date(Date.now() - (CUSTOMER_PDF_LINK_DAYS + 1) * 86_400_000));
    const response = await SELF.fetch(`${ORIGIN}${old}`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/orders/${order.orderNumber}?link=expired`);
    const html = await (await lookup(order.orderNumber, "?link=expired")).text();
    expect(html).toContain(CUSTOMER_PDF_TEXT.expired);
    expect((await SELF.fetch(`${ORIGIN}${linkIn(html)}`)).status).toBe(200);
  });
});
