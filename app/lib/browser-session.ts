/**
 * SPEC's browser-side session id (a timestamp plus a random string) and free-preview flag.
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
