/**
 * A fixed block of memory that copies are written into one after another, wrapping round at its
 * end, so the oldest are overwritten first. A copy is known by the position it was written at
 * (a count of bytes that only grows), which tells whether it has been overwritten since.
 *
 * One allocation for the process's life, bounded in bytes rather than in pages (a result page is
 * four times a product page), made on the first write and filled with zeros at once, so no write
 * pays for the operating system handing it fresh memory.
 */
export class ByteRing {
  readonly capacity: number;
  #bytes: Buffer | null = null;
  #written = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Writes the chunks as one copy; null when it is larger than a quarter of the ring. */
  write(chunks: readonly Uint8Array[], length: number): number | null {
    if (length > this.capacity / 4) return null;
    this.#bytes ??= Buffer.alloc(this.capacity);
    let start = this.#written;
    // A copy never wraps: when it does not fit before the end, it starts again at the beginning.
    const room = this.capacity - (start % this.capacity);
    if (length > room) start += room;
    let offset = start % this.capacity;
    for (const chunk of chunks) {
      this.#bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.#written = start + length;
    return start;
  }

  /** Whether the copy written at `start` is still whole. */
  holds(start: number): boolean {
    return this.#bytes !== null && this.#written - start <= this.capacity;
  }

  /** A new Buffer with the copy's bytes (the ring's own may be overwritten while a reply is sent). */
  read(start: number, length: number): Buffer {
    const offset = start % this.capacity;
    const out = Buffer.allocUnsafe(length);
    this.#bytes!.copy(out, 0, offset, offset + length);
    return out;
  }
}
