/**
 * Headers every answer of the app Worker carries (docs/decisions/011): no sniffing, a strict
 * referrer policy, HSTS outside local development, and a Content-Security-Policy. Pages get a
 * per-request nonce for Remix's own inline scripts (the hydration data and scroll restoration)
 * and nothing else inline; JSON and images get a policy that allows nothing at all.
 */

/** 16 random bytes, base64: unguessable per response. */
export function newCspNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export function pageContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React renders style attributes (the comparison's clip, progress widths): attributes only,
    // never <style> elements or inline event handlers.
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    // Thumbnails of photos not uploaded yet are object URLs; nothing is loaded from elsewhere.
    "img-src 'self' blob: data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // The checkout page is reached by navigation (window.location), not by a form post.
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For everything that is not a page: JSON, images, redirects. */
export const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'";

const ONE_YEAR_SECONDS = 31_536_000;

export function withSecurityHeaders(response: Response, options: { nonce: string; local: boolean }): Response {
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  const isPage = (headers.get("Content-Type") ?? "").startsWith("text/html");
  headers.set("Content-Security-Policy", isPage ? pageContentSecurityPolicy(options.nonce) : NON_PAGE_POLICY);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  // Browsers ignore HSTS over plain http anyway; local development has no https to pin.
  if (!options.local) headers.set("Strict-Transport-Security", `max-age=${ONE_YEAR_SECONDS}; includeSubDomains`);
  return secured;
}
