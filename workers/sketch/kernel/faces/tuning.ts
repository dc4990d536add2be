/**
 * How faces are looked for and what a face changes on the page (docs/decisions/034-faces.md).
 * Sizes are shares of the photo's long edge or of the face's box.
 */
export const FACE_TUNING = {
  /**
   * Faces are looked for on the analysis grid reduced to this long edge (px): the cascade's
   * cost grows with the pixels, and a face the page can draw features in is large anyway.
   */
  searchLongEdge: 640,
  /** The smallest face looked for: this share of the long edge (a head in a group of 20-30 people). */
  smallestFaceShare: 0.035,
  /** Each pyramid level is this much smaller than the last (OpenCV's detectMultiScale scaleFactor). */
  scaleStep: 1.1,
  /** Windows are tried every this many pixels of each pyramid level... */
  windowStep: 2,
  /**
   * ...and every pixel of the levels past this scale (faces over 4 × 20 px of the search plane,
   * an eighth of its long edge: the close-ups of a child or a parent). There a face is only a
   * few windows wide, and a step of 2 left a smiling face in a fur hood with too few agreeing
   * windows to count. OpenCV's detectMultiScale steps 1 px from scale 2; from 4 the search costs
   * 10 % more, from 2 half as much again and finds faces on a spacesuit (decision 034).
   */
  everyWindowAboveScale: 4,
  /**
   * A face is a cluster of more than this many windows that agree (OpenCV's minNeighbors): one
   * window alone is often a pattern of bark or cloth.
   */
  fewestAgreeingWindows: 3,
  /**
   * A window whose grey varies less than this (standard deviation, grey levels of the toned
   * grid) is skipped: eyes, brows and a mouth on skin vary far more, and on a photo's flat
   * ground (sky, walls, a table) most windows are this flat.
   */
  flattestFaceSpread: 10,
  /** Windows agree when their sides are within this share of their size (OpenCV's groupRectangles eps). */
  agreement: 0.2,

  /**
   * A face's oval on the page, from the cascade's square box (which runs from the brows to below
   * the mouth, cheek to cheek): its centre this share of the box below the box's top, its half
   * width and half height these shares of the box's side. It reaches the forehead and the chin.
   */
  ovalCentreDown: 0.55,
  ovalHalfWidth: 0.5,
  ovalHalfHeight: 0.65,
  /** Inside this share of the oval's radius a pixel is wholly the face's; beyond it, less and less to the oval's edge (the face's outline stays as it is). */
  ovalCore: 0.75,
  /**
   * A border between two regions that both lie inside a face loses up to this many log-odds of
   * the border model (regions/region-features.ts HistogramJudge): a cheek's or a nose's shading,
   * a lock of fringe on the forehead, are no shapes to colour; the features are drawn by the
   * strokes instead. The face's outline against hair, a collar or the background keeps its odds.
   */
  insideOdds: 2,
  /**
   * Inside a face, texture suppresses dark lines this much (STROKE_TUNING.surroundSuppression
   * elsewhere: eyelids, brows and lashes lie close together and would cancel each other out)...
   */
  strokeSurroundSuppression: 0.6,
  /** ...and a stroke counts this many times its depth: a face's features are drawn at every level. */
  strokeWeight: 2.3,
} as const;
