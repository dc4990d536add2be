/**
 * The tone stage's settings (tone.ts). The look of the page itself is the region stage's
 * (regions/tuning.ts).
 */
export const TONE_TUNING = {
  /** These percentiles of the grey are stretched toward black and white... */
  toneLowPercentile: 0.01,
  toneHighPercentile: 0.99,
  /** ...by at most this gain, so a blank or nearly flat photo does not turn noise into edges. */
  maxToneGain: 3,
  /** A dark photo (median below mid-grey after the stretch) is lifted by a gamma down to this. */
  minToneGamma: 0.5,
} as const;

export type ToneTuning = { readonly [Name in keyof typeof TONE_TUNING]: number };
