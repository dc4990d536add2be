/**
 * What the app Worker and the sketch Worker say to each other: the queue message, the RPC, and
 * where each object lives in R2. Types and key helpers only, so the app can import it without
 * pulling the codecs into its bundle; it lives in app/core so neither Worker imports the other.
 */
import { DEFAULT_DETAIL_LEVEL, DETAIL_LEVELS, type DetailLevel } from "../engine-limits";

/** One queue message per image of a book. */
export interface SketchJob {
  imageId: number;
  /** The page's detail level; standard when left out (messages sent before levels existed). */
  detail?: DetailLevel;
}

export interface ConvertResult {
  sketchKey: string;
  qualityScore: number;
  width: number;
  height: number;
  /** Only when asked for with `debug`: the intermediate planes, stored as PNGs in R2. */
  debug?: DebugPlaneKeys;
}

export interface ConvertOptions {
  /** How much the page draws; standard when left out (the sketch key is then the original's). */
  detail?: DetailLevel;
  /** Also store the input grey plane (at kernel size) and the edge/line mask (debug view). */
  debug?: boolean;
}

export interface DebugPlaneKeys {
  imageKey: string;
  maskKey: string;
}

/**
 * A conversion's answer: the page, or why not in words a customer can read. A result, not a
 * thrown error, because an error crossing RPC keeps only its text: the app could not tell our
 * reasons from the platform's own (a killed isolate, a lost connection), which must never reach
 * a customer as they are.
 */
export type ConvertOutcome = { ok: true; result: ConvertResult } | { ok: false; reason: string };

/** The sketch Worker's RPC entrypoint (service binding SKETCHER, entrypoint "Sketcher"). */
export interface SketcherRpc {
  /** Converts an original already stored in R2 and stores the sketch; used by the free preview. */
  convert(originalKey: string, options?: ConvertOptions): Promise<ConvertOutcome>;
}

export const ORIGINALS_PREFIX = "originals/";
export const SKETCHES_PREFIX = "sketches/";
export const DEBUG_PREFIX = "debug/";
/** Each photo's region hierarchy, kept so that another detail level is a cut of it, not a new job. */
export const REGIONS_PREFIX = "regions/";

/**
 * The engine that draws pages. Part of every sketch key, so a better engine reaches every image
 * processed again (the consumer redraws a page whose key is not today's), and a page cached by a
 * browser under an old engine's URL is never taken for a new one. Bump it with each engine change.
 */
export const ENGINE_VERSION = "e15";

/**
 * The sketch of an original at a level, by this engine, always lives at the same key, so
 * converting the same image twice (a redelivered queue message) overwrites one object instead
 * of leaving orphans; each level is its own object, so changing a page's level never overwrites
 * another level's page. Pages of older engines are swept once no row names them (retention).
 */
export function sketchKeyFor(originalKey: string, detail: DetailLevel = DEFAULT_DETAIL_LEVEL): string {
  const name = originalKey.slice(originalKey.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return `${SKETCHES_PREFIX}${name}.${ENGINE_VERSION}-${detail}.png`;
}

/** The level in a sketch key (`...-simple.png`, sketchKeyFor); null for a key from before levels existed. */
export function sketchKeyLevel(sketchKey: string | null): DetailLevel | null {
  const level = sketchKey?.match(/-([a-z]+)\.png$/)?.[1];
  return DETAIL_LEVELS.find((known) => known === level) ?? null;
}

/** The level a stored sketch was drawn at: a key from before levels existed is a standard page. */
export function drawnLevel(sketchKey: string): DetailLevel {
  return sketchKeyLevel(sketchKey) ?? DEFAULT_DETAIL_LEVEL;
}

/** Where a debug conversion of an original keeps its intermediate planes (overwritten on a re-run). */
export function debugKeysFor(originalKey: string): DebugPlaneKeys {
  const name = originalKey.slice(originalKey.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return { imageKey: `${DEBUG_PREFIX}${name}-image.png`, maskKey: `${DEBUG_PREFIX}${name}-mask.png` };
}

/** Where the region hierarchy of an original is kept (one per original and engine; every level is cut from it). */
export function regionsKeyFor(originalKey: string): string {
  const name = originalKey.slice(originalKey.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return `${REGIONS_PREFIX}${name}.${ENGINE_VERSION}.bin`;
}

/** The first engine whose version is part of sketch and regions keys ("e2"). */
const FIRST_VERSIONED_ENGINE = 2;

/**
 * Every key a drawing or region hierarchy of this original can have been stored under, by any
 * engine at any level: pages from before engines were named in keys (`<name>.png` for standard,
 * `<name>-<level>.png`), and each named engine's page at every level and its hierarchy. Deleting
 * a photo deletes all of these (an absent key costs nothing), not only the page its row names now.
 */
export function everyDerivedKeyOf(originalKey: string): string[] {
  const name = originalKey.slice(originalKey.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  const keys = [`${SKETCHES_PREFIX}${name}.png`, ...DETAIL_LEVELS.map((level) => `${SKETCHES_PREFIX}${name}-${level}.png`)];
  for (let engine = FIRST_VERSIONED_ENGINE; engine <= Number(ENGINE_VERSION.slice(1)); engine++) {
    for (const level of DETAIL_LEVELS) keys.push(`${SKETCHES_PREFIX}${name}.e${engine}-${level}.png`);
    keys.push(`${REGIONS_PREFIX}${name}.e${engine}.bin`);
  }
  return keys;
}

/**
 * The original a regions object was made from, as the start of its key (`originals/<name>`, which
 * an original's key is, or is followed by its extension), and whether today's engine made it;
 * null for a key that is not a regions object.
 */
export function regionsOrigin(regionsKey: string): { originalStem: string; currentEngine: boolean } | null {
  const match = /^regions\/([^.]+)\.([^.]+)\.bin$/.exec(regionsKey);
  return match ? { originalStem: `${ORIGINALS_PREFIX}${match[1]}`, currentEngine: match[2] === ENGINE_VERSION } : null;
}
