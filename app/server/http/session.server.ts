/**
 * The visitor's identity: a random id in a signed, HttpOnly, SameSite=Lax cookie.
 * Every book, image, quote and order is bound to it (docs/design.md §7); the browser's own
 * session id (docs/product.md §2) is for display and never decides ownership.
 */
import { createCookie } from "@remix-run/cloudflare";
import { isLocalEnvironment, type Env } from "./env.server";

/**
 * Locally the cookie is plain `cb_session` (http://127.0.0.1 has no https); everywhere else it is
 * `__Host-cb_session`: Secure, Path=/, no Domain, so no sibling subdomain can plant one for us
 * (cookie tossing).
 */
export const SESSION_COOKIE_NAME = "cb_session";
export const SECURE_SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE_NAME}`;
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;
/** A cookie past half its life is issued again, so an active visitor never loses their books. */
const REFRESH_AFTER_SECONDS = ONE_YEAR_SECONDS / 2;
/** Used only when APP_ENV is development or test; production refuses to run without a secret. */
const LOCAL_DEV_SECRET = "local-dev-only-session-secret";

export class MissingSessionSecretError extends Error {
  constructor() {
    super("SESSION_SECRET is not set: refusing to sign session cookies with a default secret.");
  }
}

/**
 * The signing secrets, newest first: SESSION_SECRET signs, and it and SESSION_SECRET_PREVIOUS
 * (comma-separated, the ones being rotated out) verify. Rotating logs nobody out.
 */
export function sessionSecrets(env: Env): string[] {
  const previous = (env.SESSION_SECRET_PREVIOUS ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  if (env.SESSION_SECRET) return [env.SESSION_SECRET, ...previous];
  if (isLocalEnvironment(env)) return [LOCAL_DEV_SECRET];
  throw new MissingSessionSecretError();
}

/** The secret that signs (the newest). */
export function sessionSecret(env: Env): string {
  return sessionSecrets(env)[0];
}

export function sessionCookieName(env: Env): string {
  return isLocalEnvironment(env) ? SESSION_COOKIE_NAME : SECURE_SESSION_COOKIE_NAME;
}

function sessionCookie(env: Env, secrets: string[]) {
  const local = isLocalEnvironment(env);
  return createCookie(sessionCookieName(env), {
    httpOnly: true,
    sameSite: "lax",
    secure: !local,
    path: "/",
    maxAge: ONE_YEAR_SECONDS,
    secrets,
  });
}

export interface VisitorSession {
  sessionId: string;
  /** Set when the request had no valid cookie, or one to renew: the response must carry it. */
  setCookie: string | null;
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** The cookie's value: the session id and when it was issued (seconds), signed. */
interface SessionValue {
  id: string;
  issuedAt: number;
}

function readValue(value: unknown): SessionValue | null {
  // Cookies from before issue dates were kept hold the bare id: treat them as old, so renewed.
  if (typeof value === "string" && SESSION_ID_PATTERN.test(value)) return { id: value, issuedAt: 0 };
  if (value && typeof value === "object") {
    const { id, issuedAt } = value as Partial<SessionValue>;
    if (typeof id === "string" && SESSION_ID_PATTERN.test(id) && typeof issuedAt === "number") return { id, issuedAt };
  }
  return null;
}

/** Reads the visitor's signed session id (renewing an old or rotated-out cookie), or mints one. */
export async function resolveVisitorSession(request: Request, env: Env, now = new Date()): Promise<VisitorSession> {
  const secrets = sessionSecrets(env);
  const header = request.headers.get("Cookie");
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const current = sessionCookie(env, secrets.slice(0, 1));
  const signedNow = readValue(await parseOrNull(current, header));
  if (signedNow && nowSeconds - signedNow.issuedAt < REFRESH_AFTER_SECONDS) return { sessionId: signedNow.id, setCookie: null };
  // Signed with a secret being rotated out, or more than half-way to expiry: same id, new cookie.
  const known = signedNow ?? (secrets.length > 1 ? readValue(await parseOrNull(sessionCookie(env, secrets), header)) : null);
  const sessionId = known?.id ?? newSessionId();
  return { sessionId, setCookie: await current.serialize({ id: sessionId, issuedAt: nowSeconds } satisfies SessionValue) };
}
/**
 * A mangled cookie (not even base64: a browser extension, a bad proxy, a forger) is no cookie:
 * the visitor gets a new identity instead of a 500.
 */
async function parseOrNull(cookie: ReturnType<typeof sessionCookie>, header: string | null): Promise<unknown> {
  try {
    return await cookie.parse(header);
  } catch {
    return null;
  }
}

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Whether an answer may carry a visitor's session cookie: not one a shared cache may keep
 * (`public`, `s-maxage`), which would hand the same session to every visitor it is served to.
 * Such an answer gets none; the visitor is given (or rotated) one by their next private answer.
 */
export function mayCarrySessionCookie(response: Response): boolean {
  const cacheControl = (response.headers.get("Cache-Control") ?? "").toLowerCase();
  return !/(^|[\s,])(public|s-maxage)([\s,=]|$)/.test(cacheControl);
}
