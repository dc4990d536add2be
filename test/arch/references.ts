/**
 * Every reference in the repository's prose must resolve for someone holding only a clone: the
 * comments of the code and the docs may cite a path, a section of docs/product.md or
 * docs/design.md, or a decision record, and each must exist. Citations of papers kept outside the
 * repository (the customer's specification and design papers, issue numbers) are refused outright.
 * Read by references.test.ts; the rules are docs/architecture.md "Citing the why".
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A piece of prose in a file: a comment of a code file, or a whole document. */
export interface Prose {
  file: string;
  line: number;
  text: string;
}

export interface BrokenReference {
  file: string;
  line: number;
  problem: string;
}

/** Folders read, and folders never read (build output, local state, binary fixtures). */
const ROOTS = ["README.md", "app", "workers", "test", "bench", "scripts", "docs", "types", ".ci", "wrangler.toml", "package.json"];
const SKIPPED_DIRS = new Set(["node_modules", ".wrangler", ".cache", "build", "out", ".mf"]);
const CODE = /\.(ts|tsx|mjs|js|cjs)$/;
const HASH_COMMENTED = /\.(toml|py|sh)$|(^|\/)\.ci\/run$/;

/** Paths a doc may name that a fresh clone does not have yet: build output and local state. */
const GENERATED_PATHS = ["public/build", "bench/out", "build/", ".wrangler", ".cache", "node_modules", "test-results"];

/** Every file whose prose is checked, relative to `root`. */
export function proseFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    if (fs.statSync(absolute).isDirectory()) {
      for (const name of fs.readdirSync(absolute).sort()) {
        if (!SKIPPED_DIRS.has(name)) walk(path.posix.join(relative, name));
      }
    } else if (CODE.test(relative) || HASH_COMMENTED.test(relative) || relative.endsWith(".md")) {
      files.push(relative);
    }
  };
  for (const entry of ROOTS) walk(entry);
  // The top folder's own files: configs (vitest, drizzle, remix, postcss) and docs.
  for (const name of fs.readdirSync(root).sort()) {
    if (!ROOTS.includes(name) && fs.statSync(path.join(root, name)).isFile()) walk(name);
  }
  return files;
}

