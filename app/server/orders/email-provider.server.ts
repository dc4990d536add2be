/**
 * Sends an email through Resend's HTTP API (POST https://api.resend.com/emails), a plain fetch
 * that works in a Worker. Used when RESEND_API_KEY and EMAIL_FROM are set; without them there is
 * no provider and order emails stay in the local outbox (`order_emails`, status "outbox").
 *
 * A send answers one of three ways, and the caller decides what to store:
 * - sent (Resend's id kept);
 * - retryable: the network failed, it timed out, Resend answered 5xx or 429, or the same
 *   Idempotency-Key is still being processed (409 concurrent_idempotent_requests);
 * - permanent: any other 4xx (a bad address, a bad key, an unverified sender): trying again
 *   cannot help, so the desk is told at once.
 * The Idempotency-Key is the email's own (`order-<id>-<kind>`), so a retry after a lost answer
 * never sends the customer a second copy.
 */
import { ORDER_EMAIL_SEND_TIMEOUT_MS } from "~/lib/shop-rules";
import type { Env } from "~/server/http/env.server";

export const RESEND_EMAILS_URL = "https://api.resend.com/emails";

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  idempotencyKey: string;
}

export type SendOutcome =
  | { status: "sent"; providerMessageId: string }
  | { status: "retryable" | "permanent"; error: string };

export interface EmailProvider {
  send(email: OutgoingEmail): Promise<SendOutcome>;
}

/** Resend when it is configured, else null (local dev and tests: the outbox). */
export function emailProviderFor(env: Pick<Env, "RESEND_API_KEY" | "EMAIL_FROM">, fetchFn?: typeof fetch): EmailProvider | null {
  if (!env.RESEND_API_KEY) return null;
  if (!env.EMAIL_FROM) {
    console.error("RESEND_API_KEY is set but EMAIL_FROM is not: order emails stay in the outbox");
    return null;
  }
  return resendProvider(env.RESEND_API_KEY, env.EMAIL_FROM, fetchFn);
}

export function resendProvider(apiKey: string, from: string, fetchFn: typeof fetch = (input, init) => fetch(input, init)): EmailProvider {
  return {
    async send(email) {
      let response: Response;
      try {
        response = await fetchFn(RESEND_EMAILS_URL, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${apiKey}`,
            "Content-Type": "application/json",
            "Idempotency-Key": email.idempotencyKey,
          },
          body: JSON.stringify({ from, to: email.to, subject: email.subject, html: email.html, text: email.text }),
          signal: AbortSignal.timeout(ORDER_EMAIL_SEND_TIMEOUT_MS),
        });
      } catch (error) {
        return { status: "retryable", error: `network: ${error instanceof Error ? error.message : String(error)}` };
      }
      const body = await readJson(response);
      if (response.ok) {
        const id = typeof body?.id === "string" ? body.id : null;
        // Accepted, but without the id we cannot tell: retrying under the same key is safe.
        return id ? { status: "sent", providerMessageId: id } : { status: "retryable", error: `${response.status}: no id in the answer` };
      }
      const name = typeof body?.name === "string" ? body.name : "";
      const message = typeof body?.message === "string" ? body.message : response.statusText;
      const error = `${response.status}${name ? ` ${name}` : ""}: ${message}`.slice(0, 500);
      const retryable = response.status >= 500 || response.status === 429 || name === "concurrent_idempotent_requests";
      return { status: retryable ? "retryable" : "permanent", error };
    },
  };
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await response.json();
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
