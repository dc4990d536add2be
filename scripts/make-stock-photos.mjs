// Makes the eight sample stock photos of docs/product.md §5.4 in public/stock/ (400x300 JPEG, each
// under 60 KB), the ones a visitor can add to a book from the create-book page.
//
//   node scripts/make-stock-photos.mjs
//
// Re-runnable: it overwrites public/stock/*.jpg and nothing else; the same inputs give the same
// pictures (the drawings use a seeded random generator).
//
// - coloringPages (mandala-1, geometric-1, floral-1, zentangle-1) are drawn here, on a canvas in
//   headless Chromium (playwright-core + /usr/bin/chromium): flat fills with clear outlines, the
//   kind of picture our sketch engine turns into a clean colouring page.
// - sketches (landscape-1, portrait-1, architecture-1, botanical-1) are real photographs with a
//   free licence, taken from two Debian packages and cropped/scaled to 400x300 in the same
//   Chromium: python3-skimage (skimage/data) and plasma-workspace-wallpapers. If the packages
//   are not installed, the script fetches them with `apt-get download` and unpacks them with
//   `dpkg-deb -x` into $STOCK_SOURCES_DIR (default: <tmpdir>/coloring-book-stock-sources).
//   Each file's source and licence is in public/stock/README.md: keep it in step with SOURCES.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "public", "stock");
const sourcesDir = process.env.STOCK_SOURCES_DIR || join(tmpdir(), "coloring-book-stock-sources");
const WIDTH = 400;
const HEIGHT = 300;
// The brief for the picker: small enough to fetch quickly on a phone.
const MAX_BYTES = 60_000;

/** Where each Debian package keeps the files we use, relative to its root. */
const PACKAGES = {
  "python3-skimage": "usr/lib/python3/dist-packages/skimage/data",
  "plasma-workspace-wallpapers": "usr/share/wallpapers",
};

/**
 * The photographs: file inside the package's folder, the point of the photo the 4:3 crop centres
 * on (fractions of width and height; the crop stays inside the photo), and how far to zoom in.
 */
const SOURCES = {
  "landscape-1": { pkg: "plasma-workspace-wallpapers", file: "EveningGlow/contents/images/1600x1200.jpg", focus: [0.5, 0.5] },
  // Square photo: keep the face and helmet ring, lose the lower body.
  "portrait-1": { pkg: "python3-skimage", file: "astronaut.png", focus: [0.5, 0.3] },
  "architecture-1": { pkg: "plasma-workspace-wallpapers", file: "Grey/contents/images/1600x1200.jpg", focus: [0.5, 0.5] },
  // Closer in on the maple leaf: the blurred leaves around it give a sketch little to draw.
  "botanical-1": { pkg: "plasma-workspace-wallpapers", file: "FallenLeaf/contents/images/1600x1200.jpg", focus: [0.74, 0.6], zoom: 1.7 },
};

const DRAWN = ["mandala-1", "geometric-1", "floral-1", "zentangle-1"];

