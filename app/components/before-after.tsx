/**
 * The before/after comparison of docs/product.md §5.1: the photo on the left, its sketch on the right,
 * split by a handle the visitor drags, clicks or moves with the keyboard. The position is a
 * percentage that starts at 50 and is clamped to 0-100.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { COMPARISON_DEFAULT_HEIGHT_PX, COMPARISON_START_PERCENT } from "~/lib/shop-rules";

const KEY_STEP = 5;
const KEY_PAGE_STEP = 25;

export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return COMPARISON_START_PERCENT;
  return Math.min(100, Math.max(0, value));
}

export interface BeforeAfterProps {
  beforeSrc: string;
  afterSrc: string;
  beforeAlt: string;
  afterAlt: string;
  height?: number;
  label?: string;
}

export function BeforeAfter({
  beforeSrc,
  afterSrc,
  beforeAlt,
  afterAlt,
  height = COMPARISON_DEFAULT_HEIGHT_PX,
  label = "Compare photo and sketch",
}: BeforeAfterProps) {
  const [percent, setPercent] = useState(COMPARISON_START_PERCENT);
  const frameRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = useCallback((clientX: number) => {
    const frame = frameRef.current;
    if (!frame) return;
    const box = frame.getBoundingClientRect();
    if (box.width === 0) return;
    setPercent(clampPercent(((clientX - box.left) / box.width) * 100));
  }, []);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    dragging.current = true;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    moveTo(event.clientX);
  }
  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (dragging.current) moveTo(event.clientX);
  }
  function onPointerUp() {
    dragging.current = false;
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, (current: number) => number> = {
      ArrowLeft: (p) => p - KEY_STEP,
      ArrowDown: (p) => p - KEY_STEP,
      ArrowRight: (p) => p + KEY_STEP,
      ArrowUp: (p) => p + KEY_STEP,
      PageDown: (p) => p - KEY_PAGE_STEP,
      PageUp: (p) => p + KEY_PAGE_STEP,
      Home: () => 0,
      End: () => 100,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setPercent((current) => clampPercent(move(current)));
  }

  const rounded = Math.round(percent);
  return (
    <div
      ref={frameRef}
      className="relative w-full touch-pan-y select-none overflow-hidden rounded-xl bg-gray-100 shadow-sm ring-1 ring-gray-200"
      style={{ height }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="before-after"
    >
      {/* The sketch fills the frame; the photo on top is clipped to the left of the handle. */}
      <img src={afterSrc} alt={afterAlt} className="absolute inset-0 h-full w-full bg-white object-contain" draggable={false} />
      <img
        src={beforeSrc}
        alt={beforeAlt}
        className="absolute inset-0 h-full w-full object-contain"
        style={{ clipPath: `inset(0 ${100 - percent}% 0 0)` }}
        draggable={false}
      />
      <span className="pointer-events-none absolute left-3 top-3 rounded bg-black/60 px-2 py-0.5 text-xs font-medium text-white">
        Photo
      </span>
      <span className="pointer-events-none absolute right-3 top-3 rounded bg-black/60 px-2 py-0.5 text-xs font-medium text-white">
        Sketch
      </span>
      <div
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        aria-valuetext={`${rounded}% photo`}
        aria-orientation="horizontal"
        onKeyDown={onKeyDown}
        className="absolute inset-y-0 -ml-5 flex w-10 cursor-ew-resize items-center justify-center focus-visible:outline-none"
        style={{ left: `${percent}%` }}
      >
        <span className="absolute inset-y-0 left-1/2 w-0.5 -translate-x-1/2 bg-white shadow" />
        <span className="relative flex h-9 w-9 items-center justify-center rounded-full bg-white text-gray-700 shadow-md ring-1 ring-gray-300 [div:focus-visible>&]:ring-2 [div:focus-visible>&]:ring-brand-600">
          <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
            <path d="M7 5 2 10l5 5V5Zm6 0v10l5-5-5-5Z" />
          </svg>
        </span>
      </div>
    </div>
  );
}
