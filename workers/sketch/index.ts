/**
 * The sketch Worker: turns uploaded photos into coloring-book pages.
 * - queue `sketch-jobs`: one message per book image; `sketch-jobs-dlq`: the ones that gave up.
 * - RPC `Sketcher.convert(originalKey)`: the synchronous free preview (service binding SKETCHER).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { DEAD_LETTER_QUEUE, handleDeadLetters, handleSketchJobs, SKETCH_QUEUE, type SketchEnv } from "./consumer";
import type { ConvertResult, SketcherRpc, SketchJob } from "./contract";
import { convertOriginal } from "./pipeline";

export type { SketchEnv } from "./consumer";

export class Sketcher extends WorkerEntrypoint<SketchEnv> implements SketcherRpc {
  /**
   * Converts an original already in R2 and stores its sketch at sketchKeyFor(originalKey).
   * Throws with a customer-readable message when the photo cannot be converted.
   */
  async convert(originalKey: string): Promise<ConvertResult> {
    return convertOriginal(this.env.IMAGES, originalKey);
  }
}

export default {
  async fetch() {
    return new Response("Not Found", { status: 404 });
  },
  async queue(batch: MessageBatch<SketchJob>, env: SketchEnv) {
    if (batch.queue === SKETCH_QUEUE) return handleSketchJobs(batch, env);
    if (batch.queue === DEAD_LETTER_QUEUE) return handleDeadLetters(batch, env);
    console.error(`sketch worker got a batch from unknown queue ${batch.queue}; retrying it`);
    batch.retryAll();
  },
} satisfies ExportedHandler<SketchEnv, SketchJob>;
