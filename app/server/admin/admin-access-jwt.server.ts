/**
 * Cloudflare Access in front of /admin: Access signs every request it lets through with a JWT in
 * the `Cf-Access-Jwt-Assertion` header (RS256, keys at https://<team>/cdn-cgi/access/certs).
 * We verify it ourselves, so a request that reaches the Worker some other way (workers.dev, a
 * misconfigured route, a forged header) is refused. The checking is jose's (createRemoteJWKSet,
 * jwtVerify), as in Cloudflare's own Access documentation for Workers: decision 020.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from "jose";

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

/** A JWKS document, as a test serves one. */
export type JwksFetcher = (url: string) => Promise<{ keys?: object[] }>;

/** Tests sign with their own keys and serve them through this instead of the network. */
let testJwksFetcher: JwksFetcher | null = null;

/** Tests only: sign tokens with a generated key pair, no network. Pass null to restore. */
export function setJwksFetcherForTests(fetcher: JwksFetcher | null): void {
  testJwksFetcher = fetcher;
  keySets.clear();
}

/** Access rotates keys every 6 weeks and keeps the old one valid 7 days: an hour's cache is safe. */
const JWKS_TTL_MS = 60 * 60 * 1000;
/** An unknown kid refetches, but at most this often: made-up kids cannot flood Cloudflare. */
const JWKS_REFETCH_MIN_MS = 60 * 1000;
/** Tolerated clock difference between Cloudflare's edge and this isolate. */
const CLOCK_SKEW_SECONDS = 60;
/** A well-formed token is three base64url parts; Access tokens are a few KB at most. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** Per isolate: each team domain's key set, which caches its keys. */
const keySets = new Map<string, JWTVerifyGetKey>();

export function normaliseTeamDomain(teamDomain: string): string {
  return teamDomain.trim().replace(/^https?:\/\//i, "").replace(/\/+$/, "").toLowerCase();
}

function keySetOf(teamDomain: string): JWTVerifyGetKey {
  let keySet = keySets.get(teamDomain);
  if (!keySet) {
    const fetcher = testJwksFetcher;
    const remote = createRemoteJWKSet(new URL(`https://${teamDomain}/cdn-cgi/access/certs`), {
      cacheMaxAge: JWKS_TTL_MS,
      cooldownDuration: JWKS_REFETCH_MIN_MS,
      ...(fetcher ? { [customFetch]: async (url: string) => Response.json(await fetcher(url)) } : {}),
    });
    // Access always names its key. Without this, jose would try the only RS256 key of a one-key set
    // on a token that names none, and a token that is not Access's has no business here.
    keySet = (header, token) => {
      if (!header.kid) throw new errors.JWSInvalid("the token names no key");
      return remote(header, token);
    };
    keySets.set(teamDomain, keySet);
  }
  return keySet;
}

/** The key set could not be had (network, timeout, not a JWKS): worth a log line, unlike a forgery. */
function isKeySetOutage(error: unknown): boolean {
  return !(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout || error.code === errors.JOSEError.code;
}

/**
 * The identity behind `token` if Access issued it for our application and it is in date; null
 * for anything else (the reason is never told to the client).
 */
export async function verifyAccessJwt(token: string, settings: AccessSettings, now = new Date()): Promise<AccessIdentity | null> {
  const teamDomain = normaliseTeamDomain(settings.teamDomain);
  const audience = settings.audience.trim();
  if (!teamDomain || !audience || token.length > MAX_TOKEN_LENGTH) return null;
  try {
    const { payload } = await jwtVerify(token, keySetOf(teamDomain), {
      // RS256 only: "none" and HS256 (a public key used as an HMAC secret) are the classic forgeries.
      algorithms: ["RS256"],
      audience,
      issuer: `https://${teamDomain}`,
      requiredClaims: ["exp"],
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: now,
    });
    return {
      email: typeof payload.email === "string" ? payload.email : null,
      subject: typeof payload.sub === "string" ? payload.sub : null,
    };
  } catch (error) {
    if (isKeySetOutage(error)) console.error("admin access: could not fetch the Access certs", error);
    return null;
  }
}
