/**
 * A bench Worker for bench/workerd.mjs: the sketch job as the Worker runs it (decode → kernel →
 * quality → PNG), on the JPEG bytes POSTed to it, without R2. `?noop` only reads the body, so the
 * caller can subtract the cost of sending the photo.
 */
import { encodeGrayPng } from "../../workers/sketch/encode";
import { decodeToGray, renderSketch } from "../../workers/sketch/pipeline";

export default {
  async fetch(request: Request): Promise<Response> {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (new URL(request.url).searchParams.has("noop")) return Response.json({ bytes: bytes.length });
    const loaded = await decodeToGray(bytes);
    const { sketch, qualityScore } = renderSketch(loaded);
    const png = await encodeGrayPng(sketch);
    return Response.json({
      decoded: `${loaded.gray.width}x${loaded.gray.height}`,
      page: `${sketch.width}x${sketch.height}`,
      qualityScore,
      pngBytes: png.length,
    });
  },
};
