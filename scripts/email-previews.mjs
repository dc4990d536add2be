// Renders both order emails with the shop's real templates to .cache/email-previews/*.html (and
// *.txt), then screenshots each in Chromium at 600 px (a desktop mail client's column) and
// 375 px (a phone) to *-600.png / *-375.png. For looking at the emails; not a test.
//
//   node scripts/email-previews.mjs
//
// The templates are TypeScript under app/ (with the `~` alias), so esbuild bundles a small
// entry first, resolving react-dom/server the way the Worker does (its web-streams build).
import { build } from "esbuild";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".cache/email-previews");
await mkdir(out, { recursive: true });

const entry = `
import { createElement } from "react";
import { OrderConfirmationEmail, orderConfirmationText } from "~/emails/order-confirmation-email";
import { OrderShippedEmail, orderShippedText } from "~/emails/order-shipped-email";
import { renderEmailHtml } from "~/emails/render.server";
import { formatMoney } from "~/lib/format";

const origin = "https://shop.example";
const common = {
  origin,
  firstName: "Ada",
  orderNumber: "CB-20261123-3MH5Z",
  // A long title, with markup a customer might type, to see wrapping and escaping.
  bookTitle: "Summer at Grandma's cottage by the sea <with> the whole family & the dog",
  trackingUrl: origin + "/orders/CB-20261123-3MH5Z",
};
const confirmation = {
  ...common,
  pages: 17,
  quantity: 2,
  total: formatMoney(3998, "GBP"),
  estimatedDelivery: "3-15 business days (by Friday, 11 December 2026)",
  addressLines: ["Ada Lovelace", "1 Downing Street", "Flat 2", "London SW1A 2AA", "United Kingdom"],
};
const shipped = { ...common, trackingNumber: "RM123456789GB" };

export async function previews() {
  return [
    { name: "order-confirmation", html: await renderEmailHtml(createElement(OrderConfirmationEmail, confirmation)), text: orderConfirmationText(confirmation) },
    { name: "order-shipped", html: await renderEmailHtml(createElement(OrderShippedEmail, shipped)), text: orderShippedText(shipped) },
  ];
}
`;

const bundle = path.join(out, "previews.mjs");
await build({
  stdin: { contents: entry, resolveDir: root, loader: "tsx" },
  bundle: true,
  format: "esm",
  platform: "node",
  conditions: ["worker", "browser"],
  alias: { "~": path.join(root, "app") },
  jsx: "automatic",
  outfile: bundle,
  logLevel: "warning",
});
const { previews } = await import(pathToFileURL(bundle).href);

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
});
try {
  for (const { name, html, text } of await previews()) {
    const htmlPath = path.join(out, `${name}.html`);
    await writeFile(htmlPath, html);
    await writeFile(path.join(out, `${name}.txt`), text);
    for (const width of [600, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(pathToFileURL(htmlPath).href);
      const png = path.join(out, `${name}-${width}.png`);
      await page.screenshot({ path: png, fullPage: true });
      await page.close();
      console.log(png);
    }
  }
} finally {
  await browser.close();
}
