/** One contiguous copy of chunks read off a stream. */
export function joinChunks(chunks: Uint8Array[], totalLength: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(totalLength);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** A request body read whole, refused with `tooLarge` the moment it passes `limit` bytes. */
export async function readStreamUpTo(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  tooLarge: () => Response,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.length;
    if (length > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  return joinChunks(chunks, length);
}
