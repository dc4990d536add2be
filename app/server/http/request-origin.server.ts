/**
 * Cross-site request forgery: the session cookie is SameSite=Lax, and on top of that a request
 * that changes something must come from our own pages. A browser names the page's origin in
 * `Origin` on every POST/PUT/PATCH/DELETE (and `Sec-Fetch-Site` beside it); a foreign one is
 * refused before any code runs. Requests without either header (curl, Stripe's webhook, old
 * browsers) carry no visitor's ambient authority worth forging and pass on.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isForeignStateChange(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  // "same-site" is a sibling subdomain: not us either.
  return site === "cross-site" || site === "same-site";
}

/**
 * A GET that writes (GET /api/upload-complete keeps the GET its public contract names, yet makes
 * ticket rows and counts them against the visitor's daily allowance): only our own pages' fetches
 * (`Sec-Fetch-Site: same-origin`), a URL the visitor typed (`none`), or a tool that sends no
 * such header may make it. Another site's `<img src>` or link comes `cross-site` or `same-site`.
 */
export function isOwnPagesRead(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  return site === null || site === "same-origin" || site === "none";
}
