import { WorkerEntrypoint } from "cloudflare:workers";
import type { ConvertResult, SketchJob } from "./contract";

export interface SketchEnv {
  DB: D1Database;
  IMAGES: R2Bucket;
  APP_ENV?: string;
}

// Placeholder entry so the toolchain can be wired; the real consumer replaces it.
export class Sketcher extends WorkerEntrypoint<SketchEnv> {
  async convert(originalKey: string): Promise<ConvertResult> {
    throw new Error(`not implemented: ${originalKey}`);
  }
}

export default {
  async fetch() {
    return new Response("sketch worker", { status: 404 });
  },
  async queue(batch: MessageBatch<SketchJob>) {
    for (const message of batch.messages) message.ack();
  },
} satisfies ExportedHandler<SketchEnv, SketchJob>;
