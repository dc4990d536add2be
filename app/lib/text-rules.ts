/**
 * What customer text may contain (titles, dedications, names, file names): no control
 * characters (line breaks only where a field allows them), and bidirectional embeddings,
 * overrides and isolates only in matched pairs. An unmatched U+202E turns "gpj.exe" into
 * "exe.jpg" on screen and leaks its reversal into everything printed after it.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001F\u007F-\u009F]/;
const OPENERS = new Set(["\u202A", "\u202B", "\u202D", "\u202E"]);
const ISOLATES = new Set(["\u2066", "\u2067", "\u2068"]);

export function hasControlCharacters(text: string, { allowLineBreaks = false } = {}): boolean {
  return (allowLineBreaks ? CONTROL : CONTROL_OR_NEWLINE).test(text);
}

/** Every embedding/override closed by U+202C and every isolate by U+2069, properly nested. */
export function hasUnpairedBidiControls(text: string): boolean {
  const open: ("embedding" | "isolate")[] = [];
  for (const char of text) {
    if (OPENERS.has(char)) open.push("embedding");
    else if (ISOLATES.has(char)) open.push("isolate");
    else if (char === "\u202C" && open.pop() !== "embedding") return true;
    else if (char === "\u2069" && open.pop() !== "isolate") return true;
  }
  return open.length > 0;
}

export function isSafeText(text: string, options?: { allowLineBreaks?: boolean }): boolean {
  return !hasControlCharacters(text, options) && !hasUnpairedBidiControls(text);
}
