/**
 * Toasts as docs/product.md §5 says, on Radix UI's Toast primitive (which brings the F8 hotkey, the
 * swipe to dismiss, the pause while hovered or focused, and the screen-reader announcement): one
 * at a time, 5000 ms by default, destructive for errors, swiped right past 50 px to dismiss. A
 * dismissed toast stays in the list, closed, until TOAST_REMOVE_DELAY_MS has passed.
 */
import * as ToastPrimitive from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_SWIPE_THRESHOLD_PX } from "~/lib/shop-rules";
import { TOAST_REGION_LABEL } from "~/lib/customer-copy";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  durationMs?: number;
}
interface ActiveToast extends ToastInput {
  id: number;
  open: boolean;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ActiveToast[]>([]);
  const nextId = useRef(1);
  const removalTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const show = useCallback((toast: ToastInput) => {
    setToasts((current) => [{ ...toast, id: nextId.current++, open: true }, ...current].slice(0, TOAST_LIMIT));
  }, []);
  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.map((toast) => (toast.id === id ? { ...toast, open: false } : toast)));
    if (removalTimers.current.has(id)) return;
    removalTimers.current.set(
      id,
      setTimeout(() => {
        removalTimers.current.delete(id);
        setToasts((current) => current.filter((toast) => toast.id !== id));
      }, TOAST_REMOVE_DELAY_MS),
    );
  }, []);
  useEffect(() => {
    const timers = removalTimers.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  return (
    <ToastContext.Provider value={show}>
      <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
        {children}
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
        <ToastPrimitive.Viewport
          hotkey={[TOAST_HOTKEY]}
          label={TOAST_REGION_LABEL}
          // The hotkey focuses this list (Radix names only the region around it): named too, so a
          // screen reader says where F8 landed.
          aria-label={TOAST_REGION_LABEL}
          className="fixed bottom-4 left-4 right-4 z-50 flex flex-col gap-2 outline-none focus-visible:ring-2 focus-visible:ring-brand-600 sm:left-auto sm:w-full sm:max-w-sm"
        />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}

function Toast({ toast, onDismiss }: { toast: ActiveToast; onDismiss: (id: number) => void }) {
  const destructive = toast.variant === "destructive";
  return (
    <ToastPrimitive.Root
      open={toast.open}
      onOpenChange={(open) => {
        if (!open) onDismiss(toast.id);
      }}
      duration={toast.durationMs}
      // Errors interrupt a screen reader (assertive); other news waits its turn (polite).
      type={destructive ? "foreground" : "background"}
      data-testid="toast"
      // Radix sets the swipe's distance as CSS variables; these classes move the toast with them.
      className={`relative rounded-lg border p-4 pr-8 shadow-lg outline-none transition-transform focus-visible:ring-2 focus-visible:ring-brand-600 data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x) data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none ${
        destructive ? "border-red-600 bg-red-600 text-white" : "border-gray-200 bg-white text-gray-900"
      }`}
    >
      <ToastPrimitive.Title className="text-sm font-semibold">{toast.title}</ToastPrimitive.Title>
      {toast.description ? <ToastPrimitive.Description className="mt-1 text-sm opacity-90">{toast.description}</ToastPrimitive.Description> : null}
      <ToastPrimitive.Close aria-label="Close" className="absolute right-2 top-2 rounded px-1 text-sm opacity-70 hover:opacity-100">
        ×
      </ToastPrimitive.Close>
    </ToastPrimitive.Root>
  );
}
