// The bench's photos (bench/run.mjs): the committed test photos, hard cases made from them, and
// real photographs from Debian packages when the machine has them, made or unpacked into
// bench/out. Each photo: { label, name (for file names), path, sheet (in the colourability table
// and contact sheet), large (5120 px, 12 MP, 24 MP and upload-sized: fewer timed runs), faces (its
// FACE_BOXES, when it has faces) }.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { syntheticTwentyFourMp } from "./memory.mjs";

/** Close-ups (mate-backgrounds, nature/): a ladybird on a grass blade among forget-me-nots, a red marigold, a yellow flower, an orange one, two dandelion seeds. */
const MATE_FLOWERS = ["LadyBird", "Garden", "YellowFlower", "FreshFlower", "TwoWings"];
/**
 * A jetty by a lake, a forest path, an autumn painting, cups on a table, rowing boats on pebbles
 * at dusk, a maple leaf among fallen leaves, a dark misty lake (plasma-workspace-wallpapers).
 */
const PLASMA_SHEET = ["BytheWater", "Path", "Autumn", "ColorfulCups", "EveningGlow", "FallenLeaf", "DarkestHour"];
const PLASMA_LARGE = ["Volna", "Shell", "SafeLanding"];

/**
 * The faces of the sheet's photos, marked by hand: [left, top, width, height] in the photo's own
 * pixels, a person's from forehead to chin, a pet's from above the eyes to below the mouth, the
 * cartoon fish's head with its eye and smile. The contact sheet's code writes a 100 % crop of
 * each face at every level (level-table.mjs); bench/faces.mjs compares a detector's boxes with
 * them. The group's 29 boxes were first proposed by OpenCV's Haar cascade and then checked one by
 * one on the photo (4 of its 33 proposals, on the wall and on coats, dropped).
 */
export const FACE_BOXES = {
  astronaut: [[168, 55, 112, 136]],
  chelsea: [[100, 40, 280, 260]],
  "grace-hopper": [[150, 95, 230, 262]],
  footballer: [[224, 88, 44, 54]],
  "group-solvay-1927": [
    [244, 775, 70, 84], [780, 700, 80, 96], [1406, 701, 71, 85], [177, 708, 67, 80], [563, 705, 73, 88],
    [1618, 704, 83, 100], [1808, 711, 77, 92], [664, 769, 78, 94], [888, 769, 94, 113], [447, 780, 81, 97],
    [1886, 790, 73, 88], [1729, 762, 79, 95], [1501, 750, 86, 103], [1146, 758, 80, 96], [1355, 758, 75, 90],
    [364, 730, 68, 82], [1751, 503, 62, 74], [400, 521, 65, 78], [553, 568, 64, 77], [1190, 571, 64, 77],
    [1637, 573, 60, 72], [1822, 569, 72, 86], [1462, 575, 63, 76], [1325, 581, 64, 77], [839, 582, 69, 83],
    [1019, 608, 69, 83], [661, 617, 70, 84], [1215, 687, 67, 80], [1020, 690, 70, 84],
  ],
  dog: [[120, 50, 280, 290]],
  mandrill: [[100, 20, 310, 480]],
  "cartoon-fish": [[35, 45, 110, 100]],
  "bsds-child": [[130, 70, 73, 60]],
  "bsds-toddler": [[325, 150, 45, 35]],
  "bsds-fur-hood": [[100, 110, 135, 160]],
  "bsds-three-boys": [[57, 125, 85, 100], [160, 122, 90, 105], [235, 22, 65, 73]],
};

/**
 * Children, from BSDS500's train photos (Arbelaez et al., TPAMI 2011), when the machine has the
 * data set and says where (`BSDS500=DIR npm run bench`, DIR holding images/train/<id>.jpg): a
 * child with his hands together over his mouth, a toddler on a step beside a soldier (her face
 * turned down), a girl in a fur hood, three boys. The data set is for research and benchmarking:
 * these pages are looked at, never shipped (no landing example, no fixture), and the photos are
 * train photos, so the val figures stay untouched by what is seen on them. No photo of a child or
 * a baby was found in a Debian package under a licence the shop may use.
 */
