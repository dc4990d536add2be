/**
 * The whole book pipeline in one workerd: upload two real photos, start processing, and let the
 * sketch Worker (an auxiliary worker consuming `sketch-jobs`) turn them into pages.
 */
import { describe, expect, it } from "vitest";
import astronautUrl from "../fixtures/photos/astronaut.jpg?inline";
import chelseaUrl from "../fixtures/photos/chelsea.jpg?inline";
import { Visitor, type ImageDto } from "./helpers";

const PIPELINE_TIMEOUT_MS = 30_000;
const POLL_MS = 250;

/** Vite inlines the fixture as a base64 data URL; the pool has no file system to read from. */
function fileFromDataUrl(dataUrl: string, name: string): File {
  const [meta, base64] = dataUrl.split(",", 2);
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new File([bytes], name, { type: meta.slice(5).split(";")[0] });
}

describe("upload -> process -> sketches", () => {
  it(
    "turns two real photos into PNG sketches the owner can fetch",
    async () => {
      const visitor = new Visitor();
      const bookId = await visitor.createBook("Space cats");
      const uploaded = await visitor.uploadOk(bookId, [
        fileFromDataUrl(astronautUrl, "astronaut.jpg"),
        fileFromDataUrl(chelseaUrl, "chelsea.jpg"),
      ]);
      expect(uploaded.map((image) => [image.width, image.height])).toEqual([
        [512, 512],
        [451, 300],
      ]);

      const started = await visitor.fetch(`/api/books/${bookId}/process`, { method: "POST" });
      expect(started.status).toBe(202);
      expect(await started.json()).toEqual({ queued: 2 });

      let progress = { processedImages: 0, totalImages: 2 };
      const deadline = Date.now() + PIPELINE_TIMEOUT_MS;
      while (progress.processedImages < progress.totalImages && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        progress = await (await visitor.fetch(`/api/books/${bookId}/progress`)).json();
      }
      expect(progress).toEqual({ processedImages: 2, totalImages: 2 });

      const images = (await (await visitor.fetch(`/api/books/${bookId}/images`)).json()) as ImageDto[];
      for (const image of images) {
        expect(image, image.error ?? "").toMatchObject({ processingStatus: "completed", error: null });
        expect(image.sketchUrl).toMatch(/^\/images\/sketches\/.+\.png$/);
        expect(image.qualityScore).toBeGreaterThanOrEqual(0);
        expect(image.qualityScore).toBeLessThanOrEqual(100);

        const sketch = await visitor.fetch(image.sketchUrl!);
        expect(sketch.status).toBe(200);
        expect(sketch.headers.get("Content-Type")).toBe("image/png");
        const bytes = new Uint8Array(await sketch.arrayBuffer());
        expect(Array.from(bytes.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47]);

        expect((await new Visitor().fetch(image.sketchUrl!)).status).toBe(404);
      }
    },
    PIPELINE_TIMEOUT_MS + 10_000,
  );
});
