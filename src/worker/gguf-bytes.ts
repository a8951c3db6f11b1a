// Where a GGUF's bytes come from (a Blob, or an HTTP response's body), and a
// little-endian reader over them that knows how far into the file it is and
// how much of the file is left, so a declared length can be checked before
// anything is read or allocated. It reads in linear time: its buffer grows
// geometrically, and bytes passed over are never copied (a Blob seeks).

/** The file's bytes in order, a chunk at a time. */
export interface ByteSource {
  /** The whole file's size, where known (a Blob's, an HTTP Content-Range or Content-Length): no declared length may reach past it. */
  readonly size: number | undefined;
  /** The next bytes, or an empty array at the end. */
  next(): Promise<Uint8Array>;
  /** Passes over n bytes without reading them (a source that can seek); fewer at the file's end. */
  skip?(n: number): Promise<number>;
  close(): Promise<void>;
}

/** The source ended before the file did: a window on the file (an HTTP Range), or a dropped connection. Not the file's fault. */
export class SourceEndedError extends Error {
  constructor(readonly position: number) {
    super(`the source ended at byte ${position}, before the file's metadata did`);
  }
}

/** A file read by ranges (a Blob's slices): `read(start, end)` gives those bytes; each read is one chunk at most. */
export function rangeSource(size: number, read: (start: number, end: number) => Promise<Uint8Array>, chunk = 1 << 20): ByteSource {
  let at = 0;
  return {
    size,
    async next() {
      const end = Math.min(size, at + chunk);
      if (end <= at) return new Uint8Array(0);
      const part = await read(at, end);
      at += part.byteLength;
      return part;
    },
    async skip(n) {
      const passed = Math.min(n, size - at);
      at += passed;
      return passed;
    },
    close: async () => undefined,
  };
}

export function blobSource(blob: Blob, chunk = 1 << 20): ByteSource {
  return rangeSource(blob.size, async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()), chunk);
}

/**
 * A stream's bytes; `size`: the file's, where the sender said; `limit`: the
 * most to read of it (the stream ends there), for a server that ignores the
 * Range asked and sends the whole file.
 */
export function streamSource(stream: ReadableStream<Uint8Array>, options: { size?: number; limit?: number } = {}): ByteSource {
  const reader = stream.getReader();
  let left = options.limit ?? Infinity;
  return {
    size: options.size,
    async next() {
      if (left <= 0) return new Uint8Array(0);
      const { done, value } = await reader.read();
      if (done) return new Uint8Array(0);
      const part = value.byteLength > left ? value.subarray(0, left) : value;
      left -= part.byteLength;
      return part;
    },
    // The rest of the body is not wanted: the connection goes.
    close: () => reader.cancel().catch(() => undefined),
  };
}

/** An HTTP response's body, at most `limit` bytes of it, and the file's size as the response states it. */
export function responseSource(response: Response, limit: number): ByteSource {
  return streamSource(response.body ?? new ReadableStream(), { size: fileSizeOf(response), limit });
}

/**
 * The whole file's size: a 206's Content-Range total (RFC 9110 §14.4), or a
 * 200's Content-Length where the body is sent as it is (an encoded body's
 * length is not the file's).
 */
function fileSizeOf(response: Response): number | undefined {
  const whole = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);
  if (response.status === 206) return whole(/^bytes \d+-\d+\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '')?.[1]);
  const encoding = response.headers.get('Content-Encoding');
  if (response.status === 200 && (!encoding || encoding === 'identity')) return whole(response.headers.get('Content-Length') ?? undefined);
  return undefined;
}

/**
 * Little-endian reads over a ByteSource. The bytes `bytes(n)` returns are
 * valid until the next read (the buffer is reused), so they are decoded at once.
 */
export class ByteReader {
  #buffer = new Uint8Array(0);
  #start = 0;
  #end = 0;
  /** Bytes of the file consumed so far. */
  #position = 0;

  constructor(private readonly source: ByteSource) {}

  get position(): number {
    return this.#position;
  }

  /** Bytes of the file after the position: Infinity where the file's size is unknown. */
  get remaining(): number {
    return this.source.size === undefined ? Infinity : this.source.size - this.#position;
  }

  async bytes(n: number): Promise<Uint8Array> {
    while (this.#end - this.#start < n) {
      const chunk = await this.source.next();
      if (chunk.byteLength === 0) throw new SourceEndedError(this.#position + (this.#end - this.#start));
      this.#append(chunk);
    }
    const out = this.#buffer.subarray(this.#start, this.#start + n);
    this.#start += n;
    this.#position += n;
    return out;
  }

  async u32(): Promise<number> {
    return this.#view(await this.bytes(4)).getUint32(0, true);
  }

  async u64(): Promise<bigint> {
    return this.#view(await this.bytes(8)).getBigUint64(0, true);
  }

  async view(n: number): Promise<DataView> {
    return this.#view(await this.bytes(n));
  }

  /** Passes over n bytes: a seeking source seeks; else they are read and dropped, never gathered. */
  async skip(n: number): Promise<void> {
    const buffered = Math.min(n, this.#end - this.#start);
    this.#start += buffered;
    this.#position += buffered;
    let left = n - buffered;
    if (left > 0 && this.source.skip) {
      const passed = await this.source.skip(left);
      this.#position += passed;
      left -= passed;
      if (left > 0) throw new SourceEndedError(this.#position);
    }
    while (left > 0) {
      const chunk = await this.source.next();
      if (chunk.byteLength === 0) throw new SourceEndedError(this.#position);
      const used = Math.min(left, chunk.byteLength);
      this.#position += used;
      left -= used;
      if (used < chunk.byteLength) this.#append(chunk.subarray(used));
    }
  }

  #view(bytes: Uint8Array): DataView {
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  // Amortized linear: the live bytes move to the front only when that frees
  // half the buffer, else the buffer doubles; either copy is paid for by the
  // bytes appended since the last one.
  #append(chunk: Uint8Array): void {
    const live = this.#end - this.#start;
    if (this.#end + chunk.byteLength > this.#buffer.byteLength) {
      const needed = live + chunk.byteLength;
      if (needed <= this.#buffer.byteLength / 2) {
        this.#buffer.copyWithin(0, this.#start, this.#end);
      } else {
        const grown = new Uint8Array(Math.max(needed, this.#buffer.byteLength * 2));
        grown.set(this.#buffer.subarray(this.#start, this.#end));
        this.#buffer = grown;
      }
      this.#start = 0;
      this.#end = live;
    }
    this.#buffer.set(chunk, this.#end);
    this.#end += chunk.byteLength;
  }
}
