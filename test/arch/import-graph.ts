/**
 * The import graph of app/ and workers/, read with the TypeScript compiler's parser (no bundler,
 * no new dependency), and the rules of docs/architecture.md checked against it: no import loops,
 * neither Worker reaches into the other, app/core imports nothing outside itself, and inside the
 * app imports run one way (docs/decisions/021).
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface ImportEdge {
  from: string;
  /** The file it resolves to (repo-relative), or null for a package (`specifier` then says which). */
  to: string | null;
  specifier: string;
  typeOnly: boolean;
}

const SOURCE_EXTENSIONS = [".ts", ".tsx"];

/** Every .ts/.tsx file under the given folders, repo-relative with forward slashes. */
export function sourceFiles(root: string, folders: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith(".d.ts")) files.push(rel);
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

/** The specifiers a file imports or re-exports (static, dynamic and `import("...")` types). */
export function importsOf(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const allTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: allTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The file a specifier names: relative, or `~/` for app/ (tsconfig paths). Undefined when it
 * names a file that does not exist; null for a package or a platform module.
 */
export function resolveImport(root: string, fromFile: string, specifier: string): string | null | undefined {
  const bare = specifier.replace(/[?#].*$/, "");
  let base: string;
  if (bare.startsWith("~/")) base = `app/${bare.slice(2)}`;
  else if (bare.startsWith("./") || bare.startsWith("../")) base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), bare));
  else return null;
  // A package's own file named by path (the codecs' .wasm): a package import like any other.
  if (base.startsWith("node_modules/")) return null;
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => base + ext), ...SOURCE_EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((candidate) => fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile());
}

export function importGraph(root: string, folders: string[]): { edges: ImportEdge[]; unresolved: ImportEdge[] } {
  const edges: ImportEdge[] = [];
  const unresolved: ImportEdge[] = [];
  for (const file of sourceFiles(root, folders)) {
    for (const { specifier, typeOnly } of importsOf(file, fs.readFileSync(path.join(root, file), "utf8"))) {
      const to = resolveImport(root, file, specifier);
      if (to === undefined) unresolved.push({ from: file, to: null, specifier, typeOnly });
      else edges.push({ from: file, to, specifier, typeOnly });
    }
  }
  return { edges, unresolved };
}

/** Every import loop, as the files of each strongly connected component (Tarjan), type imports included. */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (to === null) continue;
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (next.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return cycles;
}

/** Packages the neutral ground may use: the database's own library, nothing of either Worker's. */
export const CORE_PACKAGES = [/^drizzle-orm(\/|$)/];

export type Room = "core" | "app" | "sketch" | "other";

/**
 * Inside the app, imports run one way (docs/design.md §2): routes -> server -> lib -> core;
 * components and emails -> lib -> core. The top of app/ (root.tsx, entry.*.tsx, worker.ts) may
 * import any room. What each folder of app/ may import, itself included:
 */
export const APP_LAYERS: Record<string, string[]> = {
  core: ["core"],
  lib: ["lib", "core"],
  components: ["components", "lib", "core"],
  emails: ["emails", "lib", "core"],
  server: ["server", "emails", "lib", "core"],
  routes: ["routes", "server", "components", "emails", "lib", "core"],
};

/** The folder of app/ a file is in (`core`, `lib`, `server`, ...), or null at app/'s top or outside app/. */
export function appLayerOf(file: string): string | null {
  const match = /^app\/([^/]+)\//.exec(file);
  return match ? match[1] : null;
}

/** Imports inside app/ that run against APP_LAYERS (a lib module importing the server, ...). */
export function layerViolations(edges: ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    if (edge.to === null) continue;
    const from = appLayerOf(edge.from);
    const to = appLayerOf(edge.to);
    if (from === null || to === null || !edge.to.startsWith("app/")) continue;
    const allowed = APP_LAYERS[from];
    if (!allowed) violations.push(`${edge.from}: app/${from}/ is not a room of docs/architecture.md (add it to APP_LAYERS)`);
    else if (!allowed.includes(to)) violations.push(`${edge.from} imports "${edge.specifier}" (${edge.to}): app/${from}/ may import only ${allowed.map((room) => `app/${room}/`).join(", ")}`);
  }
  return [...new Set(violations)];
}

export function roomOf(file: string): Room {
  if (file.startsWith("app/core/")) return "core";
  if (file.startsWith("app/")) return "app";
  if (file.startsWith("workers/sketch/")) return "sketch";
  return "other";
}

/**
 * The imports that break docs/architecture.md's rooms: app (outside core) <-> sketch Worker in
 * either direction, and core importing any file outside core or a package not in CORE_PACKAGES.
 */
export function boundaryViolations(edges: ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    const from = roomOf(edge.from);
    const what = `${edge.from} imports "${edge.specifier}"`;
    if (edge.to === null) {
      if (from === "core" && !CORE_PACKAGES.some((pattern) => pattern.test(edge.specifier))) violations.push(`${what}: app/core may use only ${CORE_PACKAGES.join(", ")}`);
      continue;
    }
    const to = roomOf(edge.to);
    if (from === "core" && to !== "core") violations.push(`${what} (${edge.to}): app/core imports nothing outside itself`);
    else if (from === "app" && to === "sketch") violations.push(`${what} (${edge.to}): the app reaches into the sketch Worker; share it through app/core`);
    else if (from === "sketch" && to === "app") violations.push(`${what} (${edge.to}): the sketch Worker reaches into the app; share it through app/core`);
    else if (from !== "other" && to === "other") violations.push(`${what} (${edge.to}): app/ and workers/ import nothing from the repo's other folders`);
  }
  return violations;
}