const BSDS_FACE_PHOTOS = [
  { id: "187029", name: "bsds-child", label: "child: BSDS500 train 187029" },
  { id: "170054", name: "bsds-toddler", label: "toddler: BSDS500 train 170054" },
  { id: "365025", name: "bsds-fur-hood", label: "girl in a fur hood: BSDS500 train 365025" },
  { id: "246053", name: "bsds-three-boys", label: "three boys: BSDS500 train 246053" },
];

/**
 * People, pets and a drawing, from Debian packages (`apt-get download` each; the licence is the
 * package's copyright file): a portrait of Grace Hopper (python-matplotlib-data's sample data,
 * matplotlib's licence; a US Navy photograph), the 1927 Solvay conference, 29 faces
 * (visp-images-data, GPL-2), and from opencv-doc's sample data (Apache-2.0 and BSD-3-Clause) a
 * footballer before a crowd, a dog, a mandrill and a cartoon fish with black outlines and gradient
 * fills. Children: BSDS_FACE_PHOTOS below.
 */
const FACE_PHOTOS = [
  {
    deb: "python-matplotlib-data", folder: "usr/share/matplotlib/mpl-data/sample_data", installed: ["/usr/share/matplotlib/mpl-data/sample_data"],
    file: "grace_hopper.jpg", name: "grace-hopper", label: "adult: grace_hopper (matplotlib)",
  },
  {
    deb: "visp-images-data", folder: "usr/share/visp-images-data/ViSP-images/Solvay", installed: ["/usr/share/visp-images-data/ViSP-images/Solvay"],
    file: "Solvay_conference_1927_Version2_2126x1463.jpg", name: "group-solvay-1927", label: "group: Solvay 1927 (visp-images-data)",
  },
  ...[
    ["messi5.jpg", "footballer", "footballer + crowd (opencv-doc)"],
    ["chicky_512.png", "dog", "dog: chicky_512 (opencv-doc)"],
    ["baboon.jpg", "mandrill", "mandrill (opencv-doc)"],
    ["HappyFish.jpg", "cartoon-fish", "drawing: HappyFish (opencv-doc)"],
  ].map(([file, name, label]) => ({
    deb: "opencv-doc", folder: "usr/share/doc/opencv-doc/examples/data", installed: ["/usr/share/doc/opencv-doc/examples/data"], file, name, label,
  })),
];

