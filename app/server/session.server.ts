/**
 * The visitor's identity: a random id in a signed, HttpOnly, SameSite=Lax cookie.
 * Every book, image, quote and order is bound to it (DESIGN.md section 7); the browser's own
 * session id of SPEC is for display and never decides ownership.
 */
import { createCookie } from "@remix-run/cloudflare";
import { isLocalEnvironment, type Env } from "./env.server";

export const SESSION_COOKIE_NAME = "cb_session";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;
/** Used only when APP_ENV is development or test; production refuses to run without a secret. */
const LOCAL_DEV_SECRET = "local-dev-only-session-secret";

export class MissingSessionSecretError extends Error {
  constructor() {
    super("SESSION_SECRET is not set: refusing to sign session cookies with a default secret.");
  }
}

export function sessionSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (isLocalEnvironment(env)) return LOCAL_DEV_SECRET;
  throw new MissingSessionSecretError();
}

function sessionCookie(env: Env) {
  return createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    secure: !isLocalEnvironment(env),
    path: "/",
    maxAge: ONE_YEAR_SECONDS,
    secrets: [sessionSecret(env)],
  });
}

export interface VisitorSession {
  sessionId: string;
  /** Set when the request had no valid cookie: the response must carry this header. */
  setCookie: string | null;
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** Reads the visitor's signed session id, or mints a new one. */
export async function resolveVisitorSession(request: Request, env: Env): Promise<VisitorSession> {
  const cookie = sessionCookie(env);
  const existing: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (typeof existing === "string" && SESSION_ID_PATTERN.test(existing)) {
    return { sessionId: existing, setCookie: null };
  }
  const sessionId = newSessionId();
  return { sessionId, setCookie: await cookie.serialize(sessionId) };
}

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
