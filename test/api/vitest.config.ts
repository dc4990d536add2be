import path from "node:path";
import { root, workerdProject } from "../workerd-project";

// The app Worker as built by `remix build` (npm test builds first), in workerd with local D1/R2/Queues.
export default workerdProject({
  name: "api",
  wranglerConfig: "wrangler.toml",
  // A test here is a handful of real requests through workerd, D1 and R2; on a loaded two-core CI
  // machine vitest's 5 s default cut one off mid-loop (a 61-request burst). Time is not asserted.
  testTimeout: 30_000,
  // The sketch Worker, bundled by `npm run build:sketch`, runs beside the app so the whole
  // pipeline (upload -> queue -> consumer -> D1/R2) is exercised in one workerd.
  workers: [
    {
      name: "coloring-book-sketch",
      modules: true,
      scriptPath: path.join(root, "build/sketch/index.js"),
      modulesRules: [
        { type: "CompiledWasm", include: ["**/*.wasm"] },
        // The print PDFs' embedded fonts (workers/sketch/pdf/fonts.ts).
        { type: "Data", include: ["**/*.ttf"] },
      ],
      compatibilityDate: "2026-04-01",
      compatibilityFlags: ["nodejs_compat"],
      // The print job looks again after 1 s, not a minute, while a book's sketches are drawn.
      bindings: { APP_ENV: "test", PRINT_SKETCH_WAIT_SECONDS: "1" },
      d1Databases: { DB: "00000000-0000-0000-0000-000000000000" },
      r2Buckets: { IMAGES: "coloring-book-images" },
      // Once a PDF is stored, the order goes to the app Worker's print-submissions consumer (decision 028).
      queueProducers: { PRINT_SUBMIT_QUEUE: "print-submissions" },
      queueConsumers: {
        // maxBatchSize 1 mirrors workers/sketch/wrangler.toml (decision 014: one photo per invocation).
        "sketch-jobs": { maxBatchSize: 1, maxBatchTimeout: 0.05, maxRetries: 3, deadLetterQueue: "sketch-jobs-dlq" },
        "print-jobs": { maxBatchTimeout: 0.05, maxRetries: 30, deadLetterQueue: "print-jobs-dlq" },
      },
    },
  ],
});
