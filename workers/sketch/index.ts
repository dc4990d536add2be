/**
 * The sketch Worker: turns uploaded photos into coloring-book pages.
 * - queue `sketch-jobs`: one message per book image; `sketch-jobs-dlq`: the ones that gave up.
 * - queue `print-jobs`: one message per paid order, its print-ready PDF (pdf/print-jobs.ts);
 *   `print-jobs-dlq`: the ones that gave up.
 * - RPC `Sketcher.convert(originalKey)`: the synchronous free preview (service binding SKETCHER).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { DEAD_LETTER_QUEUE, handleDeadLetters, handleSketchJobs, SKETCH_QUEUE } from "./consumer";
import { CONVERSION_ERROR_DEFAULT } from "../../app/core/engine-messages";
import type { ConvertOptions, ConvertOutcome, SketcherRpc, SketchJob } from "../../app/core/contracts/sketch";
import { isPermanent } from "./errors";
import { convertOriginal } from "./pipeline";
import type { PrintJob } from "../../app/core/contracts/print";
import { handlePrintDeadLetters, handlePrintJobs, PRINT_DEAD_LETTER_QUEUE, PRINT_QUEUE, type PrintEnv } from "./pdf/print-jobs";

export type { SketchEnv } from "./consumer";
/** The sketch jobs' bindings plus the print job's one setting. */
type WorkerEnv = PrintEnv;

export class Sketcher extends WorkerEntrypoint<WorkerEnv> implements SketcherRpc {
  /**
   * Converts an original already in R2 and stores its sketch at sketchKeyFor(originalKey).
   * A photo that cannot be converted answers its customer-readable reason; anything else (a bug,
   * storage trouble) is logged here and answers the generic one. `debug` also stores the
   * intermediate planes for the debug view.
   */
  async convert(originalKey: string, options: ConvertOptions = {}): Promise<ConvertOutcome> {
    try {
      return { ok: true, result: await convertOriginal(this.env.IMAGES, originalKey, { debug: options.debug === true }) };
    } catch (error) {
      if (isPermanent(error)) return { ok: false, reason: error.message };
      console.error("free preview conversion failed", originalKey, error);
      return { ok: false, reason: CONVERSION_ERROR_DEFAULT };
    }
  }
}

export default {
  async fetch() {
    return new Response("Not Found", { status: 404 });
  },
  async queue(batch: MessageBatch<SketchJob | PrintJob>, env: WorkerEnv) {
    if (batch.queue === SKETCH_QUEUE) return handleSketchJobs(batch, env);
    if (batch.queue === DEAD_LETTER_QUEUE) return handleDeadLetters(batch, env);
    if (batch.queue === PRINT_QUEUE) return handlePrintJobs(batch, env);
    if (batch.queue === PRINT_DEAD_LETTER_QUEUE) return handlePrintDeadLetters(batch, env);
    console.error(`sketch worker got a batch from unknown queue ${batch.queue}; retrying it`);
    batch.retryAll();
  },
} satisfies ExportedHandler<WorkerEnv, SketchJob | PrintJob>;
