/**
 * Who may open the orders desk (/admin). In production only Cloudflare Access decides: its JWT
 * must verify (admin-access-jwt.server.ts). For `npm run dev` and the tests there is also a local
 * sign-in with ADMIN_LOCAL_PASSWORD, which gives a signed, HttpOnly, short-lived cookie; in
 * production that sign-in does not exist and its cookie means nothing.
 *
 * Everyone else gets the site's ordinary 404 page on every /admin URL, whatever the method:
 * the desk does not admit it exists.
 */
import { ADMIN_SESSION_MINUTES } from "~/lib/shop-rules";
import { verifyAccessJwt, type AccessIdentity } from "./admin-access-jwt.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import { hmacBase64Url, verifyHmacBase64Url } from "~/server/http/signing.server";

export const ACCESS_JWT_HEADER = "Cf-Access-Jwt-Assertion";
/** Local only (plain http), so no __Host- prefix; Path=/admin keeps it off every other request. */
export const ADMIN_COOKIE_NAME = "cb_admin";
const ADMIN_COOKIE_PATH = "/admin";
/** Domain separation: this HMAC can never be mistaken for an upload ticket's or an address hash. */
const ADMIN_COOKIE_PURPOSE = "admin-local-session";

export interface Admin {
  /** Who, for the log: the Access email, or "local" for the dev sign-in. */
  name: string;
}

/** The ordinary 404 (the root error boundary renders the shop's Page Not Found). */
export function adminNotFound(): Response {
  return new Response("Not Found", { status: 404 });
}

export function localSignInAvailable(env: Env): boolean {
  return isLocalEnvironment(env) && Boolean(env.ADMIN_LOCAL_PASSWORD);
}

function accessSettings(env: Env) {
  if (!env.ACCESS_TEAM_DOMAIN || !env.ACCESS_AUD) return null;
  return { teamDomain: env.ACCESS_TEAM_DOMAIN, audience: env.ACCESS_AUD };
}

async function admittedByAccess(request: Request, env: Env, now: Date): Promise<AccessIdentity | null> {
  const token = request.headers.get(ACCESS_JWT_HEADER);
  const settings = accessSettings(env);
  if (!token || !settings) return null;
  return verifyAccessJwt(token, settings, now);
}

/** The admin behind this request, or null. */
export async function admittedAdmin(request: Request, env: Env, now = new Date()): Promise<Admin | null> {
  const identity = await admittedByAccess(request, env, now);
  if (identity) return { name: identity.email ?? identity.subject ?? "access" };
  if (localSignInAvailable(env) && (await hasLocalAdminCookie(request, env, now))) return { name: "local" };
  return null;
}

/** For every /admin loader and action: the admin, or the ordinary 404 thrown. */
export async function requireAdmin(request: Request, env: Env): Promise<Admin> {
  const admin = await admittedAdmin(request, env);
  if (!admin) throw adminNotFound();
  return admin;
}

function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

async function hasLocalAdminCookie(request: Request, env: Env, now: Date): Promise<boolean> {
  const value = readCookie(request, ADMIN_COOKIE_NAME);
  const match = value?.match(/^(\d{1,12})\.([A-Za-z0-9_-]{1,128})$/);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt <= Math.floor(now.getTime() / 1000)) return false;
  return verifyHmacBase64Url(env, `${ADMIN_COOKIE_PURPOSE}:${expiresAt}`, match[2]);
}

/**
 * Checks the local sign-in password in constant time (crypto.subtle.verify compares the HMACs,
 * not our code) and answers the Set-Cookie of a new admin session, or null.
 */
export async function signInLocally(env: Env, password: string, now = new Date()): Promise<string | null> {
  if (!localSignInAvailable(env)) return null;
  const expected = await hmacBase64Url(env, `${ADMIN_COOKIE_PURPOSE}:password:${env.ADMIN_LOCAL_PASSWORD}`);
  const matches = await verifyHmacBase64Url(env, `${ADMIN_COOKIE_PURPOSE}:password:${password}`, expected);
  if (!matches) return null;
  const maxAge = ADMIN_SESSION_MINUTES * 60;
  const expiresAt = Math.floor(now.getTime() / 1000) + maxAge;
  const signature = await hmacBase64Url(env, `${ADMIN_COOKIE_PURPOSE}:${expiresAt}`);
  return `${ADMIN_COOKIE_NAME}=${expiresAt}.${signature}; Path=${ADMIN_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict`;
}

export function signOutCookie(): string {
  return `${ADMIN_COOKIE_NAME}=; Path=${ADMIN_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`;
}

export const ADMIN_SIGN_IN_PATH = "/admin/sign-in";
/** Matched by no route but the splat ($.tsx): the shop's ordinary Page Not Found. */
const NOT_FOUND_PATH = "/__not-found";

/** The path as the router will match it: decoded, lower case, single slashes. */
function routedPath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // The router keeps an undecodable path as it is, and so do we.
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, "/");
}

export function isAdminPath(pathname: string): boolean {
  const path = routedPath(pathname);
  return path === "/admin" || path.startsWith("/admin/");
}

/**
 * Runs before Remix (app/worker.ts): a stranger's request to any /admin URL, of any method,
 * becomes a plain GET of a page nothing serves, so even the PDF route and POSTs answer the very
 * same 404 page as a mistyped URL. The routes still check for themselves (requireAdmin).
 */
export async function gateAdminRequest(request: Request, env: Env): Promise<Request> {
  const url = new URL(request.url);
  if (!isAdminPath(url.pathname)) return request;
  if (routedPath(url.pathname).replace(/\/$/, "") === ADMIN_SIGN_IN_PATH && localSignInAvailable(env)) return request;
  if (await admittedAdmin(request, env)) return request;
  const headers = new Headers(request.headers);
  headers.delete("Content-Type");
  headers.delete("Content-Length");
  return new Request(new URL(NOT_FOUND_PATH, url.origin), { method: "GET", headers });
}
