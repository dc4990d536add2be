import { useNavigate } from "@remix-run/react";
import { useCallback } from "react";

/**
 * "Back" that never leaves the shop: one step back in history when the visitor came from one of
 * our pages, else the home page (a link opened in a new tab, or typed in, has nothing to go back to).
 * React Router numbers its history entries in `history.state.idx`; 0 is the first page of the visit.
 */
export function useGoBack(fallback = "/") {
  const navigate = useNavigate();
  return useCallback(() => {
    const state: unknown = window.history.state;
    const index = typeof state === "object" && state !== null && "idx" in state ? Number(state.idx) : 0;
    if (index > 0) navigate(-1);
    else navigate(fallback);
  }, [navigate, fallback]);
}
