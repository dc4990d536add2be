/**
 * The codecs' wasm binaries, imported as compiled modules (wrangler bundles `*.wasm` imports as
 * WebAssembly.Module; types/wasm.d.ts types them), so nothing is fetched at run time.
 */
import jpegDecoder from "../../../node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
// @ts-expect-error the PNG codec ships a .wasm.d.ts describing its exports, which shadows our
// `*.wasm` module declaration; the default import is the compiled module all the same.
import pngCodecModule from "../../../node_modules/@jsquash/png/codec/pkg/squoosh_png_bg.wasm";
import webpDecoder from "../../../node_modules/@jsquash/webp/codec/dec/webp_dec.wasm";

export const jpegDecoderWasm: WebAssembly.Module = jpegDecoder;
/** One module for both PNG decode and encode (they share the wasm-bindgen instance). */
export const pngCodecWasm: WebAssembly.Module = pngCodecModule;
export const webpDecoderWasm: WebAssembly.Module = webpDecoder;
