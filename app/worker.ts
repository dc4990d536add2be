/**
 * The app Worker (docs/design.md §1): Remix renders every page and every /api resource route.
 * Before Remix runs, the visitor's signed session cookie is resolved (or minted) so that every
 * loader and action finds `context.sessionId`, and the request edge of docs/design.md §7 is
 * applied. The Cron Triggers run the scheduled work of docs/design.md §8.
 */
import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";
import { gateAdminRequest } from "~/server/admin/admin-access.server";
import { cleanUpFreePreviews } from "~/server/jobs/cleanup.server";
import { deliverDueEmails } from "~/server/orders/order-emails.server";
import { resendOnceAfterLocalStart, sweepStuckImages } from "~/server/jobs/processing-sweep.server";
import { applyRetention, RETENTION_CRON } from "~/server/jobs/retention.server";
import { isLocalEnvironment, type Env } from "~/server/http/env.server";
import { handlePrintSubmissions } from "~/server/printing/printing.server";
import { resendStalledPrints } from "~/server/jobs/print-resend.server";
import { API_MESSAGES } from "~/lib/customer-copy";
import { isForeignStateChange } from "~/server/http/request-origin.server";
import { newCspNonce, withSecurityHeaders } from "~/server/http/security-headers.server";
import { MissingSessionSecretError, mayCarrySessionCookie, resolveVisitorSession } from "~/server/http/session.server";

const handleRemixRequest = createRequestHandler(build as any, process.env.NODE_ENV);

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    // Under `wrangler dev` only: sketch jobs a reload dropped from the in-memory queue are sent again (decision 023).
    resendOnceAfterLocalStart(env, ctx);
    if (isForeignStateChange(request)) {
      return withSecurityHeaders(Response.json({ message: API_MESSAGES.foreignOrigin }, { status: 403 }), {
        nonce: "",
        local: isLocalEnvironment(env),
      });
    }
    let visitor;
    try {
      visitor = await resolveVisitorSession(request, env);
    } catch (error) {
      if (error instanceof MissingSessionSecretError) {
        console.error(error.message);
        return new Response("Service misconfigured", { status: 500 });
      }
      throw error;
    }
    const cspNonce = newCspNonce();
    // Strangers get the ordinary 404 page on every /admin URL (app/server/admin/admin-access.server.ts).
    const routed = await gateAdminRequest(request, env);
    const response = withSecurityHeaders(
      await handleRemixRequest(routed, { cloudflare: { env, ctx }, sessionId: visitor.sessionId, cspNonce }),
      { nonce: cspNonce, local: isLocalEnvironment(env) },
    );
    if (visitor.setCookie && mayCarrySessionCookie(response)) response.headers.append("Set-Cookie", visitor.setCookie);
    return response;
  },

  /** print-submissions and its dead-letter queue: paid orders to the print partner (decision 028). */
  async queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
    await handlePrintSubmissions(batch, env);
  },

  /**
   * Cron Trigger (wrangler.toml [triggers]): hourly, free-preview uploads older than 24 hours go,
   * order emails are retried and images stuck in processing are swept; daily, retention.
   */
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    const now = new Date(controller.scheduledTime);
    if (controller.cron === RETENTION_CRON) {
      await runJob("retention", () => applyRetention(env, now));
      return;
    }
    // Each job runs whatever the one before it did: a failing cleanup must not hold up emails.
    const results = await Promise.allSettled([
      runJob("free-preview cleanup", () => cleanUpFreePreviews(env, now)),
      // Order emails whose send failed are retried here, and missing ones recorded.
      runJob("order emails", () => deliverDueEmails(env, now)),
      // Images stuck in processing (the dead-letter consumer failed too): sent again or failed.
      runJob("processing sweep", () => sweepStuckImages(env, now)),
      // Paid orders still without a PDF, or whose PDF never reached the print partner (decision 028).
      runJob("print resend", () => resendStalledPrints(env, now)),
    ]);
    // Still reported as a failed invocation (Cron Trigger metrics), after every job had its go.
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
  },
} satisfies ExportedHandler<Env>;

/** Runs one scheduled job and logs what it did (or why it failed) under its name. */
async function runJob(name: string, job: () => Promise<unknown>): Promise<void> {
  try {
    console.log(name, JSON.stringify(await job()));
  } catch (error) {
    console.error(`${name} failed`, error);
    throw error;
  }
}
