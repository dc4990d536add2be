/**
 * The orders desk (docs/product.md §5.16, decision 015): nobody but an admin reaches any /admin URL (the ordinary 404
 * page, no customer data), a forged Cloudflare Access JWT is refused and a real one admitted, the
 * local sign-in takes only its password, and the desk's moves change the order once, record the
 * shipped email, and refuse what makes no sense.
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TEXT } from "~/lib/customer-copy";
import { loader as deskLoader } from "~/routes/admin._index";
import { loader as pdfLoader } from "~/routes/admin.orders.$number.pdf";
import { setJwksFetcherForTests, verifyAccessJwt } from "~/server/admin/admin-access-jwt.server";
import { ACCESS_JWT_HEADER, admittedAdmin, gateAdminRequest } from "~/server/admin/admin-access.server";
import type { Env } from "~/server/http/env.server";
import { dbRun, ORIGIN, orderRow, payLocally, placeOrder, readyBook, startPayment, Visitor } from "./helpers";

const TEAM_DOMAIN = "coloring-shop.cloudflareaccess.com";
const AUD = "4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2";
const KID = "test-key-1";
const PDF_BYTES = new TextEncoder().encode("%PDF-1.7\n% a print file stands in here\n%%EOF\n");

// ---------- orders ----------

async function paidOrder(title = "Summer at Grandma's") {
  const owner = new Visitor();
  const { bookId, quoteId } = await readyBook(owner, 5);
  await dbRun("UPDATE books SET title = ? WHERE id = ?", title, bookId);
  const orderId = await placeOrder(owner, bookId, quoteId);
  await payLocally(owner, await startPayment(owner, orderId));
  const orderNumber = (await orderRow(orderId))!.order_number as string;
  return { owner, orderId, orderNumber };
}

/** What the sketch Worker's print job leaves behind (its own tests cover making it). */
async function withPdfReady(orderId: number, orderNumber: string) {
  const key = `print/${orderNumber}.pdf`;
  await env.IMAGES.put(key, PDF_BYTES, { httpMetadata: { contentType: "application/pdf" } });
  await dbRun("UPDATE orders SET pdf_key = ?, pdf_ready_at = unixepoch() WHERE id = ?", key, orderId);
}

// ---------- the desk over HTTP ----------

/** An admin of the local sign-in: only the desk's cookie, sent by hand. */
class DeskAdmin {
  constructor(private cookie: string) {}

  static async signIn(password = env.ADMIN_LOCAL_PASSWORD!): Promise<DeskAdmin> {
    const response = await signIn(password);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin");
    const setCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith("cb_admin="));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/admin/);
    return new DeskAdmin(setCookie!.split(";")[0]);
  }

  fetch(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set("Cookie", this.cookie);
    return SELF.fetch(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" });
  }

  /** The desk's actions as the page's forms post them (JSON through Remix's _data). */
  async act(fields: Record<string, string>) {
    const response = await this.fetch("/admin?index&_data=routes%2Fadmin._index", { method: "POST", body: new URLSearchParams(fields) });
    return { status: response.status, body: (await response.json()) as { ok?: boolean; message?: string; fieldErrors?: Record<string, string> } };
  }
}

function signIn(password: string) {
  return SELF.fetch(`${ORIGIN}/admin/sign-in`, {
    method: "POST",
    body: new URLSearchParams({ password }),
    redirect: "manual",
  });
}

/** A page's HTML without what differs on every response (the CSP nonce). */
async function comparableHtml(response: Response) {
  return (await response.text()).replace(/nonce="[^"]*"/g, 'nonce=""');
}

// ---------- Access JWTs, signed here with a generated key pair ----------

let accessKeys: CryptoKeyPair;
let otherKeys: CryptoKeyPair;

function base64Url(bytes: Uint8Array | string): string {
  const raw = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function signJwt(payload: Record<string, unknown>, { key = accessKeys.privateKey, header = { alg: "RS256", kid: KID, typ: "JWT" } as Record<string, unknown> } = {}) {
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64Url(new Uint8Array(signature))}`;
}

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { aud: [AUD], iss: `https://${TEAM_DOMAIN}`, email: "owner@coloring-shop.example", sub: "user-1", iat: now, nbf: now, exp: now + 600, ...overrides };
}

