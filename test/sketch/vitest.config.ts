import { workerdProject } from "../workerd-project";

// The sketch Worker (workers/sketch/index.ts) in workerd with local D1, R2 and its two queues:
// kernel and quality unit tests, decode/encode with the real wasm codecs, and the consumer.
export default workerdProject({
  name: "sketch",
  wranglerConfig: "workers/sketch/wrangler.toml",
  // Kernel tests run the float reference over whole images; give them room on one core.
  testTimeout: 60_000,
});
