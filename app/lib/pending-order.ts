/**
 * The pending order of the create-book page (docs/product.md §5.4), kept in browser storage between
 * the redirect to the payment page and the visitor's return: /cancel offers Retry Payment with
 * it and /create-book?retry=true restores the form from it; /success clears it.
 */
import { BOOK_TYPES, type BookType } from "../core/catalog";
import { PENDING_ORDER_STORAGE_KEY } from "./browser-session";

export interface PendingOrder {
  bookType: BookType;
  title: string;
  customMessage: string;
  quantity: number;
  filesCount: number;
  sessionId: string;
  timestamp: number;
  newsletterSignup: boolean;
  agreeToTerms: boolean;
  /** Our checkout record (record-book-data), so a retry names the very order it made. */
  checkoutId?: number;
}

export function savePendingOrder(order: PendingOrder): void {
  try {
    window.localStorage.setItem(PENDING_ORDER_STORAGE_KEY, JSON.stringify(order));
  } catch (error) {
    console.error("could not save the pending order", error);
  }
}

/** The saved pending order, or null; an unreadable one is logged and ignored (docs/product.md §5.6). */
export function loadPendingOrder(): PendingOrder | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(PENDING_ORDER_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<PendingOrder>;
    if (!parsed || typeof parsed.title !== "string" || !BOOK_TYPES.includes(parsed.bookType as BookType)) {
      throw new Error("missing fields");
    }
    return {
      bookType: parsed.bookType as BookType,
      title: parsed.title,
      customMessage: typeof parsed.customMessage === "string" ? parsed.customMessage : "",
      quantity: Number.isInteger(parsed.quantity) && parsed.quantity! > 0 ? parsed.quantity! : 1,
      filesCount: Number(parsed.filesCount) || 0,
      sessionId: String(parsed.sessionId ?? ""),
      timestamp: Number(parsed.timestamp) || 0,
      newsletterSignup: parsed.newsletterSignup === true,
      agreeToTerms: parsed.agreeToTerms === true,
      ...(Number.isInteger(parsed.checkoutId) ? { checkoutId: parsed.checkoutId } : {}),
    };
  } catch (error) {
    console.error("ignoring an unreadable pending order", error);
    return null;
  }
}

export function clearPendingOrder(): void {
  try {
    window.localStorage.removeItem(PENDING_ORDER_STORAGE_KEY);
  } catch {
    // Nothing saved then.
  }
}