const settings = { teamDomain: TEAM_DOMAIN, audience: AUD };
/** The app as deployed: production, Access configured (no local sign-in, no session secret needed). */
const productionEnv = (): Env => ({ ...env, APP_ENV: "production", ACCESS_TEAM_DOMAIN: TEAM_DOMAIN, ACCESS_AUD: AUD });

function routeArgs(request: Request, appEnv: Env, params: Record<string, string> = {}) {
  return { request, params, context: { cloudflare: { env: appEnv }, sessionId: "desk-test", cspNonce: "" } } as never;
}

let certsFetched: string[] = [];
beforeAll(async () => {
  const algorithm = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  accessKeys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  otherKeys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
});

function serveCerts() {
  certsFetched = [];
  setJwksFetcherForTests(async (url) => {
    certsFetched.push(url);
    const jwk = (await crypto.subtle.exportKey("jwk", accessKeys.publicKey)) as JsonWebKey;
    return { keys: [{ kid: KID, kty: "RSA", alg: "RS256", use: "sig", n: jwk.n, e: jwk.e }] };
  });
}

afterEach(() => setJwksFetcherForTests(null));

describe("strangers", () => {
  it("get the shop's ordinary 404 page on every /admin URL, GET and POST, with no customer data", async () => {
    const { orderId, orderNumber } = await paidOrder("Stranger danger");
    await withPdfReady(orderId, orderNumber);
    const ordinary = await SELF.fetch(`${ORIGIN}/no-such-page`);
    expect(ordinary.status).toBe(404);
    const ordinaryHtml = await comparableHtml(ordinary);

    const stranger = new Visitor();
    const attempts: [string, RequestInit][] = [
      ["/admin", {}],
      ["/Admin/", {}],
      ["/%61dmin", {}],
      [`/admin/orders/${orderNumber}/pdf`, {}],
      ["/admin/emails/1", {}],
      ["/admin/no-such-desk-page", {}],
      ["/admin?index", { method: "POST", body: new URLSearchParams({ intent: "ship", orderNumber, trackingNumber: "JD014600003828" }) }],
      ["/admin?index&_data=routes%2Fadmin._index", { method: "POST", body: new URLSearchParams({ intent: "refund", orderNumber }) }],
      [`/admin/orders/${orderNumber}/pdf`, { method: "POST" }],
    ];
    for (const [path, init] of attempts) {
      const response = await stranger.fetch(path, init);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      const html = await comparableHtml(response);
      expect(html, path).toBe(ordinaryHtml);
      expect(html).not.toContain(orderNumber);
      expect(html).not.toContain("ada@example.com");
    }
    // Nothing moved.
    const row = await orderRow(orderId);
    expect([row!.shipped_at, row!.refunded_at]).toEqual([null, null]);
  });

  it("are refused with a forged or foreign Access JWT; a local desk cookie means nothing in production", async () => {
    serveCerts();
    const forged = await signJwt(claims(), { key: otherKeys.privateKey });
    const response = await SELF.fetch(`${ORIGIN}/admin`, { headers: { [ACCESS_JWT_HEADER]: forged } });
    expect(response.status).toBe(404);

    const admin = await DeskAdmin.signIn();
    const localCookie = (admin as unknown as { cookie: string }).cookie;
    const request = new Request(`${ORIGIN}/admin`, { headers: { Cookie: localCookie } });
    expect(await admittedAdmin(request, env)).not.toBeNull(); // tests are a local environment
    expect(await admittedAdmin(request, productionEnv())).toBeNull();
    const gated = await gateAdminRequest(request, productionEnv());
    expect(new URL(gated.url).pathname).toBe("/__not-found");
    await expect(deskLoader(routeArgs(request, productionEnv()))).rejects.toMatchObject({ status: 404 });
  });
});

