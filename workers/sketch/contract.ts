/**
 * What the app Worker and the sketch Worker say to each other. Types only, so the app can
 * import it without pulling the codecs into its bundle.
 */

/** One queue message per image of a book. */
export interface SketchJob {
  imageId: number;
}

export interface ConvertResult {
  sketchKey: string;
  qualityScore: number;
  width: number;
  height: number;
}

/** The sketch Worker's RPC entrypoint (service binding SKETCHER, entrypoint "Sketcher"). */
export interface SketcherRpc {
  /** Converts an original already stored in R2 and stores the sketch; used by the free preview. */
  convert(originalKey: string): Promise<ConvertResult>;
}

export const ORIGINALS_PREFIX = "originals/";
export const SKETCHES_PREFIX = "sketches/";

/**
 * The sketch of an original always lives at the same key, so converting the same image twice
 * (a redelivered queue message) overwrites one object instead of leaving orphans.
 */
export function sketchKeyFor(originalKey: string): string {
  const name = originalKey.slice(originalKey.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  return `${SKETCHES_PREFIX}${name}.png`;
}
