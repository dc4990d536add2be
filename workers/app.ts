/**
 * The app Worker: Remix renders every page and every /api resource route.
 * Before Remix runs, the visitor's signed session cookie is resolved (or minted) so that every
 * loader and action finds `context.sessionId`. The hourly Cron Trigger cleans up the free preview.
 */
import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "@remix-run/dev/server-build";
import { cleanUpFreePreviews } from "~/server/cleanup.server";
import { sweepStuckImages } from "~/server/processing-sweep.server";
import { applyRetention, RETENTION_CRON } from "~/server/retention.server";
import { isLocalEnvironment, type Env } from "~/server/env.server";
import { API_MESSAGES } from "~/lib/constants";
import { isForeignStateChange } from "~/server/request-origin.server";
import { newCspNonce, withSecurityHeaders } from "~/server/security-headers.server";
import { MissingSessionSecretError, resolveVisitorSession } from "~/server/session.server";

const handleRemixRequest = createRequestHandler(build as any, process.env.NODE_ENV);

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
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
    const response = withSecurityHeaders(
      await handleRemixRequest(request, { cloudflare: { env, ctx }, sessionId: visitor.sessionId, cspNonce }),
      { nonce: cspNonce, local: isLocalEnvironment(env) },
    );
    if (visitor.setCookie) response.headers.append("Set-Cookie", visitor.setCookie);
    return response;
  },

  /**
   * Cron Trigger (wrangler.toml [triggers]): hourly, free-preview uploads older than 24 hours go
   * and images stuck in processing are swept; daily, retention.
   */
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    const now = new Date(controller.scheduledTime);
    if (controller.cron === RETENTION_CRON) {
      console.log(`retention (${controller.cron})`, JSON.stringify(await applyRetention(env, now)));
      return;
    }
    const report = await cleanUpFreePreviews(env, now);
    console.log(`free-preview cleanup (${controller.cron})`, JSON.stringify(report));
    // Images stuck in processing (the dead-letter consumer failed too): sent again or failed.
    console.log(`processing sweep (${controller.cron})`, JSON.stringify(await sweepStuckImages(env, now)));
  },
} satisfies ExportedHandler<Env>;
