/**
 * The landing page's examples: real photos and the sketches our own engine made of them
 * (public/examples, written by scripts/make-examples.mjs). Width and height are the files'
 * own, so the browser reserves the space before they load.
 */
export interface ExamplePair {
  slug: string;
  title: string;
  photoSrc: string;
  sketchSrc: string;
  photoAlt: string;
  sketchAlt: string;
  width: number;
  height: number;
}

const pair = (slug: string, title: string, subject: string, width: number, height: number): ExamplePair => ({
  slug,
  title,
  photoSrc: `/examples/${slug}-photo.jpg`,
  sketchSrc: `/examples/${slug}-sketch.png`,
  photoAlt: `Photo: ${subject}`,
  sketchAlt: `Coloring page sketch of ${subject}`,
  width,
  height,
});

export const EXAMPLES: readonly ExamplePair[] = [
  pair("boats", "Boats at sunset", "wooden rowing boats pulled up on a lake shore at sunset", 800, 500),
  pair("cat", "The family cat", "a tabby cat looking into the camera", 451, 300),
  pair("astronaut", "A proud portrait", "a smiling astronaut in her spacesuit beside a flag and a shuttle model", 512, 512),
  pair("rocket", "Launch day", "a rocket on its launch pad between two towers", 640, 427),
  pair("cups", "Party cups", "rows of stacked paper cups seen from above", 800, 500),
];

/**
 * The pair the hero's before/after comparison shows: a square portrait fills the comparison's
 * 320 px high frame on a 375 px phone as on a desktop, with no empty bands (the frame fits
 * the image inside itself, whatever its shape).
 */
export const HERO_EXAMPLE = EXAMPLES[2];
