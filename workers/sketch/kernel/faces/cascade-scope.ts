/**
 * The global `jsfeat.haar` that jsfeat's cascade script writes to (./cascade.ts reads it). Its own
 * module so that it runs before that script: imports run in order. Exported and read, so that no
 * bundler drops it as a module without effects (package.json says "sideEffects": false).
 */
interface JsfeatScope {
  haar: Record<string, unknown>;
}

const global = globalThis as { jsfeat?: JsfeatScope };
export const JSFEAT_SCOPE: JsfeatScope = (global.jsfeat ??= { haar: {} });
