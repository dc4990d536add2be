/**
 * A stand-in for Stripe's API, handed to the `stripe` client as its fetch function (nothing
 * leaves the machine). It keeps the requests it got, answers like Stripe for the three calls we
 * make (create, expire, retrieve a Checkout Session), honours idempotency keys as Stripe does,
 * refuses an `expires_at` outside the 30 minutes to 24 hours Stripe allows, and can be told to fail.
 */
import Stripe from "stripe";
import { STRIPE_CHECKOUT_MAX_TTL_SECONDS, STRIPE_CHECKOUT_MIN_TTL_SECONDS } from "~/lib/shop-rules";
import { STRIPE_API_VERSION } from "~/server/payments/stripe.server";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  form: URLSearchParams;
}

interface FakeSession extends Record<string, unknown> {
  id: string;
  object: "checkout.session";
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  expires_at: number;
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, FakeSession>();
  private readonly byIdempotencyKey = new Map<string, FakeSession>();
  /** The next n calls answer this status with a Stripe error body. */
  failNext: { count: number; status: number } = { count: 0, status: 500 };
  /** Stripe's clock, in seconds: when it receives a call. */
  clock: () => number = () => Math.floor(Date.now() / 1000);

  get creates() {
    return this.requests.filter((request) => request.method === "POST" && request.path === "/v1/checkout/sessions");
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const form = new URLSearchParams(typeof init?.body === "string" ? init.body : "");
    this.requests.push({ method, path: url.pathname, headers, form });
    if (url.host !== "api.stripe.com") return json(404, { error: { type: "invalid_request_error", message: "wrong host" } });
    if (this.failNext.count > 0) {
      this.failNext.count -= 1;
      return json(this.failNext.status, { error: { type: "api_error", message: "Stripe is having a bad day" } });
    }

    if (method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const key = headers.get("Idempotency-Key");
      const replay = key ? this.byIdempotencyKey.get(key) : undefined;
      if (replay) return json(200, replay);
      const refusal = this.expiresAtRefusal(form);
      if (refusal) return json(400, { error: { type: "invalid_request_error", param: "expires_at", message: refusal } });
      const session = this.sessionFrom(form);
      this.sessions.set(session.id, session);
      if (key) this.byIdempotencyKey.set(key, session);
      return json(200, session);
    }
    const match = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
    const session = match ? this.sessions.get(match[1]) : undefined;
    if (!session) return json(404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
    const expire = Boolean(match?.[2]);
    // Stripe expires only an `open` session; a complete or already expired one is an error.
    if (method === "POST" && expire) {
      if (session.status !== "open") {
        return json(400, { error: { type: "invalid_request_error", message: `Only open sessions can be expired (${session.status}).` } });
      }
      session.status = "expired";
      return json(200, session);
    }
    if (method === "GET" && !expire) return json(200, session);
    return json(404, { error: { type: "invalid_request_error", message: "Unrecognized request URL" } });
  };

  /** What the customer does on Stripe's page: pay. */
  complete(sessionId: string): FakeSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.status = "complete";
    session.payment_status = "paid";
    return session;
  }

  /** Stripe's rule, measured from when Stripe creates the session (its clock, not ours). */
  private expiresAtRefusal(form: URLSearchParams): string | null {
    if (!form.has("expires_at")) return null;
    const left = Number(form.get("expires_at")) - this.clock();
    if (left < STRIPE_CHECKOUT_MIN_TTL_SECONDS) return "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.";
    if (left > STRIPE_CHECKOUT_MAX_TTL_SECONDS) return "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.";
    return null;
  }

  private sessionFrom(form: URLSearchParams): FakeSession {
    let amount = 0;
    for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
      amount += Number(form.get(`line_items[${i}][quantity]`)) * Number(form.get(`line_items[${i}][price_data][unit_amount]`));
    }
    const metadata: Record<string, string> = {};
    for (const [name, value] of form) {
      const field = name.match(/^metadata\[(.+)\]$/);
      if (field) metadata[field[1]] = value;
    }
    const id = `cs_test_${crypto.randomUUID().replace(/-/g, "")}`;
    return {
      id,
      object: "checkout.session",
      url: `https://checkout.stripe.com/c/pay/${id}`,
      status: "open",
      payment_status: "unpaid",
      amount_total: amount,
      currency: form.get("line_items[0][price_data][currency]") ?? "gbp",
      client_reference_id: form.get("client_reference_id"),
      metadata,
      expires_at: Number(form.get("expires_at")),
    };
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Request-Id": "req_fake" } });
}

export const WEBHOOK_SECRET = "whsec_test_only_secret";

/** A Stripe event as its webhook sends it, with a valid (or deliberately broken) signature. */
export async function signedEvent(
  type: string,
  session: Record<string, unknown>,
  options: { secret?: string; timestamp?: number; eventId?: string; apiVersion?: string } = {},
): Promise<{ payload: string; signature: string }> {
  const payload = JSON.stringify({
    id: options.eventId ?? `evt_${crypto.randomUUID().replace(/-/g, "")}`,
    object: "event",
    type,
    api_version: options.apiVersion ?? STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: session },
  });
  const stripe = new Stripe("sk_test_signing_only", { httpClient: Stripe.createFetchHttpClient() });
  const signature = await stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, signature };
}
