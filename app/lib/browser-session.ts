/**
 * The browser's own session id (docs/product.md §2; a timestamp plus a random string) and free-preview flag.
 * Display and analytics only: ownership is decided by the server's signed cookie.
 */
export const SESSION_STORAGE_KEY = "coloring-book-session-id";
export const PENDING_ORDER_STORAGE_KEY = "coloring-book-pending-order";
export const FREE_PREVIEW_USED_KEY = "coloring-book-free-preview-used";
export const DEFAULT_SESSION_ID = "default-session";

export function newBrowserSessionId(): string {
  return `${Date.now()}-${Math.random().toString(36).slice(2, 11)}`;
}

export function ensureBrowserSessionId(): string {
  try {
    const existing = window.localStorage.getItem(SESSION_STORAGE_KEY);
    if (existing) return existing;
    const created = newBrowserSessionId();
    window.localStorage.setItem(SESSION_STORAGE_KEY, created);
    return created;
  } catch {
    return DEFAULT_SESSION_ID;
  }
}

/**
 * docs/product.md §5.5 and §5.6: after a payment (success page) and on "Back to Home" from the cancel page the
 * browser starts a new session id, kept in browser storage and, for Back to Home, in a cookie.
 * The signed server session (ownership of books and orders) is not touched.
 */
export function startNewBrowserSession({ alsoCookie = false } = {}): string {
  const created = newBrowserSessionId();
  try {
    window.localStorage.setItem(SESSION_STORAGE_KEY, created);
  } catch {
    // Storage blocked (private mode): the id lives for this page only.
  }
  if (alsoCookie) {
    document.cookie = `${SESSION_STORAGE_KEY}=${encodeURIComponent(created)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }
  return created;
}