describe("the Access JWT verifier", () => {
  it("admits a token Access signed for this application", async () => {
    serveCerts();
    const identity = await verifyAccessJwt(await signJwt(claims()), settings);
    expect(identity).toEqual({ email: "owner@coloring-shop.example", subject: "user-1" });
    // A string aud and a team domain written as a URL are the same thing.
    expect(await verifyAccessJwt(await signJwt(claims({ aud: AUD })), { teamDomain: `https://${TEAM_DOMAIN}/`, audience: AUD })).not.toBeNull();
    // Keys are cached per isolate: one fetch for all of the above.
    expect(certsFetched).toEqual([`https://${TEAM_DOMAIN}/cdn-cgi/access/certs`]);
  });

  it("refuses wrong key, audience, issuer, expiry, not-before, alg none, HS256, an unknown kid and a tampered payload", async () => {
    serveCerts();
    const now = Math.floor(Date.now() / 1000);
    const good = await signJwt(claims());
    const [header, , signature] = good.split(".");
    const tampered = `${header}.${base64Url(JSON.stringify(claims({ email: "intruder@example.com" })))}.${signature}`;
    const hmacKey = await crypto.subtle.importKey("raw", new TextEncoder().encode("a-public-key-as-secret"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const hs256Input = `${base64Url(JSON.stringify({ alg: "HS256", kid: KID }))}.${base64Url(JSON.stringify(claims()))}`;
    const hs256 = `${hs256Input}.${base64Url(new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode(hs256Input))))}`;
    const forgeries: Record<string, string> = {
      "wrong key": await signJwt(claims(), { key: otherKeys.privateKey }),
      "wrong aud": await signJwt(claims({ aud: ["another-application"] })),
      "no aud": await signJwt(claims({ aud: undefined })),
      "wrong iss": await signJwt(claims({ iss: "https://someone-else.cloudflareaccess.com" })),
      expired: await signJwt(claims({ exp: now - 3600, nbf: now - 7200, iat: now - 7200 })),
      "no exp": await signJwt(claims({ exp: undefined })),
      "not yet valid": await signJwt(claims({ nbf: now + 3600 })),
      "alg none": `${base64Url(JSON.stringify({ alg: "none", kid: KID }))}.${base64Url(JSON.stringify(claims()))}.`,
      "alg none, signed": `${base64Url(JSON.stringify({ alg: "none", kid: KID }))}.${base64Url(JSON.stringify(claims()))}.${signature}`,
      HS256: hs256,
      "unknown kid": await signJwt(claims(), { header: { alg: "RS256", kid: "not-a-key-of-ours" } }),
      "no kid": await signJwt(claims(), { header: { alg: "RS256" } }),
      "tampered payload": tampered,
      "two parts": good.split(".").slice(0, 2).join("."),
      garbage: "not.a.jwt",
    };
    for (const [name, token] of Object.entries(forgeries)) {
      expect(await verifyAccessJwt(token, settings), name).toBeNull();
    }
    expect(await verifyAccessJwt(good, settings)).not.toBeNull(); // the same set-up does admit
  });

  it("admits a valid token to the desk in a production-like environment, and a forged one gets 404", async () => {
    serveCerts();
    const { orderId, orderNumber } = await paidOrder("Access admitted");
    await withPdfReady(orderId, orderNumber);
    const admitted = new Request(`${ORIGIN}/admin`, { headers: { [ACCESS_JWT_HEADER]: await signJwt(claims()) } });
    expect(await gateAdminRequest(admitted, productionEnv())).toBe(admitted);
    const data = await (await deskLoader(routeArgs(admitted, productionEnv()))).json();
    expect(data.orders.map((order) => order.orderNumber)).toContain(orderNumber);
    expect(data.canSignOut).toBe(false); // no local sign-in in production

    const pdfRequest = new Request(`${ORIGIN}/admin/orders/${orderNumber}/pdf`, { headers: { [ACCESS_JWT_HEADER]: await signJwt(claims()) } });
    const pdf = await pdfLoader(routeArgs(pdfRequest, productionEnv(), { number: orderNumber }));
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");

    for (const token of [await signJwt(claims({ aud: ["other"] })), await signJwt(claims(), { key: otherKeys.privateKey })]) {
      const forged = new Request(`${ORIGIN}/admin`, { headers: { [ACCESS_JWT_HEADER]: token } });
      await expect(deskLoader(routeArgs(forged, productionEnv()))).rejects.toMatchObject({ status: 404 });
      await expect(pdfLoader(routeArgs(forged, productionEnv(), { number: orderNumber }))).rejects.toMatchObject({ status: 404 });
    }
  });
});

describe("local sign-in", () => {
  it("refuses a wrong password and gives no desk cookie", async () => {
    for (const password of ["wrong", "", `${env.ADMIN_LOCAL_PASSWORD} `]) {
      const response = await SELF.fetch(`${ORIGIN}/admin/sign-in?_data=routes%2Fadmin.sign-in`, {
        method: "POST",
        body: new URLSearchParams({ password }),
      });
      expect(response.status, password).toBe(422);
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("cb_admin="))).toBe(false);
      const body = (await response.json()) as { fieldErrors: Record<string, string> };
      expect(body.fieldErrors.password).toBe(password ? ADMIN_TEXT.wrongPassword : ADMIN_TEXT.passwordRequired);
    }
  });

  it("admits the right password; a tampered desk cookie is a stranger's", async () => {
    const admin = await DeskAdmin.signIn();
    expect((await admin.fetch("/admin")).status).toBe(200);
    const cookie = (admin as unknown as { cookie: string }).cookie;
    const [name, value] = cookie.split("=");
    const [expiresAt, signature] = value.split(".");
    // A character inside the signature (the last one's low bits are padding that decodes alike).
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    for (const forged of [`${name}=${Number(expiresAt) + 3600}.${signature}`, `${name}=${expiresAt}.${flipped}`, `${name}=${expiresAt}`]) {
      expect((await new DeskAdmin(forged).fetch("/admin")).status, forged).toBe(404);
    }
  });
});

