/** The pure decisions behind the toast swipe and the tooltip delays (SPEC section 9), testable without a browser. */
import { TOAST_SWIPE_THRESHOLD_PX, TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "./constants";

/** A toast is dismissed when dragged right by more than the threshold; a drag to the left never dismisses. */
export function isSwipeDismiss(startX: number, endX: number): boolean {
  return endX - startX > TOAST_SWIPE_THRESHOLD_PX;
}

/** How far a toast follows the pointer: right only, so it cannot be dragged off the left edge. */
export function swipeOffset(startX: number, currentX: number): number {
  return Math.max(0, currentX - startX);
}

/**
 * How long to wait before opening a tooltip: none if another tooltip closed within the skip delay
 * (the visitor is moving along a row of icons), else the open delay.
 */
export function tooltipOpenDelay(now: number, lastClosedAt: number | null): number {
  if (lastClosedAt !== null && now - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) return 0;
  return TOOLTIP_OPEN_DELAY_MS;
}
