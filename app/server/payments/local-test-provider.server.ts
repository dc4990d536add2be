/**
 * The local test checkout as a PaymentProvider (docs/design.md §5): a session is only an id
 * and the order row; its page and buttons are local-checkout.server.ts. On only where no real
 * money can be at stake (`localTestCheckoutEnabled`).
 */
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import type { PaymentProvider } from "./payment-provider.server";

export const LOCAL_SESSION_PREFIX = "cs_local_";
export const LOCAL_CHECKOUT_PATH = "/test-checkout/";

export const localTestProvider: PaymentProvider = {
  name: "local-test",
  async openCheckout({ successUrl, expiresAt }) {
    const sessionId = `${LOCAL_SESSION_PREFIX}${crypto.randomUUID().replace(/-/g, "")}`;
    const origin = new URL(successUrl).origin;
    return { sessionId, url: `${origin}${LOCAL_CHECKOUT_PATH}${sessionId}`, expiresAt };
  },
  // Nothing to close anywhere else: the order row is the local session's only state, and the
  // caller's guarded update decides whether it was still open.
  async expireCheckout() {
    return "expired";
  },
};

export function isLocalSessionId(sessionId: string): boolean {
  return /^cs_local_[0-9a-f]{32}$/.test(sessionId);
}

/** The explicit switch of the local test checkout, on only where no real money can be at stake. */
export function localTestCheckoutEnabled(env: Env): boolean {
  return env.LOCAL_TEST_CHECKOUT === "on" && isLocalEnvironment(env) && !env.STRIPE_SECRET_KEY;
}
