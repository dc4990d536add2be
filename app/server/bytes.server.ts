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
