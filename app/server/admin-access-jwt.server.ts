/**
 * Cloudflare Access in front of /admin: Access signs every request it lets through with a JWT in
 * the `Cf-Access-Jwt-Assertion` header (RS256, keys at https://<team>/cdn-cgi/access/certs).
 * We verify it ourselves, so a request that reaches the Worker some other way (workers.dev, a
 * misconfigured route, a forged header) is refused. Only WebCrypto; no JWT library.
 */

/** What the caller needs to know about an admitted token. */
export interface AccessIdentity {
  email: string | null;
  subject: string | null;
}

export interface AccessSettings {
  /** ACCESS_TEAM_DOMAIN, e.g. "yourshop.cloudflareaccess.com" (a leading https:// is allowed). */
  teamDomain: string;
  /** ACCESS_AUD: the Access application's audience tag. */
  audience: string;
}

interface Jwk {
  kid?: string;
  kty?: string;
  alg?: string;
  use?: string;
  n?: string;
  e?: string;
}

/** Fetches the team's JWKS document. Swapped out by tests, which sign with their own keys. */
export type JwksFetcher = (url: string) => Promise<{ keys?: Jwk[] }>;

const defaultJwksFetcher: JwksFetcher = async (url) => {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`Access certs answered ${response.status}`);
  return response.json();
};

let jwksFetcher: JwksFetcher = defaultJwksFetcher;

/** Tests only: sign tokens with a generated key pair, no network. Pass null to restore. */
export function setJwksFetcherForTests(fetcher: JwksFetcher | null): void {
  jwksFetcher = fetcher ?? defaultJwksFetcher;
  jwksCache.clear();
}

/** Access rotates keys every 6 weeks and keeps the old one valid 7 days: an hour's cache is safe. */
const JWKS_TTL_MS = 60 * 60 * 1000;
/** An unknown kid refetches, but at most this often: made-up kids cannot flood Cloudflare. */
const JWKS_REFETCH_MIN_MS = 60 * 1000;
/** Tolerated clock difference between Cloudflare's edge and this isolate. */
const CLOCK_SKEW_SECONDS = 60;

interface CachedKeys {
  keys: Map<string, CryptoKey>;
  fetchedAt: number;
}

/** Per isolate: each team domain's verification keys by kid. */
const jwksCache = new Map<string, CachedKeys>();

export function normaliseTeamDomain(teamDomain: string): string {
  return teamDomain.trim().replace(/^https?:\/\//i, "").replace(/\/+$/, "").toLowerCase();
}

async function importKeys(document: { keys?: Jwk[] }): Promise<Map<string, CryptoKey>> {
  const keys = new Map<string, CryptoKey>();
  for (const jwk of document.keys ?? []) {
    if (!jwk.kid || jwk.kty !== "RSA" || !jwk.n || !jwk.e) continue;
    if (jwk.alg && jwk.alg !== "RS256") continue;
    if (jwk.use && jwk.use !== "sig") continue;
    try {
      const key = await crypto.subtle.importKey(
        "jwk",
        { kty: "RSA", n: jwk.n, e: jwk.e, alg: "RS256", ext: true },
        { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
        false,
        ["verify"],
      );
      keys.set(jwk.kid, key);
    } catch {
      // A key we cannot read verifies nothing; the others still do.
    }
  }
  return keys;
}

async function verificationKey(teamDomain: string, kid: string, nowMs: number): Promise<CryptoKey | null> {
  const cached = jwksCache.get(teamDomain);
  const fresh = cached && nowMs - cached.fetchedAt < JWKS_TTL_MS;
  if (fresh && cached.keys.has(kid)) return cached.keys.get(kid)!;
  if (cached && nowMs - cached.fetchedAt < JWKS_REFETCH_MIN_MS) return cached.keys.get(kid) ?? null;
  try {
    const keys = await importKeys(await jwksFetcher(`https://${teamDomain}/cdn-cgi/access/certs`));
    jwksCache.set(teamDomain, { keys, fetchedAt: nowMs });
    return keys.get(kid) ?? null;
  } catch (error) {
    console.error("admin access: could not fetch the Access certs", error);
    // Keys we still hold keep working through a short outage of the certs endpoint.
    return cached?.keys.get(kid) ?? null;
  }
}

function base64UrlBytes(part: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return null;
  try {
    const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function base64UrlJson(part: string): Record<string, unknown> | null {
  const bytes = base64UrlBytes(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A well-formed token is three base64url parts; Access tokens are a few KB at most. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/**
 * The identity behind `token` if Access issued it for our application and it is in date; null
 * for anything else (the reason is never told to the client).
 */
export async function verifyAccessJwt(
  token: string,
  settings: AccessSettings,
  now = new Date(),
): Promise<AccessIdentity | null> {
  const teamDomain = normaliseTeamDomain(settings.teamDomain);
  const audience = settings.audience.trim();
  if (!teamDomain || !audience || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = base64UrlJson(headerPart);
  const payload = base64UrlJson(payloadPart);
  const signature = base64UrlBytes(signaturePart);
  if (!header || !payload || !signature || signature.length === 0) return null;
  // RS256 only: "none" and HS256 (a public key used as an HMAC secret) are the classic forgeries.
  if (header.alg !== "RS256" || typeof header.kid !== "string" || header.kid === "") return null;

  const nowSeconds = Math.floor(now.getTime() / 1000);
  const { aud, iss, exp, nbf } = payload;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(audience)) return null;
  if (iss !== `https://${teamDomain}`) return null;
  if (typeof exp !== "number" || exp + CLOCK_SKEW_SECONDS < nowSeconds) return null;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf - CLOCK_SKEW_SECONDS > nowSeconds)) return null;

  const key = await verificationKey(teamDomain, header.kid, now.getTime());
  if (!key) return null;
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  const valid = await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, signed);
  if (!valid) return null;
  return {
    email: typeof payload.email === "string" ? payload.email : null,
    subject: typeof payload.sub === "string" ? payload.sub : null,
  };
}
