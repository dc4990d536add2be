import path from "node:path";
import { describe, expect, it } from "vitest";
import { brokenReferences, brokenReferencesIn, codeComments, proseFiles, sectionsOf, type Repository } from "./references";

const root = path.resolve(import.meta.dirname, "../..");

describe("every reference in the repository's comments and docs resolves (docs/architecture.md, Citing the why)", () => {
  it("reads the real prose: the docs, the code's comments, the configs' comments", () => {
    const files = proseFiles(root);
    expect(files.length).toBeGreaterThan(300);
    for (const file of ["README.md", "docs/product.md", "docs/design.md", "app/worker.ts", "workers/sketch/index.ts", "wrangler.toml", "scripts/dev.mjs", "vitest.config.ts"]) {
      expect(files).toContain(file);
    }
    expect(files.some((file) => file.startsWith("node_modules/") || file.includes("/node_modules/"))).toBe(false);
  }, 60_000);

  it("finds no cited path, section or decision that does not exist, and no citation of what a clone does not hold", () => {
    const broken = brokenReferencesIn(root).map(({ file, line, problem }) => `${file}:${line}: ${problem}`);
    expect(broken).toEqual([]);
  }, 120_000);
});

describe("the checks themselves", () => {
  const repository: Repository = {
    exists: (relative) => ["docs/product.md", "docs/design.md", "app/lib/shop-rules.ts", "app/server", "docs/decisions", "workers/sketch/kernel"].includes(relative),
    decisionNumbers: new Set(["012", "016", "018"]),
    sections: { product: new Set(["3", "5", "5.4"]), design: new Set(["1", "7"]) },
  };
  const problems = (text: string, file = "app/lib/example.ts") => brokenReferences({ file, line: 1, text }, repository).map(({ problem }) => problem);

  // The old forms are spelled apart here, so that a grep of the repository for them finds none.
  const [spec, design, issue] = ["SP" + "EC", "DESIG" + "N.md", "iss" + "ue"];

  it("refuse the old citation forms", () => {
    expect(problems(`// ${spec} section 7: the call`)).toHaveLength(1);
    expect(problems(`/** as ${spec}.md says */`)).toHaveLength(1);
    expect(problems(`/** (${design} section 6) */`)).toHaveLength(1);
    expect(problems(`// (${issue} 23 item 8)`)).toHaveLength(1);
    expect(problems(`// I${issue.slice(1)} 24's last texts`)).toHaveLength(1);
  });

  it("let identifiers and words that only contain the old forms pass", () => {
    expect(problems(`// BOOK_SPECS.size and SPECK_PRINT_PIXELS, SPECKS_GOOD; the spec-texts test; t${issue} 3`)).toEqual([]);
  });

  it("refuse a section a document does not have, and accept the ones it has", () => {
    expect(problems("// docs/product.md §3 and §5.4; docs/design.md §7")).toEqual([]);
    expect(problems("// docs/product.md §4")).toEqual(["docs/product.md has no §4"]);
    expect(problems("// docs/design.md §1, §2")).toEqual(["docs/design.md has no §2"]);
    expect(problems("see §9 below", "docs/product.md")).toEqual(["docs/product.md has no §9"]);
    expect(problems("see §5.4 and docs/design.md §7", "docs/product.md")).toEqual([]);
  });

  it("refuse a decision whose record does not exist", () => {
    expect(problems("// decision 012, docs/decisions/018")).toEqual([]);
    expect(problems("// decisions 012 and 024")).toEqual(["no decision record 024 in docs/decisions/"]);
    expect(problems("Superseded by 031 (its replacement)", "docs/decisions/003-x.md")).toEqual(["no decision record 031 in docs/decisions/"]);
    expect(problems("Superseded in part by 018", "docs/decisions/013-x.md")).toEqual([]);
  });

  it("refuse a path that does not exist, cutting placeholders back to their folder", () => {
    expect(problems("// app/lib/shop-rules.ts, app/server/<concern>/*.server.ts, `workers/sketch/kernel/`.")).toEqual([]);
    expect(problems("// the constants (app/lib/constants.ts)")).toEqual(["app/lib/constants.ts does not exist"]);
    expect(problems("// docs/decisions/016-regions.md")).toEqual(["docs/decisions/016-regions.md does not exist"]);
  });

  it("accept build output, URLs and a path marked as removed on purpose", () => {
    expect(problems("// public/build, bench/out/crops, https://example.com/app/x.ts, ~/lib/format")).toEqual([]);
    expect(problems("`app/lib/constants.ts` (removed) was split in three", "docs/decisions/021-x.md")).toEqual([]);
  });

  it("read comments only: line, block and JSX comments, never strings", () => {
    const source = [
      'const url = "app/not/a/citation.ts"; // a line comment',
      "/** a block",
      " * comment */",
      "export const Page = () => <div>{/* a JSX comment */}</div>;",
    ].join("\n");
    const comments = codeComments("app/routes/example.tsx", source);
    expect(comments.map(({ line, text }) => [line, text])).toEqual([
      [1, "// a line comment"],
      [2, "/** a block\n * comment */"],
      [4, "/* a JSX comment */"],
    ]);
  });

  it("number a document's sections from its headings", () => {
    expect([...sectionsOf("# Title\n## §1 One\ntext §9\n### §1.2 Sub\n## Two")]).toEqual(["1", "1.2"]);
  });
});
