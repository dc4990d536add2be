/**
 * Toasts as SPEC section 9 says: one at a time, 5000 ms by default, destructive for errors,
 * swipe right (more than 50 px) to dismiss, F8 moves focus to the toast region.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { TOAST_DURATION_MS } from "~/lib/constants";
import { isSwipeDismiss, swipeOffset } from "~/lib/ui-timing";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  durationMs?: number;
}
interface ActiveToast extends ToastInput {
  id: number;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [active, setActive] = useState<ActiveToast | null>(null);
  const nextId = useRef(1);
  const show = useCallback((toast: ToastInput) => {
    setActive({ ...toast, id: nextId.current++ });
  }, []);
  // Stable, so a re-render of the page does not restart the toast's timer.
  const dismiss = useCallback(() => setActive(null), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <ToastViewport toast={active} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

function ToastViewport({ toast, onDismiss }: { toast: ActiveToast | null; onDismiss: () => void }) {
  const regionRef = useRef<HTMLElement>(null);
  const swipeStartX = useRef<number | null>(null);
  const [offsetX, setOffsetX] = useState(0);

  useEffect(() => {
    if (!toast) return;
    setOffsetX(0);
    const timer = setTimeout(onDismiss, toast.durationMs ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "F8") return;
      event.preventDefault();
      regionRef.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const destructive = toast?.variant === "destructive";
  return (
    // A named region, so F8 lands somewhere a screen reader announces ("Notifications (F8)").
    <section
      ref={regionRef}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="fixed bottom-4 left-4 right-4 z-50 outline-none focus-visible:ring-2 focus-visible:ring-brand-600 sm:left-auto sm:w-full sm:max-w-sm"
    >
      <ol className="flex flex-col gap-2">
        {toast ? (
          <li
            key={toast.id}
            role={destructive ? "alert" : "status"}
            aria-live={destructive ? "assertive" : "polite"}
            data-testid="toast"
            // touch-action pan-y: the browser keeps vertical scrolling but leaves horizontal drags to
            // us; pointer capture keeps the drag ours when the finger leaves the toast; select-none,
            // because a drag over selected text becomes a native drag that cancels the pointer.
            style={{ transform: `translateX(${offsetX}px)`, touchAction: "pan-y" }}
            onPointerDown={(event) => {
              if ((event.target as HTMLElement).closest("button")) return;
              swipeStartX.current = event.clientX;
              event.currentTarget.setPointerCapture(event.pointerId);
            }}
            onPointerMove={(event) => {
              if (swipeStartX.current !== null) setOffsetX(swipeOffset(swipeStartX.current, event.clientX));
            }}
            onPointerUp={(event) => {
              const startX = swipeStartX.current;
              swipeStartX.current = null;
              if (startX !== null && isSwipeDismiss(startX, event.clientX)) onDismiss();
              else setOffsetX(0);
            }}
            onPointerCancel={() => {
              swipeStartX.current = null;
              setOffsetX(0);
            }}
            className={`relative select-none rounded-lg border p-4 pr-8 shadow-lg transition-transform ${
              destructive ? "border-red-600 bg-red-600 text-white" : "border-gray-200 bg-white text-gray-900"
            }`}
          >
            <p className="text-sm font-semibold">{toast.title}</p>
            {toast.description ? <p className="mt-1 text-sm opacity-90">{toast.description}</p> : null}
            <button
              type="button"
              aria-label="Close"
              onClick={onDismiss}
              className="absolute right-2 top-2 rounded px-1 text-sm opacity-70 hover:opacity-100"
            >
              ×
            </button>
          </li>
        ) : null}
      </ol>
    </section>
  );
}
