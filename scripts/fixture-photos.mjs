// The real photos `npm run load` (bench/load.mjs) and scripts/dev-start-check.mjs upload: one
// list, so both exercise the shop with the same files (all JPEG, 31-64 KB, from test/fixtures).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const FIXTURE_PHOTO_PATHS = [
  "test/fixtures/photos/astronaut.jpg",
  "test/fixtures/photos/chelsea.jpg",
  "test/fixtures/photos/coffee.jpg",
  "test/fixtures/images/chelsea-444-baseline.jpg",
  "test/fixtures/images/coffee-420-baseline.jpg",
];

/** Every fixture photo as `{ name, bytes }` (name: the file's base name). */
export async function loadFixturePhotos() {
  return Promise.all(
    FIXTURE_PHOTO_PATHS.map(async (file) => ({
      name: path.basename(file),
      bytes: new Uint8Array(await readFile(path.join(ROOT, file))),
    })),
  );
}
