/**
 * The per-pixel boundary model's settings (decision 031, "The boundary model on the pages").
 */
export const BOUNDARY_TUNING = {
  /** The long edge (px) the model reads a photo at: BSDS500's, whose photos it was fitted on. */
  modelLongEdge: 481,
  /**
   * A border's blur is read from its step in the edge maps' magnitude (grey and colour together)
   * and in that magnitude blurred by this much more (a Gaussian, analysis-grid px): a sharp step
   * loses height under the wider blur, one already blurred hardly does.
   */
  blurProbePx: 2.5,
  /**
   * A border blurred by up to `sharpPx` (analysis-grid px, a Gaussian's sigma: the grid is the
   * photo brought to 1100 px, so these are shares of the photo's size) keeps all of the model's
   * evidence; from `blurredPx` on it keeps none, and is judged as the engine judged it before
   * the model (saliency, magnitude, its two sides). BSDS's photos are nearly all in focus: the
   * model read a defocused background brought down from a large photo as crisp outlines.
   */
  sharpPx: 2.5,
  blurredPx: 5,
} as const;
