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