/** The comments of a TypeScript or JavaScript file, JSX comments included, each with its first line. */
export function codeComments(file: string, text: string): Prose[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : /\.(mjs|js|cjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const comments: Prose[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push({ file, line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  // Every token's leading trivia, punctuation included (a JSX comment sits before its closing brace).
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return comments.sort((a, b) => a.line - b.line);
}

/** `#` comments of TOML, Python and shell files. */
export function hashComments(file: string, text: string): Prose[] {
  return text.split("\n").flatMap((line, index) => {
    const at = line.indexOf("#");
    return at >= 0 ? [{ file, line: index + 1, text: line.slice(at) }] : [];
  });
}

/** The prose of one file: its comments, or all of it for a document. */
export function proseOf(file: string, text: string): Prose[] {
  if (file.endsWith(".md")) return [{ file, line: 1, text }];
  if (HASH_COMMENTED.test(file)) return hashComments(file, text);
  if (file.endsWith(".json")) return [];
  return codeComments(file, text);
}

/** Citations of what a clone does not hold: the customer's papers and the tracker's issues. */
const OLD_FORMS: Array<[RegExp, string]> = [
  // Written so that the forms do not match themselves in a plain grep of the repository.
  [/\bSPE[C]\b/, "cites the customer's specification paper, which a clone does not hold: cite docs/product.md §N"],
  [/\bDESIG[N]\.md\b/, "cites the customer's design paper, which a clone does not hold: cite docs/design.md §N"],
  [/\bissues? #?\d+\b/i, "cites an issue of the tracker: cite docs/product.md §N, docs/design.md §N or a decision"],
];

/** `docs/product.md §3`, `design.md §4 and §7`, `§2.1`: the document and each section named. */
const SECTION_CITATION = /\b(product|design)\.md((?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*-\s*|\s+)§\d+(?:\.\d+)?)+)/g;
/** A bare `§N` inside product.md or design.md cites that same document. */
const BARE_SECTION = /(?<![\w.])§(\d+(?:\.\d+)?)/g;
/** `decision 012`, `decisions 013 and 019`, `docs/decisions/018`, `Superseded by 017`. */
const DECISION_CITATION = /\b(?:decisions?|docs\/decisions\/|[Ss]uperseded(?: in part)? by|[Ss]upersedes|record)\s*((?:\d{3})(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*-\s*)\d{3})*)/gi;
/** A path from the repository's top: app/..., workers/..., docs/..., and so on. */
const PATH_CITATION = /(?<![\w./~@:-])((?:app|workers|test|bench|scripts|docs|migrations|public|types|\.ci)\/[\w.\-/$*<>{}[\]]*)/g;

/** The section numbers a document's headings define: `## §3 Title` or `### §3.2 Title`. */
export function sectionsOf(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+§(\d+(?:\.\d+)?)\b/gm)) sections.add(match[1]);
  return sections;
}

export interface Repository {
  exists(relativePath: string): boolean;
  decisionNumbers: Set<string>;
  sections: { product: Set<string>; design: Set<string> };
}

export function repositoryAt(root: string): Repository {
  const read = (relative: string) => (fs.existsSync(path.join(root, relative)) ? fs.readFileSync(path.join(root, relative), "utf8") : "");
  const decisions = fs.existsSync(path.join(root, "docs/decisions")) ? fs.readdirSync(path.join(root, "docs/decisions")) : [];
  return {
    exists: (relative) => fs.existsSync(path.join(root, relative)),
    decisionNumbers: new Set(decisions.filter((name) => /^\d{3}-.+\.md$/.test(name)).map((name) => name.slice(0, 3))),
    sections: { product: sectionsOf(read("docs/product.md")), design: sectionsOf(read("docs/design.md")) },
  };
}

/** The existing path a cited one names: placeholders (`<key>`, `*`, `{id}`) cut it back to its folder. */
function citedPathToCheck(cited: string): string | null {
  let checked = cited.replace(/[.,:;)'"`]+$/, "");
  const placeholder = checked.search(/[*<{[$]/);
  if (placeholder >= 0) checked = checked.slice(0, checked.lastIndexOf("/", placeholder) + 1);
  checked = checked.replace(/\/+$/, "");
  // `docs/decisions/018` names a record by its number: checked as a decision citation.
  if (/^docs\/decisions\/\d{3}$/.test(checked)) return null;
  if (!checked || GENERATED_PATHS.some((generated) => checked === generated.replace(/\/$/, "") || checked.startsWith(generated.replace(/\/?$/, "/")))) return null;
  return checked;
}

/** What is wrong with the references of one piece of prose. */
export function brokenReferences(prose: Prose, repository: Repository): BrokenReference[] {
  const broken: BrokenReference[] = [];
  const report = (problem: string, at: number) =>
    broken.push({ file: prose.file, line: prose.line + (text.slice(0, at).match(/\n/g)?.length ?? 0), problem });
  const { text } = prose;

  for (const [pattern, problem] of OLD_FORMS) {
    for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags + "g"))) report(`"${match[0]}" ${problem}`, match.index);
  }

  for (const match of text.matchAll(SECTION_CITATION)) {
    const document = match[1] as "product" | "design";
    for (const [, section] of match[2].matchAll(/§(\d+(?:\.\d+)?)/g)) {
      if (!repository.sections[document].has(section)) report(`docs/${document}.md has no §${section}`, match.index);
    }
  }
  const ownDocument = prose.file === "docs/product.md" ? "product" : prose.file === "docs/design.md" ? "design" : null;
  if (ownDocument) {
    // Blanked, not removed, so that the line numbers stay right.
    const bare = text.replace(SECTION_CITATION, (citation) => citation.replace(/[^\n]/g, " "));
    for (const match of bare.matchAll(BARE_SECTION)) {
      if (!repository.sections[ownDocument].has(match[1])) report(`docs/${ownDocument}.md has no §${match[1]}`, match.index);
    }
  }

  for (const match of text.matchAll(DECISION_CITATION)) {
    for (const [number] of match[1].matchAll(/\d{3}/g)) {
      if (!repository.decisionNumbers.has(number)) report(`no decision record ${number} in docs/decisions/`, match.index);
    }
  }

  for (const match of text.matchAll(PATH_CITATION)) {
    const checked = citedPathToCheck(match[1]);
    // A path gone on purpose, named by a decision that tells what replaced it: `old/path.ts` (removed).
    const removedOnPurpose = /^`?\s*\(removed\b/.test(text.slice(match.index + match[0].length));
    if (checked && !removedOnPurpose && !repository.exists(checked)) report(`${match[1]} does not exist`, match.index);
  }
  return broken;
}

/** Every broken reference in the repository at `root`. */
export function brokenReferencesIn(root: string): BrokenReference[] {
  const repository = repositoryAt(root);
  return proseFiles(root).flatMap((file) =>
    proseOf(file, fs.readFileSync(path.join(root, file), "utf8")).flatMap((prose) => brokenReferences(prose, repository)),
  );
}
