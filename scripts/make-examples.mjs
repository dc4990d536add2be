// `node scripts/make-examples.mjs`: the landing page's example pairs (photo + the sketch OUR
// engine makes of it) and its social preview card, written into public/. Run by hand when the
// engine changes; the output is committed (the page never links to images outside the site).
//
// Photos (all real photographs, each free to use): two of test/fixtures/photos, a rocket launch
// from Debian's python3-skimage and two photographs from plasma-workspace-wallpapers. Put the
// two packages next to the repo first (`apt-get download python3-skimage
// plasma-workspace-wallpapers`, or leave them in /tmp or the apt cache); they are unpacked into
// .cache/ as bench/run.mjs does.
// Each sketch goes through the Worker's own code (decodeToGray + renderSketch), at print size,
// and is then shrunk with the photo to the web size.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleWorkerCode } from "../bench/wasm-as-module.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(root, ".cache", "make-examples");
const examplesDir = join(root, "public", "examples");
mkdirSync(work, { recursive: true });
mkdirSync(examplesDir, { recursive: true });

/** Long edge of the web copies: sharp in a 320 px high frame on a 2x screen, small enough to load fast. */
const WEB_LONG_EDGE = 800;
const PHOTO_JPEG_QUALITY = 78;
const PHOTO_MAX_BYTES = 120 * 1024;
const SOCIAL_CARD = { width: 1200, height: 630 };
/** brand-600 of app/tailwind.css, the ground of the social card. */
const BRAND_VIOLET = [124, 58, 237];

const fixtures = join(root, "test", "fixtures", "photos");
const wallpaper = (name) =>
  join(unpacked("plasma-workspace-wallpapers"), "usr/share/wallpapers", name, "contents/images/2560x1600.jpg");
const skimage = (name) => join(unpacked("python3-skimage"), "usr/lib/python3/dist-packages/skimage/data", name);

/** The five examples, in gallery order; `slug` names the files public/examples/<slug>-photo.jpg and -sketch.png. */
const EXAMPLES = [
  { slug: "boats", source: () => wallpaper("EveningGlow") }, // Ian Hex, LGPL-3 (KDE)
  { slug: "cat", source: () => join(fixtures, "chelsea.jpg") }, // Stefan van der Walt, CC0
  { slug: "astronaut", source: () => join(fixtures, "astronaut.jpg") }, // NASA, public domain
  { slug: "rocket", source: () => skimage("rocket.jpg") }, // SpaceX, public domain
  { slug: "cups", source: () => wallpaper("ColorfulCups") }, // Dmitri Popov, LGPL-3 (KDE)
];
/** The pair the social preview card is made of. */
const SOCIAL_CARD_EXAMPLE = "boats";

const bundle = join(work, "example-pair.mjs");
await bundleWorkerCode({ entryPoints: [join(root, "scripts", "example-pair.ts")], outfile: bundle });
const pair = await import(pathToFileURL(bundle).href);

const made = new Map();
for (const example of EXAMPLES) {
  const sourcePath = example.source();
  const { photo, sketch, qualityScore, pageWidth, pageHeight } = await pair.makeExamplePair(
    new Uint8Array(readFileSync(sourcePath)),
    WEB_LONG_EDGE,
  );
  let quality = PHOTO_JPEG_QUALITY;
  let jpeg = await pair.encodeJpeg(photo, quality);
  while (jpeg.length > PHOTO_MAX_BYTES && quality > 40) jpeg = await pair.encodeJpeg(photo, (quality -= 6));
  const photoPath = join(examplesDir, `${example.slug}-photo.jpg`);
  const sketchPath = join(examplesDir, `${example.slug}-sketch.png`);
  writeFileSync(photoPath, jpeg);
  writeFileSync(sketchPath, await pair.encodeGrayPng(sketch));
  made.set(example.slug, { photo, sketch });
  console.log(
    `${example.slug.padEnd(12)} ${photo.width}x${photo.height}  photo ${kb(photoPath)} (q${quality})  ` +
      `sketch ${kb(sketchPath)}  page ${pageWidth}x${pageHeight}, quality score ${qualityScore}`,
  );
}

const { photo, sketch } = made.get(SOCIAL_CARD_EXAMPLE);
const card = pair.socialCard(photo, pair.grayToRgba(sketch), SOCIAL_CARD.width, SOCIAL_CARD.height, BRAND_VIOLET);
const cardPath = join(root, "public", "og-image.png");
writeFileSync(cardPath, await pair.encodePng(card));
console.log(`og-image     ${SOCIAL_CARD.width}x${SOCIAL_CARD.height}  ${kb(cardPath)}`);

const total = readdirSync(examplesDir).reduce((sum, name) => sum + statSync(join(examplesDir, name)).size, 0);
console.log(`public/examples in all: ${(total / 1024).toFixed(0)} KB`);

function kb(path) {
  return `${(statSync(path).size / 1024).toFixed(0)} KB`;
}

/** The root of the unpacked Debian package `name`, unpacking a downloaded .deb into .cache/ once. */
function unpacked(name) {
  const target = join(work, name);
  if (existsSync(join(target, "usr"))) return target;
  for (const folder of [root, dirname(root), "/tmp", "/var/cache/apt/archives"]) {
    if (!existsSync(folder)) continue;
    const deb = readdirSync(folder).find((n) => n.startsWith(`${name}_`) && n.endsWith(".deb"));
    if (!deb) continue;
    execFileSync("dpkg-deb", ["-x", join(folder, deb), target]);
    return target;
  }
  throw new Error(`${name} not found: run \`apt-get download ${name}\` in the repo first`);
}
