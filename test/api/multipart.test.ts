import { describe, expect, it } from "vitest";
import {
  MalformedMultipartError,
  multipartBoundary,
  readMultipart,
  type MultipartEvent,
  type PartHeaders,
} from "~/server/http/multipart.server";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `body` to the reader in chunks of `chunkSize` bytes (1 = every possible split point). */
function streamOf(body: Uint8Array, chunkSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

interface Part {
  headers: PartHeaders;
  text: string;
}

async function parts(body: string | Uint8Array, boundary: string, chunkSize = 1 << 20): Promise<Part[]> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const out: Part[] = [];
  let chunks: Uint8Array[] = [];
  for await (const event of readMultipart(streamOf(bytes, chunkSize), boundary) as AsyncIterable<MultipartEvent>) {
    if (event.type === "part") {
      out.push({ headers: event.headers, text: "" });
      chunks = [];
    } else if (event.type === "data") {
      chunks.push(event.bytes);
    } else {
      out[out.length - 1].text = decoder.decode(new Uint8Array(chunks.flatMap((c) => Array.from(c))));
    }
  }
  return out;
}

describe("multipartBoundary", () => {
  it("reads plain and quoted boundaries and rejects other types", () => {
    expect(multipartBoundary("multipart/form-data; boundary=----WebKitFormBoundaryAbC")).toBe("----WebKitFormBoundaryAbC");
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("application/json")).toBeNull();
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
  });
});

describe("readMultipart", () => {
  it("matches what the platform's own FormData encoder produces, at every chunk split", async () => {
    const form = new FormData();
    form.append("title", "Hello");
    form.append("images", new File(["\r\n--not-the-boundary\r\n binary \u00e9"], "ü photo.jpg", { type: "image/jpeg" }));
    form.append("images", new File([""], "", { type: "application/octet-stream" }));
    const response = new Response(form);
    const boundary = multipartBoundary(response.headers.get("Content-Type"))!;
    const body = new Uint8Array(await response.arrayBuffer());

    for (const chunkSize of [1, 2, 7, 64, body.length]) {
      const result = await parts(body, boundary, chunkSize);
      expect(result, `chunk size ${chunkSize}`).toEqual([
        { headers: { name: "title", filename: null, contentType: null }, text: "Hello" },
        { headers: { name: "images", filename: "ü photo.jpg", contentType: "image/jpeg" }, text: "\r\n--not-the-boundary\r\n binary \u00e9" },
        { headers: { name: "images", filename: "", contentType: "application/octet-stream" }, text: "" },
      ]);
    }
  });

  it("finds delimiters that straddle chunks of every size around the delimiter's length", async () => {
    const boundary = "b0undary-of-twenty-six-ch";
    const near = `\r\n--${boundary.slice(0, -1)}x\r\n-\r\n--${boundary.slice(0, 5)}`; // almost-delimiters inside the data
    const contents = [near.repeat(40), "", "z".repeat(3000) + near, near + "\r"];
    const body =
      "preamble " + near + "\r\n" +
      contents.map((text, i) => `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="f${i}.jpg"\r\n\r\n${text}\r\n`).join("") +
      `--${boundary}--\r\n`;
    const expected = contents.map((text, i) => ({ headers: { name: "images", filename: `f${i}.jpg`, contentType: null }, text }));
    const delimiterLength = boundary.length + 4;
    for (const chunkSize of [delimiterLength - 2, delimiterLength - 1, delimiterLength, delimiterLength + 1, 2 * delimiterLength - 1, 97, 1000]) {
      expect(await parts(body, boundary, chunkSize), `chunk size ${chunkSize}`).toEqual(expected);
    }
  });

  it("ignores preamble, epilogue and transport padding and decodes filename*", async () => {
    const body =
      "preamble to ignore\r\n--b  \r\n" +
      "Content-Disposition: form-data; name=\"images\"; filename=\"fallback.jpg\"; filename*=UTF-8''%E2%98%83.jpg\r\n\r\n" +
      "snow\r\n--b--\r\nepilogue";
    expect(await parts(body, "b")).toEqual([
      { headers: { name: "images", filename: "☃.jpg", contentType: null }, text: "snow" },
    ]);
  });

  it("throws MalformedMultipartError for a body cut short or parts without form-data headers", async () => {
    await expect(parts('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated', "b")).rejects.toBeInstanceOf(MalformedMultipartError);
    await expect(parts("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "b")).rejects.toBeInstanceOf(MalformedMultipartError);
    await expect(parts("no boundary at all", "b")).rejects.toBeInstanceOf(MalformedMultipartError);
  });

  it("throws MalformedMultipartError for part headers that are not UTF-8 (the library reads them as UTF-8 only)", async () => {
    const latin1Name = new Uint8Array([
      ...encoder.encode('--b\r\nContent-Disposition: form-data; name="images"; filename="caf'),
      0xe9,
      ...encoder.encode('.jpg"\r\n\r\nx\r\n--b--'),
    ]);
    await expect(parts(latin1Name, "b")).rejects.toBeInstanceOf(MalformedMultipartError);
  });
});