describe("the desk's moves", () => {
  it("lists the paid order with its address and PDF, and streams the PDF to an admin", async () => {
    const { orderId, orderNumber } = await paidOrder("Listed on the desk");
    const admin = await DeskAdmin.signIn();
    let html = await (await admin.fetch("/admin")).text();
    expect(html).toContain(orderNumber);
    expect(html).toContain("Listed on the desk");
    expect(html).toContain("1 Downing Street");
    expect(html).toContain(ADMIN_TEXT.pdfPending);
    expect((await admin.fetch(`/admin/orders/${orderNumber}/pdf`)).status).toBe(404); // not made yet

    await withPdfReady(orderId, orderNumber);
    html = await (await admin.fetch("/admin")).text();
    expect(html).toContain(`href="/admin/orders/${orderNumber}/pdf"`);
    const pdf = await admin.fetch(`/admin/orders/${orderNumber}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Cache-Control")).toBe("private, no-store");
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(PDF_BYTES);
  });

  it("marks shipped with a tracking number: the columns, the shipped email, the customer's page; once only", async () => {
    const { owner, orderId, orderNumber } = await paidOrder("Shipped book");
    const admin = await DeskAdmin.signIn();

    expect(await admin.act({ intent: "ship", orderNumber, trackingNumber: "JD014600003828" })).toEqual({
      status: 409,
      body: { ok: false, message: ADMIN_TEXT.pdfNotReady },
    });
    await withPdfReady(orderId, orderNumber);
    const blank = await admin.act({ intent: "ship", orderNumber, trackingNumber: "   " });
    expect(blank.status).toBe(422);
    expect(blank.body.fieldErrors?.trackingNumber).toBe(ADMIN_TEXT.trackingRequired);
    const markup = await admin.act({ intent: "ship", orderNumber, trackingNumber: "<a href=x>1</a>" });
    expect(markup.body.fieldErrors?.trackingNumber).toBe(ADMIN_TEXT.trackingInvalid);
    expect((await orderRow(orderId))!.shipped_at).toBeNull();

    expect(await admin.act({ intent: "ship", orderNumber, trackingNumber: " JD014600003828 " })).toEqual({
      status: 200,
      body: { ok: true, message: ADMIN_TEXT.shipped },
    });
    const row = await orderRow(orderId);
    expect(row).toMatchObject({ order_status: "shipped", tracking_number: "JD014600003828" });
    expect(row!.shipped_at).not.toBeNull();
    const emails = await env.DB.prepare("SELECT kind, to_address FROM order_emails WHERE order_id = ? ORDER BY kind").bind(orderId).all();
    expect(emails.results).toEqual([
      { kind: "order-confirmation", to_address: "ada@example.com" },
      { kind: "order-shipped", to_address: "ada@example.com" },
    ]);

    // Again (a double click): nothing changes; another number is refused with the one it has.
    expect((await admin.act({ intent: "ship", orderNumber, trackingNumber: "JD014600003828" })).body).toEqual({ ok: true, message: ADMIN_TEXT.alreadyShippedSame });
    const other = await admin.act({ intent: "ship", orderNumber, trackingNumber: "OTHER123" });
    expect(other).toEqual({ status: 409, body: { ok: false, message: `${ADMIN_TEXT.shippedWithOtherNumber} JD014600003828` } });
    expect((await orderRow(orderId))!.shipped_at).toBe(row!.shipped_at);
    expect((await admin.act({ intent: "send-to-print", orderNumber })).body).toEqual({ ok: false, message: ADMIN_TEXT.alreadyShipped });

    // The customer sees it.
    const tracking = await (await owner.fetch(`/orders/${orderNumber}`)).text();
    expect(tracking).toContain("JD014600003828");
    // And the outbox lists both emails; one opens.
    const desk = await (await admin.fetch("/admin")).text();
    expect(desk).toContain(`order ${orderNumber} has been posted`); // the shipped email's subject
    const shippedId = await env.DB.prepare("SELECT id FROM order_emails WHERE order_id = ? AND kind = 'order-shipped'").bind(orderId).first<number>("id");
    const email = await admin.fetch(`/admin/emails/${shippedId}`);
    expect(email.status).toBe(200);
    expect(await email.text()).toMatch(/<iframe[^>]*sandbox=""/);
  });

  it("sends to print once, refuses moves before payment and after a refund", async () => {
    const { orderId, orderNumber } = await paidOrder("Printed book");
    const admin = await DeskAdmin.signIn();
    expect((await admin.act({ intent: "send-to-print", orderNumber })).body.message).toBe(ADMIN_TEXT.pdfNotReady);
    await withPdfReady(orderId, orderNumber);
    expect(await admin.act({ intent: "send-to-print", orderNumber })).toEqual({ status: 200, body: { ok: true, message: ADMIN_TEXT.sentToPrint } });
    expect(await orderRow(orderId)).toMatchObject({ order_status: "printing" });
    expect((await admin.act({ intent: "send-to-print", orderNumber })).body).toEqual({ ok: true, message: ADMIN_TEXT.alreadySentToPrint });

    expect(await admin.act({ intent: "refund", orderNumber })).toEqual({ status: 200, body: { ok: true, message: ADMIN_TEXT.markedRefunded } });
    expect((await orderRow(orderId))!.refunded_at).not.toBeNull();
    expect((await admin.act({ intent: "refund", orderNumber })).body).toEqual({ ok: true, message: ADMIN_TEXT.alreadyRefunded });
    expect(await admin.act({ intent: "ship", orderNumber, trackingNumber: "JD1" })).toEqual({ status: 409, body: { ok: false, message: ADMIN_TEXT.refunded } });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM order_emails WHERE order_id = ? AND kind = 'order-shipped'").bind(orderId).first("n")).toBe(0);

    // An order that was never paid: no move at all.
    const buyer = new Visitor();
    const { bookId, quoteId } = await readyBook(buyer, 5);
    const unpaidId = await placeOrder(buyer, bookId, quoteId);
    const unpaid = (await orderRow(unpaidId))!.order_number as string;
    await withPdfReady(unpaidId, unpaid);
    for (const intent of ["ship", "send-to-print", "refund"]) {
      expect(await admin.act({ intent, orderNumber: unpaid, trackingNumber: "JD1" }), intent).toEqual({ status: 409, body: { ok: false, message: ADMIN_TEXT.notPaid } });
    }
    expect(await admin.act({ intent: "ship", orderNumber: "CB-20990101-ZZZZZ", trackingNumber: "JD1" })).toEqual({ status: 409, body: { ok: false, message: ADMIN_TEXT.unknownOrder } });
    expect((await admin.act({ intent: "explode", orderNumber })).status).toBe(400);
  });
});
