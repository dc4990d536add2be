/**
 * Where the PDF's bytes go as they are written. In the Worker: an R2 multipart upload, so the
 * file never exists whole in memory; at most one part is buffered.
 */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
  /** Everything written: make the file exist. */
  close(): Promise<void>;
  /** Something failed: throw away what was written. */
  abort(): Promise<void>;
}

/**
 * R2 takes parts of at least 5 MiB except the last, and wants every part but the last the same
 * size, so parts are exactly PART_SIZE. 5 MiB keeps the buffer (the one big allocation of the
 * job beside one page's PNG) as small as R2 allows.
 */
export const PART_SIZE = 5 * 1024 * 1024;

export class R2MultipartSink implements ByteSink {
  private upload: R2MultipartUpload | null = null;
  private readonly parts: R2UploadedPart[] = [];
  /** The part being filled; made when the first byte of a part arrives. */
  private buffer: Uint8Array | null = null;
  private filled = 0;

  constructor(
    private readonly bucket: R2Bucket,
    private readonly key: string,
    private readonly options: R2MultipartOptions = {},
  ) {}

  async write(bytes: Uint8Array): Promise<void> {
    let from = 0;
    while (from < bytes.length) {
      this.buffer ??= new Uint8Array(PART_SIZE);
      const take = Math.min(bytes.length - from, PART_SIZE - this.filled);
      this.buffer.set(bytes.subarray(from, from + take), this.filled);
      this.filled += take;
      from += take;
      if (this.filled === PART_SIZE) await this.flush();
    }
  }

  async close(): Promise<void> {
    if (this.filled > 0 || this.parts.length === 0) await this.flush();
    await this.upload!.complete(this.parts);
  }

  async abort(): Promise<void> {
    await this.upload?.abort();
  }

  private async flush(): Promise<void> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, this.options);
    const part = (this.buffer ?? new Uint8Array(0)).subarray(0, this.filled);
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, part));
    // The next part gets a fresh buffer: the runtime may still hold this one's bytes.
    this.buffer = null;
    this.filled = 0;
  }
}
