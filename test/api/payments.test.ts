import { describe, expect, it } from "vitest";
import type { Env } from "~/server/http/env.server";
import { localTestCheckoutEnabled, localTestProvider } from "~/server/payments/local-test-provider.server";
import { paymentProviderFor, PaymentsNotConfiguredError } from "~/server/payments/payments.server";

const env = (vars: Partial<Env>) => vars as Env;

describe("paymentProviderFor", () => {
  it("uses the local test checkout only when switched on explicitly, in development or tests", () => {
    expect(paymentProviderFor(env({ APP_ENV: "test", LOCAL_TEST_CHECKOUT: "on" }))).toBe(localTestProvider);
    expect(paymentProviderFor(env({ APP_ENV: "development", LOCAL_TEST_CHECKOUT: "on" }))).toBe(localTestProvider);
  });

  it("never turns the free test payment on because of APP_ENV alone", () => {
    for (const APP_ENV of ["test", "development", "production", undefined]) {
      expect(localTestCheckoutEnabled(env({ APP_ENV }))).toBe(false);
      expect(() => paymentProviderFor(env({ APP_ENV }))).toThrow(PaymentsNotConfiguredError);
      expect(localTestCheckoutEnabled(env({ APP_ENV, LOCAL_TEST_CHECKOUT: "yes" }))).toBe(false);
    }
  });

  it("refuses the test payment in production even when it is switched on", () => {
    expect(localTestCheckoutEnabled(env({ APP_ENV: "production", LOCAL_TEST_CHECKOUT: "on" }))).toBe(false);
    expect(localTestCheckoutEnabled(env({ LOCAL_TEST_CHECKOUT: "on" }))).toBe(false);
    expect(() => paymentProviderFor(env({ APP_ENV: "production", LOCAL_TEST_CHECKOUT: "on" }))).toThrow(
      PaymentsNotConfiguredError,
    );
  });

  it("takes Stripe whenever a key is set, and then never the test payment", () => {
    const withKey = env({ APP_ENV: "development", LOCAL_TEST_CHECKOUT: "on", STRIPE_SECRET_KEY: "sk_test_123" });
    expect(paymentProviderFor(withKey).name).toBe("stripe");
    expect(localTestCheckoutEnabled(withKey)).toBe(false);
    expect(paymentProviderFor(env({ APP_ENV: "production", STRIPE_SECRET_KEY: "sk_live_123" })).name).toBe("stripe");
  });
});