function packageFolder(pkg) {
  const installed = join("/", PACKAGES[pkg]);
  if (existsSync(installed)) return installed;
  const unpacked = join(sourcesDir, pkg);
  if (!existsSync(join(unpacked, PACKAGES[pkg]))) {
    mkdirSync(sourcesDir, { recursive: true });
    let deb = readdirSync(sourcesDir).find((name) => name.startsWith(`${pkg}_`) && name.endsWith(".deb"));
    if (!deb) {
      console.log(`downloading ${pkg} (apt-get download) into ${sourcesDir}`);
      execFileSync("apt-get", ["download", pkg], { cwd: sourcesDir, stdio: "inherit" });
      deb = readdirSync(sourcesDir).find((name) => name.startsWith(`${pkg}_`) && name.endsWith(".deb"));
      if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${sourcesDir}`);
    }
    execFileSync("dpkg-deb", ["-x", join(sourcesDir, deb), unpacked]);
  }
  return join(unpacked, PACKAGES[pkg]);
}

function dataUrl(path) {
  const type = path.endsWith(".png") ? "image/png" : "image/jpeg";
  return `data:${type};base64,${readFileSync(path).toString("base64")}`;
}

/** Cover-crops a photo to the canvas around its focus point. Runs in the page. */
async function drawPhoto({ src, focus, zoom }) {
  const canvas = document.querySelector("canvas");
  const ctx = canvas.getContext("2d");
  const image = new Image();
  image.src = src;
  await image.decode();
  const scale = zoom * Math.max(canvas.width / image.naturalWidth, canvas.height / image.naturalHeight);
  const cropW = canvas.width / scale;
  const cropH = canvas.height / scale;
  const clamp = (value, max) => Math.min(Math.max(value, 0), max);
  const sx = clamp(focus[0] * image.naturalWidth - cropW / 2, image.naturalWidth - cropW);
  const sy = clamp(focus[1] * image.naturalHeight - cropH / 2, image.naturalHeight - cropH);
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, sx, sy, cropW, cropH, 0, 0, canvas.width, canvas.height);
}

/**
 * Draws one colouring-page picture. Runs in the page, so everything it needs is inside it.
 * Shapes have dark outlines and flat, clearly different fills: edges the sketch engine keeps.
 */
function drawColoringPage(id) {
  const canvas = document.querySelector("canvas");
  const ctx = canvas.getContext("2d");
  const W = canvas.width;
  const H = canvas.height;
  const INK = "#2b2b33";

  // mulberry32: a tiny seeded generator, so a re-run draws the same picture.
  let seed = 20240611;
  const random = () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const outline = (width = 2) => {
    ctx.lineWidth = width;
    ctx.strokeStyle = INK;
    ctx.lineJoin = "round";
    ctx.stroke();
  };
  const fillAndOutline = (fill, width = 2) => {
    ctx.fillStyle = fill;
    ctx.fill();
    outline(width);
  };
  const circle = (x, y, r) => {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
  };
  /** A pointed petal from the centre outwards at `angle`, between radii r0 and r1. */
  const petal = (cx, cy, angle, r0, r1, halfWidth) => {
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const at = (along, across) => [cx + cos * along - sin * across, cy + sin * along + cos * across];
    const mid = r0 + (r1 - r0) * 0.45;
    ctx.beginPath();
    ctx.moveTo(...at(r0, 0));
    ctx.quadraticCurveTo(...at(mid, halfWidth * 2), ...at(r1, 0));
    ctx.quadraticCurveTo(...at(mid, -halfWidth * 2), ...at(r0, 0));
    ctx.closePath();
  };

  ctx.fillStyle = "#fbf8f2";
  ctx.fillRect(0, 0, W, H);

  if (id === "mandala-1") {
    const cx = W / 2;
    const cy = H / 2;
    const palette = ["#f3b7c3", "#b9d7f0", "#f7d794", "#c5e3bf", "#d8c3ee"];
    circle(cx, cy, 146);
    fillAndOutline("#efe6f7", 2.5);
    // Outer rings first, so inner petals sit on top of them.
    const rings = [
      { count: 24, r0: 104, r1: 144, half: 9, offset: 0.5 },
      { count: 16, r0: 76, r1: 118, half: 12, offset: 0 },
      { count: 12, r0: 48, r1: 88, half: 13, offset: 0.5 },
      { count: 8, r0: 22, r1: 58, half: 13, offset: 0 },
    ];
    rings.forEach((ring, index) => {
      for (let i = 0; i < ring.count; i++) {
        const angle = ((i + ring.offset) / ring.count) * Math.PI * 2;
        petal(cx, cy, angle, ring.r0, ring.r1, ring.half);
        fillAndOutline(palette[(index + (i % 2)) % palette.length]);
        // A vein down every petal of the two outer rings.
        if (index < 2) {
          ctx.beginPath();
          ctx.moveTo(cx + Math.cos(angle) * (ring.r0 + 6), cy + Math.sin(angle) * (ring.r0 + 6));
          ctx.lineTo(cx + Math.cos(angle) * (ring.r1 - 8), cy + Math.sin(angle) * (ring.r1 - 8));
          outline(1.2);
        }
      }
    });
    for (let i = 0; i < 24; i++) {
      const angle = ((i + 0.5) / 24) * Math.PI * 2;
      circle(cx + Math.cos(angle) * 98, cy + Math.sin(angle) * 98, 4);
      fillAndOutline("#ffffff", 1.5);
    }
    circle(cx, cy, 24);
    fillAndOutline("#f7d794", 2.5);
    circle(cx, cy, 12);
    fillAndOutline("#f3b7c3", 2);
    circle(cx, cy, 4);
    fillAndOutline(INK, 1);
    // Corner motifs fill the landscape frame around the round mandala.
    for (const [x, y] of [[34, 34], [W - 34, 34], [34, H - 34], [W - 34, H - 34]]) {
      for (let i = 0; i < 6; i++) {
        petal(x, y, (i / 6) * Math.PI * 2, 4, 26, 6);
        fillAndOutline(palette[i % palette.length], 1.5);
      }
      circle(x, y, 5);
      fillAndOutline("#ffffff", 1.5);
    }
  }

  if (id === "geometric-1") {
    // Tumbling blocks: hexagons split into three rhombi read as cubes; each cube gets one hue in
    // three shades, so every face is its own area to colour.
    const side = 34;
    const hexW = Math.sqrt(3) * side;
    const hues = [
      ["#c7d9f5", "#8fb1e6", "#5b7fc0"],
      ["#f6d2b8", "#eba67d", "#c8744a"],
      ["#d4ecd0", "#9fd195", "#5f9e57"],
      ["#e6d6f3", "#c3a4e2", "#8d6bb8"],
    ];
    let row = 0;
    for (let cy = -side; cy < H + side * 2; cy += side * 1.5, row++) {
      let col = 0;
      for (let cx = (row % 2) * (hexW / 2) - hexW; cx < W + hexW; cx += hexW, col++) {
        const [light, mid, dark] = hues[(col + row * 2) % hues.length];
        const corner = (k) => {
          const angle = Math.PI / 6 + (k * Math.PI) / 3;
          return [cx + side * Math.cos(angle), cy + side * Math.sin(angle)];
        };
        const faces = [
          [[cx, cy], corner(3), corner(4), corner(5), light], // top
          [[cx, cy], corner(5), corner(0), corner(1), mid], // right
          [[cx, cy], corner(1), corner(2), corner(3), dark], // left
        ];
        for (const [a, b, c, d, fill] of faces) {
          ctx.beginPath();
          ctx.moveTo(...a);
          ctx.lineTo(...b);
          ctx.lineTo(...c);
          ctx.lineTo(...d);
          ctx.closePath();
          fillAndOutline(fill, 2);
        }
      }
    }
    // A framed medallion in the middle breaks the repetition.
    ctx.beginPath();
    for (let k = 0; k < 16; k++) {
      const r = k % 2 ? 46 : 78;
      const angle = (k / 16) * Math.PI * 2 - Math.PI / 2;
      ctx[k ? "lineTo" : "moveTo"](W / 2 + r * Math.cos(angle), H / 2 + r * Math.sin(angle));
    }
    ctx.closePath();
    fillAndOutline("#fbf8f2", 3);
    circle(W / 2, H / 2, 40);
    fillAndOutline("#f7d794", 2.5);
    ctx.beginPath();
    for (let k = 0; k < 6; k++) {
      const angle = (k / 6) * Math.PI * 2 - Math.PI / 2;
      ctx[k ? "lineTo" : "moveTo"](W / 2 + 28 * Math.cos(angle), H / 2 + 28 * Math.sin(angle));
    }
    ctx.closePath();
    fillAndOutline("#eba67d", 2);
    circle(W / 2, H / 2, 10);
    fillAndOutline("#fbf8f2", 2);
  }

  if (id === "floral-1") {
    ctx.fillStyle = "#e8f0f7";
    ctx.fillRect(0, 0, W, 232);
    ctx.fillStyle = "#dccab0";
    ctx.fillRect(0, 232, W, H - 232);
    ctx.beginPath();
    ctx.moveTo(0, 232);
    ctx.lineTo(W, 232);
    outline(2);

    const leaf = (x, y, angle, length, width, fill) => {
      petal(x, y, angle, 0, length, width);
      fillAndOutline(fill, 1.8);
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + Math.cos(angle) * length * 0.85, y + Math.sin(angle) * length * 0.85);
      outline(1.2);
    };
    const stem = (x0, y0, x1, y1, bend) => {
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.quadraticCurveTo((x0 + x1) / 2 + bend, (y0 + y1) / 2, x1, y1);
      ctx.lineWidth = 5;
      ctx.strokeStyle = INK;
      ctx.stroke();
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = "#6fa35f";
      ctx.stroke();
    };
    const daisy = (x, y, r, petals, fill, centre) => {
      for (let i = 0; i < petals; i++) petal(x, y, (i / petals) * Math.PI * 2, r * 0.3, r, r * 0.16), fillAndOutline(fill, 1.6);
      circle(x, y, r * 0.34);
      fillAndOutline(centre, 1.8);
      for (let i = 0; i < 7; i++) {
        const angle = (i / 7) * Math.PI * 2;
        circle(x + Math.cos(angle) * r * 0.18, y + Math.sin(angle) * r * 0.18, 1.6);
        ctx.fillStyle = INK;
        ctx.fill();
      }
    };
    const tulip = (x, y, size, fill) => {
      ctx.beginPath();
      ctx.moveTo(x - size * 0.55, y - size * 0.2);
      ctx.quadraticCurveTo(x - size * 0.6, y + size * 0.6, x, y + size * 0.6);
      ctx.quadraticCurveTo(x + size * 0.6, y + size * 0.6, x + size * 0.55, y - size * 0.2);
      ctx.lineTo(x + size * 0.28, y + size * 0.05);
      ctx.lineTo(x, y - size * 0.45);
      ctx.lineTo(x - size * 0.28, y + size * 0.05);
      ctx.closePath();
      fillAndOutline(fill, 2);
    };
    const rose = (x, y, r, fill) => {
      circle(x, y, r);
      fillAndOutline(fill, 2);
      for (let k = 1; k <= 3; k++) {
        ctx.beginPath();
        ctx.arc(x + k * 1.5, y - k, r * (1 - k * 0.24), Math.PI * (0.1 + k * 0.3), Math.PI * (1.6 + k * 0.3));
        outline(1.6);
      }
    };

    // Stems from the vase mouth to each bloom (drawn first, so the vase covers their ends).
    const blooms = [
      { kind: "daisy", x: 120, y: 78, size: 34, fill: "#ffffff", extra: "#f7c948" },
      { kind: "tulip", x: 168, y: 44, size: 34, fill: "#f08aa0" },
      { kind: "rose", x: 205, y: 96, size: 26, fill: "#e97979" },
      { kind: "daisy", x: 252, y: 58, size: 30, fill: "#f7d794", extra: "#c8744a" },
      { kind: "tulip", x: 290, y: 104, size: 30, fill: "#c3a4e2" },
      { kind: "daisy", x: 160, y: 128, size: 24, fill: "#b9d7f0", extra: "#f7c948" },
    ];
    const mouth = { x: 205, y: 178 };
    for (const bloom of blooms) stem(mouth.x + (bloom.x - mouth.x) * 0.15, mouth.y, bloom.x, bloom.y + bloom.size * 0.4, (bloom.x - mouth.x) * 0.25);
    leaf(178, 160, -2.5, 44, 9, "#8cc084");
    leaf(232, 160, -0.6, 44, 9, "#8cc084");
    leaf(196, 150, -1.9, 36, 7, "#a8d39d");
    leaf(262, 142, -0.3, 30, 7, "#a8d39d");
    for (const bloom of blooms) {
      if (bloom.kind === "daisy") daisy(bloom.x, bloom.y, bloom.size, 12, bloom.fill, bloom.extra);
      if (bloom.kind === "tulip") tulip(bloom.x, bloom.y, bloom.size, bloom.fill);
      if (bloom.kind === "rose") rose(bloom.x, bloom.y, bloom.size, bloom.fill);
    }

    // The vase: a rounded jug with two painted bands.
    ctx.beginPath();
    ctx.moveTo(172, 176);
    ctx.lineTo(238, 176);
    ctx.quadraticCurveTo(232, 196, 252, 214);
    ctx.quadraticCurveTo(282, 244, 258, 270);
    ctx.lineTo(152, 270);
    ctx.quadraticCurveTo(128, 244, 158, 214);
    ctx.quadraticCurveTo(178, 196, 172, 176);
    ctx.closePath();
    fillAndOutline("#8fb1e6", 2.5);
    ctx.save();
    ctx.clip();
    ctx.fillStyle = "#f7d794";
    ctx.fillRect(120, 222, 170, 14);
    ctx.fillStyle = "#5b7fc0";
    ctx.fillRect(120, 246, 170, 8);
    for (const y of [222, 236, 246, 254]) {
      ctx.beginPath();
      ctx.moveTo(120, y);
      ctx.lineTo(290, y);
      outline(1.5);
    }
    ctx.restore();
    ctx.beginPath();
    ctx.ellipse(205, 176, 33, 5, 0, 0, Math.PI * 2);
    fillAndOutline("#5b7fc0", 2);

    // Fallen petals and a small pot on the table give the lower band something to colour too.
    petal(90, 262, 0.3, 0, 22, 6);
    fillAndOutline("#f08aa0", 1.5);
    petal(318, 258, 2.6, 0, 20, 6);
    fillAndOutline("#c3a4e2", 1.5);
  }

  if (id === "zentangle-1") {
    // A zentangle: the "strings" (wavy lines) cut the tile into areas, each filled with its own
    // pattern. Every area is clipped by intersecting half-planes bounded by the strings.
    const columns = [0, 128, 268, W];
    const rows = [0, 146, H];
    const vertical = (i) => (y) => columns[i] + (i > 0 && i < columns.length - 1 ? 16 * Math.sin(y / 38 + i * 2) : 0);
    const horizontal = (j) => (x) => rows[j] + (j > 0 && j < rows.length - 1 ? 18 * Math.sin(x / 52 + j) : 0);
    const rightOf = (fx) => {
      ctx.beginPath();
      for (let y = -2; y <= H + 2; y += 4) ctx.lineTo(fx(y), y);
      ctx.lineTo(W + 10, H + 2);
      ctx.lineTo(W + 10, -2);
      ctx.closePath();
      ctx.clip();
    };
    const leftOf = (fx) => {
      ctx.beginPath();
      for (let y = -2; y <= H + 2; y += 4) ctx.lineTo(fx(y), y);
      ctx.lineTo(-10, H + 2);
      ctx.lineTo(-10, -2);
      ctx.closePath();
      ctx.clip();
    };
    const below = (fy) => {
      ctx.beginPath();
      for (let x = -2; x <= W + 2; x += 4) ctx.lineTo(x, fy(x));
      ctx.lineTo(W + 2, H + 10);
      ctx.lineTo(-2, H + 10);
      ctx.closePath();
      ctx.clip();
    };
    const above = (fy) => {
      ctx.beginPath();
      for (let x = -2; x <= W + 2; x += 4) ctx.lineTo(x, fy(x));
      ctx.lineTo(W + 2, -10);
      ctx.lineTo(-2, -10);
      ctx.closePath();
      ctx.clip();
    };

    const patterns = [
      // Pebbles: random circles, shaded in three greys.
      () => {
        for (let i = 0; i < 120; i++) {
          circle(random() * W, random() * H, 8 + random() * 14);
          fillAndOutline(["#d9d9de", "#b7b7bf", "#f4f4f6"][i % 3], 1.6);
        }
      },
      // Scallops: rows of fish scales.
      () => {
        for (let y = -10, row = 0; y < H + 20; y += 18, row++) {
          for (let x = (row % 2) * 17 - 34; x < W + 34; x += 34) {
            ctx.beginPath();
            ctx.arc(x, y, 17, 0, Math.PI);
            ctx.lineTo(x - 17, y);
            fillAndOutline(row % 2 ? "#c9c9d1" : "#f4f4f6", 1.6);
            circle(x, y + 7, 3);
            ctx.fillStyle = INK;
            ctx.fill();
          }
        }
      },
      // Diagonal bands, alternately dark and light.
      () => {
        for (let k = -H, band = 0; k < W + H; k += 22, band++) {
          ctx.beginPath();
          ctx.moveTo(k, 0);
          ctx.lineTo(k + 22, 0);
          ctx.lineTo(k + 22 + H, H);
          ctx.lineTo(k + H, H);
          ctx.closePath();
          fillAndOutline(band % 2 ? "#55555f" : "#f4f4f6", 1.4);
        }
      },
      // Waves: stacked sine bands.
      () => {
        for (let y = -20, band = 0; y < H + 20; y += 20, band++) {
          ctx.beginPath();
          for (let x = -4; x <= W + 4; x += 4) ctx.lineTo(x, y + 8 * Math.sin(x / 18));
          for (let x = W + 4; x >= -4; x -= 4) ctx.lineTo(x, y + 20 + 8 * Math.sin(x / 18));
          ctx.closePath();
          fillAndOutline(["#f4f4f6", "#a9a9b3", "#dedee3"][band % 3], 1.6);
        }
      },
      // Targets: a grid of concentric rings.
      () => {
        for (let y = 0, row = 0; y < H + 40; y += 40, row++) {
          for (let x = (row % 2) * 20; x < W + 40; x += 40) {
            for (const [r, fill] of [[17, "#b7b7bf"], [10, "#f4f4f6"], [4, "#55555f"]]) {
              circle(x, y, r);
              fillAndOutline(fill, 1.4);
            }
          }
        }
      },
      // Checker of rounded diamonds.
      () => {
        for (let y = 0, row = 0; y < H + 34; y += 34, row++) {
          for (let x = 0, col = 0; x < W + 34; x += 34, col++) {
            ctx.beginPath();
            ctx.moveTo(x, y - 16);
            ctx.quadraticCurveTo(x + 3, y - 3, x + 16, y);
            ctx.quadraticCurveTo(x + 3, y + 3, x, y + 16);
            ctx.quadraticCurveTo(x - 3, y + 3, x - 16, y);
            ctx.quadraticCurveTo(x - 3, y - 3, x, y - 16);
            fillAndOutline((row + col) % 2 ? "#55555f" : "#d9d9de", 1.4);
          }
        }
      },
    ];

    let area = 0;
    for (let j = 0; j < rows.length - 1; j++) {
      for (let i = 0; i < columns.length - 1; i++) {
        ctx.save();
        rightOf(vertical(i));
        leftOf(vertical(i + 1));
        below(horizontal(j));
        above(horizontal(j + 1));
        ctx.fillStyle = "#fbf8f2";
        ctx.fillRect(0, 0, W, H);
        patterns[area++ % patterns.length]();
        ctx.restore();
      }
    }
    // The strings themselves, drawn thick over the patterns' edges.
    for (let i = 1; i < columns.length - 1; i++) {
      ctx.beginPath();
      for (let y = 0; y <= H; y += 3) ctx.lineTo(vertical(i)(y), y);
      outline(5);
    }
    for (let j = 1; j < rows.length - 1; j++) {
      ctx.beginPath();
      for (let x = 0; x <= W; x += 3) ctx.lineTo(x, horizontal(j)(x));
      outline(5);
    }
    ctx.strokeStyle = INK;
    ctx.lineWidth = 8;
    ctx.strokeRect(0, 0, W, H);
  }
}

/** The canvas as JPEG at the best quality that stays under MAX_BYTES. */
async function exportJpeg(page) {
  for (let quality = 0.92; quality >= 0.5; quality -= 0.04) {
    const url = await page.evaluate((q) => document.querySelector("canvas").toDataURL("image/jpeg", q), quality);
    const bytes = Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
    if (bytes.length <= MAX_BYTES) return { bytes, quality };
  }
  throw new Error(`could not get a ${WIDTH}x${HEIGHT} JPEG under ${MAX_BYTES} bytes`);
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  const jobs = [
    ...DRAWN.map((id) => [id, () => page.evaluate(drawColoringPage, id)]),
    ...Object.entries(SOURCES).map(([id, { pkg, file, focus, zoom = 1 }]) => [
      id,
      () => page.evaluate(drawPhoto, { src: dataUrl(join(packageFolder(pkg), file)), focus, zoom }),
    ]),
  ];
  for (const [id, draw] of jobs) {
    await page.setContent(`<canvas width="${WIDTH}" height="${HEIGHT}"></canvas>`);
    await draw();
    const { bytes, quality } = await exportJpeg(page);
    writeFileSync(join(outDir, `${id}.jpg`), bytes);
    console.log(`${id}.jpg  ${(bytes.length / 1024).toFixed(1)} KB  quality ${quality.toFixed(2)}`);
  }
} finally {
  await browser.close();
}
