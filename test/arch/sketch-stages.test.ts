import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, type ImportEdge } from "./import-graph";

const root = path.resolve(import.meta.dirname, "../..");
const SKETCH = "workers/sketch";

/** The pipeline's own files: everything else of the sketch Worker lies in a stage's folder (workers/sketch/README.md). */
const BESIDE_THE_STAGES = ["consumer.ts", "debug.ts", "encode.ts", "errors.ts", "index.ts", "pipeline.ts", "stored-regions.ts"];

/**
 * What each stage's folder may import of the sketch Worker (app/core and packages aside: the
 * boundary rules of module-boundaries.test.ts cover those): itself, the kernel's planes, and the
 * pipeline's errors; never another stage, and never the pipeline but for the print job below.
 */
const STAGE_IMPORTS: Record<string, string[]> = {
  decode: ["decode/", "kernel/", "errors.ts"],
  kernel: ["kernel/"],
  measure: ["measure/", "kernel/"],
  // The print job is a queue handler as the consumer is: it retries with the consumer's delays,
  // and draws a paid page that is missing again through the pipeline (decision 028).
  pdf: ["pdf/", "consumer.ts", "pipeline.ts", "errors.ts"],
};

function stageViolations(edges: ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const { from, to } of edges) {
    if (!from.startsWith(`${SKETCH}/`) || !to?.startsWith(`${SKETCH}/`)) continue;
    const stage = from.slice(SKETCH.length + 1).split("/")[0];
    const allowed = STAGE_IMPORTS[stage];
    if (!allowed) continue;
    const target = to.slice(SKETCH.length + 1);
    if (!allowed.some((prefix) => target === prefix || (prefix.endsWith("/") && target.startsWith(prefix)))) violations.push(`${from} -> ${to}`);
  }
  return violations;
}

describe("the sketch Worker's folders are its stages (workers/sketch/README.md)", () => {
  it("keeps beside the pipeline only the pipeline's own files, and a folder per stage that says what it takes and gives", () => {
    const entries = fs.readdirSync(path.join(root, SKETCH), { withFileTypes: true });
    expect(entries.filter((entry) => entry.isFile() && entry.name.endsWith(".ts")).map((entry) => entry.name).sort()).toEqual(BESIDE_THE_STAGES);
    // .wrangler: local state of `wrangler dev`, not source.
    const folders = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name).sort();
    expect(folders).toEqual(Object.keys(STAGE_IMPORTS).sort());
    for (const folder of folders) {
      const readme = path.join(root, SKETCH, folder, "README.md");
      const index = path.join(root, SKETCH, folder, "index.ts");
      const saysWhatItIs = fs.existsSync(readme) || (fs.existsSync(index) && fs.readFileSync(index, "utf8").startsWith("/**"));
      expect(saysWhatItIs, `${SKETCH}/${folder} has no README.md nor a header in its index.ts`).toBe(true);
    }
  });

  it("lets a stage import only itself, the kernel's planes and the pipeline's errors", () => {
    const { edges } = importGraph(root, [SKETCH]);
    expect(edges.length).toBeGreaterThan(50);
    expect(stageViolations(edges)).toEqual([]);
  });

  it("refuses a stage reaching into the pipeline or another stage, and lets the pipeline reach every stage", () => {
    const edge = (from: string, to: string): ImportEdge => ({ from: `${SKETCH}/${from}`, to: `${SKETCH}/${to}`, specifier: to, typeOnly: false });
    expect(
      stageViolations([
        edge("decode/index.ts", "pipeline.ts"),
        edge("kernel/index.ts", "errors.ts"),
        edge("measure/quality.ts", "decode/index.ts"),
        edge("measure/lines/index.ts", "encode.ts"),
      ]),
    ).toHaveLength(4);
    expect(
      stageViolations([
        edge("pipeline.ts", "measure/quality.ts"),
        edge("decode/jpeg/huffman.ts", "errors.ts"),
        edge("measure/lines/index.ts", "kernel/index.ts"),
        edge("pdf/print-jobs.ts", "consumer.ts"),
      ]),
    ).toEqual([]);
  });
});
