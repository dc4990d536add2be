import { createContext, useContext } from "react";

/**
 * The response's CSP nonce, given to Remix's inline scripts while rendering on the server. In
 * the browser it is empty: scripts added after hydration are modules from our own origin.
 */
export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