/** `codecs`: bench/codecs.ts, bundled (jSquash, to make the derived JPEGs). */
export async function benchPhotos({ root, out, codecs }) {
  const photos = [];
  const fixtures = join(root, "test", "fixtures", "photos");
  for (const file of readdirSync(fixtures).filter((n) => n.endsWith(".jpg")).sort()) {
    const name = file.replace(".jpg", "");
    photos.push({ label: file, name, path: join(fixtures, file), sheet: true, faces: FACE_BOXES[name] });
  }
  // Hard cases made from the committed photos: dark, dull and noisy versions.
  const variants = [
    ["coffee.jpg", "dark", (v) => v * 0.28],
    ["astronaut.jpg", "low-contrast", (v) => 105 + v * 0.22],
    ["chelsea.jpg", "noisy", (v, random) => v + (random() - 0.5) * 70],
  ];
  for (const [file, kind, transform] of variants) {
    const name = `${file.replace(".jpg", "")}-${kind}`;
    const path = join(out, `${name}.jpg`);
    if (!existsSync(path)) {
      const image = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(join(fixtures, file))));
      let state = 12345;
      const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
      for (let i = 0; i < image.data.length; i++) if (i % 4 !== 3) image.data[i] = transform(image.data[i], random);
      writeFileSync(path, await codecs.encodeJpeg(image, 90));
    }
    photos.push({ label: `${file} (${kind}, made here)`, name, path, sheet: true, faces: FACE_BOXES[file.replace(".jpg", "")] });
  }
  // A room: python3-skimage's motorcycle in a lab, made into a JPEG here.
  const skimageRoom = "/usr/lib/python3/dist-packages/skimage/data/motorcycle_left.png";
  const roomJpeg = join(out, "room-motorcycle.jpg");
  if (existsSync(skimageRoom) && !existsSync(roomJpeg)) {
    spawnSync("/usr/bin/python3", ["-c", `import cv2; cv2.imwrite(${JSON.stringify(roomJpeg)}, cv2.imread(${JSON.stringify(skimageRoom)}), [cv2.IMWRITE_JPEG_QUALITY, 90])`]);
  }
  if (existsSync(roomJpeg)) photos.push({ label: "room (skimage motorcycle_left)", name: "room", path: roomJpeg, sheet: true });
  else console.log("note: python3-skimage not found (apt-get install python3-skimage); the room photo skipped");

  const wallpapers = findPackageFolder(out, {
    deb: "plasma-workspace-wallpapers",
    folder: "usr/share/wallpapers",
    probe: "Volna/contents/images/5120x2880.jpg",
    installed: ["/usr/share/wallpapers", "/tmp/wp/x/usr/share/wallpapers"],
    unpackTo: "wallpapers",
  });
  if (!wallpapers) console.log("note: plasma-workspace-wallpapers not found (apt-get download it); its 2560 and 5120 px photos skipped");
  const wallpaper = (name, size) => wallpapers && join(wallpapers, name, "contents", "images", `${size}.jpg`);
  for (const name of PLASMA_SHEET) {
    const path = wallpaper(name, "2560x1600");
    if (path && existsSync(path)) photos.push({ label: `${name} 2560x1600`, name, path, sheet: true });
  }
  const mate = findPackageFolder(out, {
    deb: "mate-backgrounds",
    folder: "usr/share/backgrounds/mate/nature",
    probe: "LadyBird.jpg",
    installed: ["/usr/share/backgrounds/mate/nature", "/tmp/wp/y/usr/share/backgrounds/mate/nature"],
    unpackTo: "mate-backgrounds",
  });
  if (!mate) console.log("note: mate-backgrounds not found (apt-get download it); the flower photos skipped");
  for (const name of MATE_FLOWERS) {
    const path = mate && join(mate, `${name}.jpg`);
    if (path && existsSync(path)) photos.push({ label: `${name} (mate-backgrounds)`, name, path, sheet: true });
  }

  for (const { deb, folder, installed, file, name, label } of FACE_PHOTOS) {
    const found = findPackageFolder(out, { deb, folder, probe: file, installed, unpackTo: deb });
    if (!found) {
      console.log(`note: ${deb} not found (apt-get download it); ${file} skipped`);
      continue;
    }
    let path = join(found, file);
    if (file.endsWith(".png")) {
      // The job and the contact sheet read JPEGs, as the Worker receives them from the upload page.
      path = join(out, `${name}.jpg`);
      if (!existsSync(path)) writeFileSync(path, await codecs.encodeJpeg(await codecs.decodePngRgba(new Uint8Array(readFileSync(join(found, file)))), 90));
    }
    photos.push({ label, name, path, sheet: true, faces: FACE_BOXES[name] });
  }

  const bsds = process.env.BSDS500;
  if (bsds) {
    for (const { id, name, label } of BSDS_FACE_PHOTOS) {
      const path = join(bsds, "images", "train", `${id}.jpg`);
      if (existsSync(path)) photos.push({ label, name, path, sheet: true, faces: FACE_BOXES[name] });
      else console.log(`note: ${path} not found (BSDS500 should be the data set's folder); ${name} skipped`);
    }
  } else console.log("note: BSDS500 not set (BSDS500=DIR, the data set's folder); the children's photos skipped");

  // Mid-size photos, as a messaging app resizes them before they reach us (long edge 1600 or 1920):
  // between the small photos and print size, every plane is still at full or half resolution.
  for (const [name, width, height] of [["Path", 1600, 1000], ["EveningGlow", 1920, 1200]]) {
    const source = wallpaper(name, "2560x1600");
    const path = join(out, `${name}-${width}x${height}.jpg`);
    if (source && existsSync(source) && !existsSync(path)) {
      const image = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(source)));
      writeFileSync(path, await codecs.encodeJpeg(codecs.resizeRgba(image, width, height, true), 90));
    }
    if (existsSync(path)) photos.push({ label: `${name} ${width}x${height} (resized here)`, name: `${name}-${width}x${height}`, path, sheet: false });
  }
  // Large real photographs.
  for (const name of PLASMA_LARGE) {
    const path = wallpaper(name, "5120x2880");
    if (path && existsSync(path)) photos.push({ label: `${name} 5120x2880`, name, path, sheet: false, large: true });
  }
  // A 12 MP JPEG: Volna cropped to 4:3 and resized to 4000x3000 (or, without it, coffee upscaled).
  const twelve = join(out, "twelve-mp.jpg");
  const volna = wallpaper("Volna", "5120x2880");
  const twelveLabel = volna && existsSync(volna) ? "Volna 4000x3000 (cropped+resized here)" : "coffee upscaled to 4000x3000 (made here)";
  if (!existsSync(twelve)) {
    const image = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(volna && existsSync(volna) ? volna : join(fixtures, "coffee.jpg"))));
    writeFileSync(twelve, await codecs.encodeJpeg(codecs.resizeRgba(image, 4000, 3000, true), 90));
  }
  photos.push({ label: `12 MP: ${twelveLabel}`, name: "twelve-mp", path: twelve, large: true });
  // The same photo turned to portrait (3000x4000), as most phone photos of people are: fitted to
  // print size it is 2475 px wide, an odd width, the case that once made the kernel 18x slower.
  const portrait = join(out, "twelve-mp-portrait.jpg");
  if (!existsSync(portrait)) {
    const image = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(twelve)));
    const turned = new Uint8ClampedArray(image.data.length);
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const from = (y * image.width + x) * 4;
        const to = (x * image.height + (image.height - 1 - y)) * 4;
        turned.set(image.data.subarray(from, from + 4), to);
      }
    }
    writeFileSync(portrait, await codecs.encodeJpeg({ data: turned, width: image.height, height: image.width }, 90));
  }
  photos.push({ label: "12 MP portrait: the same, turned (made here)", name: "twelve-mp-portrait", path: portrait, large: true });
  // The 12 MP photo as the Worker receives it from the upload page, which shrinks every photo over
  // print size in the browser (app/lib/prepare-photo.ts, whose size and quality these are): a
  // baseline JPEG, as the browser's canvas encoder writes it.
  const uploaded = join(out, "twelve-mp-as-uploaded.jpg");
  if (!existsSync(uploaded)) {
    const image = await codecs.decodeJpegRgba(new Uint8Array(readFileSync(twelve)));
    const { width, height } = codecs.uploadSize(image, "image/jpeg");
    const quality = Math.round(codecs.UPLOAD_JPEG_QUALITY * 100);
    writeFileSync(uploaded, await codecs.encodeJpeg(codecs.resizeRgba(image, width, height), quality, { progressive: false }));
  }
  photos.push({ label: "12 MP as the upload page sends it: 3300 px, baseline (made here)", name: "twelve-mp-as-uploaded", path: uploaded, large: true });
  // The largest photo the Worker accepts, as a client that skips the upload page's shrinking would
  // send it: 24 MP, progressive (the decoder's most expensive kind; its peak memory is the bound).
  const twentyFour = await syntheticTwentyFourMp();
  if (twentyFour) photos.push({ label: "24 MP: Volna 6000x4000, progressive (made here)", name: "twenty-four-mp", path: twentyFour, large: true });
  return photos;
}

/**
 * Where a Debian package's files are: installed, unpacked earlier, or unpacked now into
 * bench/out/<unpackTo> from a downloaded .deb (`apt-get download <deb>`) found in the current
 * folder, bench/out, /tmp/wp or apt's cache. Null when none has `probe`.
 */
export function findPackageFolder(out, { deb, folder, probe, installed, unpackTo }) {
  const unpacked = join(out, unpackTo, folder);
  const candidates = [...installed, unpacked];
  for (const candidate of candidates) if (existsSync(join(candidate, probe))) return candidate;
  for (const place of [process.cwd(), out, "/tmp/wp", "/var/cache/apt/archives"]) {
    if (!existsSync(place)) continue;
    const file = readdirSync(place).find((n) => n.startsWith(`${deb}_`) && n.endsWith(".deb"));
    if (!file) continue;
    execFileSync("dpkg-deb", ["-x", join(place, file), join(out, unpackTo)]);
    if (existsSync(join(unpacked, probe))) return unpacked;
  }
  return null;
}
