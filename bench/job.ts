/**
 * The sketch job as the Worker runs it, instrumented per stage for bench/run.mjs (bundled by
 * esbuild; `.wasm` imports become compiled modules read from node_modules).
 */
import { decodeImage } from "../workers/sketch/decode";
import { decodeToGray, levelScores } from "../workers/sketch/pipeline";
import { encodeGrayPng } from "../workers/sketch/encode";
import { areaResize, drawLevel, grayToHierarchy, grayToSketch, rgbaToGray, type ChromaPlanes, type GrayPlane } from "../workers/sketch/kernel";
import { timeKernelStages } from "./stage-times";
import { measureQuality, varianceOfLaplacian, type QualityReport } from "../workers/sketch/measure/quality";
import { facesOnPage } from "../workers/sketch/measure/faces";
import type { StoredRegions } from "../workers/sketch/stored-regions";
import { DEFAULT_DETAIL_LEVEL, type DetailLevel } from "../app/core/engine-limits";

export { areaResize, encodeGrayPng, rgbaToGray, grayToSketch, measureQuality, varianceOfLaplacian };
export { levelChange, levelFigures, nestingShare, packRegions, type LevelFigures } from "./level-figures";

export interface JobTiming {
  /** The photo as taken (upright). */
  sourceWidth: number;
  sourceHeight: number;
  /** The decoded grey plane the kernel starts from. */
  width: number;
  height: number;
  workWidth: number;
  workHeight: number;
  decode_ms: number;
  /** Decoded plane to finished page (the kernel's whole job): the four stages below. */
  kernel_ms: number;
  /** The kernel's stages (kernel/index.ts): tone curve, noise estimate, region hierarchy, the level drawn at print size. */
  tone_ms: number;
  noise_ms: number;
  regions_ms: number;
  draw_ms: number;
  /** The region stage's steps (grid, edge maps, faces, …: kernel/stage-clock.ts), for bench/stages.mjs. */
  region_steps_ms: Record<string, number>;
  score_ms: number;
  encode_ms: number;
  total_ms: number;
  /**
   * The same span as total_ms in CPU time of this process (process.cpuUsage: user + system, GC
   * threads included): what the job costs, whatever else the machine is running.
   */
  cpu_ms: number;
  /**
   * The "same job" as OpenCV's (decode, resize, recipe, PNG encode): total_ms and cpu_ms
   * without the quality score, which our Worker adds and OpenCV's job does not have.
   */
  same_job_ms: number;
  same_job_cpu_ms: number;
  score: number;
  pngBytes: number;
}

/**
 * The grey plane the job starts from. `pipeline`: what the Worker decodes (our JPEG decoder,
 * reduced by DCT scaling toward the analysis grid, orientation applied), with its chroma.
 * `full`: the photo's full-resolution grey plane (jSquash RGBA -> grey), the same input OpenCV's
 * reference gets, for the like-for-like kernel comparison (no chroma).
 */
export type PlaneSource = "pipeline" | "full";

async function decodeToPlane(bytes: Uint8Array, source: PlaneSource): Promise<GrayPlane & { sourceWidth: number; sourceHeight: number; chroma?: ChromaPlanes }> {
  if (source === "pipeline") {
    // The plane exactly as the Worker hands it to the kernel (pipeline.ts), a plain
    // { data, width, height }: the decoder's own object (spread with its format and source size)
    // has a shape that dies at every garbage collection, and with it the kernel's optimised code.
    const { gray, chroma, width, height } = await decodeToGray(bytes);
    return { data: gray.data, width: gray.width, height: gray.height, sourceWidth: width, sourceHeight: height, chroma };
  }
  const { rgba, width, height } = (await decodeImage(bytes)) as unknown as { rgba: Uint8Array; width: number; height: number };
  return { ...rgbaToGray(rgba, width, height), sourceWidth: width, sourceHeight: height };
}

export async function runJob(
  bytes: Uint8Array,
  sample: (label: string) => void = () => {},
  source: PlaneSource = "pipeline",
  detail: DetailLevel = DEFAULT_DETAIL_LEVEL,
): Promise<{ timing: JobTiming; page: GrayPlane; png: Uint8Array; report: QualityReport; regions: StoredRegions }> {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const c0 = cpu();
  const t0 = performance.now();
  const gray = await decodeToPlane(bytes, source);
  sample("decoded");
  const t1 = performance.now();
  const clock = timeKernelStages(t1);
  // As grayToSketch, with the photo's chroma as the Worker hands it over (pipeline.ts photoRegions).
  const { hierarchy, grey, faces } = grayToHierarchy({ data: gray.data, width: gray.width, height: gray.height }, gray.chroma);
  const page = drawLevel(hierarchy, detail);
  clock.lap("draw");
  clock.stop();
  const stages = clock.spent;
  sample("page");
  const t3 = performance.now();
  const cs0 = cpu();
  const photo = { sourceWidth: gray.sourceWidth, sourceHeight: gray.sourceHeight, laplacianVariance: varianceOfLaplacian(gray), grey };
  // What the Worker scores: every level, on half-size drawings (pipeline.ts photoRegions).
  const scores = levelScores(hierarchy, photo, gray.chroma, faces);
  const t4 = performance.now();
  const cs1 = cpu();
  const png = await encodeGrayPng(page);
  sample("encoded");
  const t5 = performance.now();
  const c5 = cpu();
  // The figures of this print-size page for the table, with the score the Worker keeps: after the
  // clocks stop (the Worker measures half-size drawings, timed above as score_ms; this full-size
  // reading took 150-200 ms and, inside the clock, was counted as our job against OpenCV's).
  const withFaces = faces.length ? { boxes: facesOnPage(faces, page.width / hierarchy.gridWidth), featurePage: page } : undefined;
  const report = { ...measureQuality({ ...photo, chroma: gray.chroma, sketch: page, faces: withFaces }), score: scores[detail] };
  return {
    page,
    png,
    report,
    regions: { hierarchy, photo, scores },
    timing: {
      sourceWidth: gray.sourceWidth,
      sourceHeight: gray.sourceHeight,
      width: gray.width,
      height: gray.height,
      workWidth: page.width,
      workHeight: page.height,
      decode_ms: t1 - t0,
      kernel_ms: t3 - t1,
      tone_ms: stages.tone,
      noise_ms: stages.noise,
      regions_ms: stages.regions,
      draw_ms: stages.draw,
      region_steps_ms: Object.fromEntries(Object.entries(stages).filter(([stage]) => stage.startsWith("regions/")).map(([stage, ms]) => [stage.slice("regions/".length), ms])),
      score_ms: t4 - t3,
      encode_ms: t5 - t4,
      total_ms: t5 - t0,
      cpu_ms: c5 - c0,
      same_job_ms: t5 - t0 - (t4 - t3),
      same_job_cpu_ms: c5 - c0 - (cs1 - cs0),
      score: report.score,
      pngBytes: png.length,
    },
  };
}
