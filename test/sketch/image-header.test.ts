import { describe, expect, it } from "vitest";
import { readImageHeader } from "../../app/core/images/image-header";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)));
const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

describe("readImageHeader", () => {
  it("reads a PNG's IHDR, including one that claims 30000x30000 pixels", () => {
    const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), "IHDR", u32be(30000), u32be(30000), [8, 2, 0, 0, 0]);
    expect(readImageHeader(png)).toEqual({ format: "png", width: 30000, height: 30000 });
  });

  it("walks JPEG segments to the start-of-frame marker", () => {
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0)];
    const sof2 = [0xff, 0xc2, 0x00, 0x11, 8, 0x0b, 0xb8, 0x0f, 0xa0, 3];
    const jpeg = bytes([0xff, 0xd8], app0, sof2);
    expect(readImageHeader(jpeg)).toEqual({ format: "jpeg", width: 4000, height: 3000 });
  });

  it("does not mistake a Huffman table (DHT, 0xC4) for a frame header", () => {
    const dht = [0xff, 0xc4, 0x00, 0x05, 1, 2, 3];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 8, 0x00, 0x10, 0x00, 0x20, 3];
    expect(readImageHeader(bytes([0xff, 0xd8], dht, sof0))).toEqual({ format: "jpeg", width: 32, height: 16 });
  });

  it("returns null for a JPEG cut off before its frame header", () => {
    expect(readImageHeader(bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 1, 2]))).toBeNull();
  });

  it("reads lossy, lossless and extended WebP headers", () => {
    const riff = (chunk: string, payload: number[]) => bytes("RIFF", u32le(100), "WEBP", chunk, u32le(payload.length), payload);
    const lossy = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(640), ...u16le(480)]);
    expect(readImageHeader(lossy)).toEqual({ format: "webp", width: 640, height: 480 });
    const packed = (640 - 1) | ((480 - 1) << 14);
    const lossless = riff("VP8L", [0x2f, ...u32le(packed)]);
    expect(readImageHeader(lossless)).toEqual({ format: "webp", width: 640, height: 480 });
    const extended = riff("VP8X", [0, 0, 0, 0, 639 & 255, 639 >> 8, 0, 479 & 255, 479 >> 8, 0]);
    expect(readImageHeader(extended)).toEqual({ format: "webp", width: 640, height: 480 });
  });

  it("reads GIF and BMP (including top-down) headers", () => {
    expect(readImageHeader(bytes("GIF89a", u16le(320), u16le(200)))).toEqual({ format: "gif", width: 320, height: 200 });
    const bmp = bytes("BM", u32le(0), u32le(0), u32le(54), u32le(40), u32le(800), u32le(-600 >>> 0));
    expect(readImageHeader(bmp)).toEqual({ format: "bmp", width: 800, height: 600 });
  });

  it("returns null for bytes that are not an image, whatever their name", () => {
    expect(readImageHeader(new TextEncoder().encode("%PDF-1.7 not a photo"))).toBeNull();
    expect(readImageHeader(new Uint8Array())).toBeNull();
  });
});
