import { describe, expect, it } from "vitest";
import type { Env } from "~/server/env.server";
import { localTestProvider, paymentProviderFor, PaymentsNotConfiguredError } from "~/server/payments.server";

const env = (vars: Partial<Env>) => vars as Env;

describe("paymentProviderFor", () => {
  it("uses the local test provider only in development and tests", () => {
    expect(paymentProviderFor(env({ APP_ENV: "test" }))).toBe(localTestProvider);
    expect(paymentProviderFor(env({ APP_ENV: "development" }))).toBe(localTestProvider);
  });

  it("never lets production mark orders paid without a real provider", () => {
    expect(() => paymentProviderFor(env({ APP_ENV: "production" }))).toThrow(PaymentsNotConfiguredError);
    expect(() => paymentProviderFor(env({}))).toThrow(PaymentsNotConfiguredError);
  });
});
