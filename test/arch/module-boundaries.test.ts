import path from "node:path";
import { describe, expect, it } from "vitest";
import { boundaryViolations, importCycles, importGraph, importsOf, layerViolations, type ImportEdge } from "./import-graph";

const root = path.resolve(import.meta.dirname, "../..");
const edge = (from: string, to: string | null, specifier = to ?? "pkg"): ImportEdge => ({ from, to, specifier, typeOnly: false });

describe("the import graph of app/ and workers/ (docs/architecture.md, decision 021)", () => {
  const { edges, unresolved } = importGraph(root, ["app", "workers"]);

  it("reads the real graph: every relative or ~/ import names a file that exists", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(unresolved.map(({ from, specifier }) => `${from} -> ${specifier}`)).toEqual([]);
  });

  it("has no import loop", () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it("keeps the rooms apart: app <-> sketch Worker only through app/core, and app/core imports nothing outside itself", () => {
    expect(boundaryViolations(edges)).toEqual([]);
  });

  it("runs one way inside the app: routes -> server -> lib -> core, components and emails -> lib -> core", () => {
    expect(layerViolations(edges)).toEqual([]);
  });
});

describe("the checks themselves", () => {
  it("find a loop, including one through a type-only import", () => {
    const loop = [edge("app/server/a.server.ts", "app/server/b.server.ts"), { ...edge("app/server/b.server.ts", "app/server/a.server.ts"), typeOnly: true }];
    expect(importCycles([...loop, edge("app/server/c.server.ts", "app/server/a.server.ts")])).toEqual([["app/server/a.server.ts", "app/server/b.server.ts"]]);
  });

  it("refuse every crossing between the app and the sketch Worker, and core leaning on either", () => {
    expect(
      boundaryViolations([
        edge("app/server/images.server.ts", "workers/sketch/image-header.ts"),
        edge("workers/sketch/consumer.ts", "app/server/db.server.ts"),
        edge("workers/sketch/decode/index.ts", "app/lib/shop-rules.ts"),
        edge("app/core/db/schema.server.ts", "app/lib/api-types.ts"),
        edge("app/core/contracts/sketch.ts", "workers/sketch/kernel/index.ts"),
        edge("app/core/images/image-header.ts", null, "@jsquash/png"),
      ]),
    ).toHaveLength(6);
  });

  it("allow what the rooms may import", () => {
    expect(
      boundaryViolations([
        edge("app/server/books/books.server.ts", "app/core/db/schema.server.ts"),
        edge("workers/sketch/consumer.ts", "app/core/db/database.server.ts"),
        edge("app/core/db/database.server.ts", null, "drizzle-orm/d1"),
        edge("app/routes/_index.tsx", "app/lib/customer-copy.ts"),
        edge("workers/sketch/decode/index.ts", null, "@jsquash/png/decode"),
      ]),
    ).toEqual([]);
  });

  it("refuse an import against the app's layers, and a folder of app/ no rule names", () => {
    expect(
      layerViolations([
        edge("app/lib/pricing.ts", "app/server/orders/quotes.server.ts"),
        edge("app/components/toast.tsx", "app/routes/_index.tsx"),
        edge("app/server/books/books.server.ts", "app/components/image-card.tsx"),
        edge("app/utils/x.ts", "app/lib/format.ts"),
      ]),
    ).toHaveLength(4);
    expect(
      layerViolations([
        edge("app/routes/_index.tsx", "app/server/books/stats.server.ts"),
        edge("app/server/orders/order-emails.server.ts", "app/emails/order-confirmation.tsx"),
        edge("app/worker.ts", "app/server/http/session.server.ts"),
      ]),
    ).toEqual([]);
  });

  it("see static, type-only, re-exported and dynamic imports", () => {
    const text = [
      'import { a } from "./a";',
      'import type { B } from "./b";',
      'import { type C } from "./c";',
      'export { d } from "./d";',
      'const e = () => import("./e");',
      'let f: import("./f").F;',
    ].join("\n");
    expect(importsOf("x.ts", text)).toEqual([
      { specifier: "./a", typeOnly: false },
      { specifier: "./b", typeOnly: true },
      { specifier: "./c", typeOnly: true },
      { specifier: "./d", typeOnly: false },
      { specifier: "./e", typeOnly: false },
      { specifier: "./f", typeOnly: true },
    ]);
  });
});
