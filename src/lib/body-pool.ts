// Reusable response-body buffers: a body is taken for a response and given back once the socket has
// written it, so a stream of large answers allocates no new memory per request.
//
// Why: every Buffer above 4 KiB is a new ArrayBuffer, memory outside the JavaScript heap that V8
// can only reclaim with a full mark-compact once the response (alive until written) has been
// promoted. At some 40 KB per list answer that meant a full collection every few hundred requests.

/** Smallest and largest body kept for reuse (bodies outside this range are allocated as usual). */
export const POOL_MIN_BYTES = 4 * 1024;
export const POOL_MAX_BYTES = 256 * 1024;

/** Size classes: powers of two from POOL_MIN_BYTES to POOL_MAX_BYTES. */
const CLASSES = Math.log2(POOL_MAX_BYTES / POOL_MIN_BYTES) + 1;

function classOf(size: number): number {
  return size <= POOL_MIN_BYTES ? 0 : Math.ceil(Math.log2(size / POOL_MIN_BYTES));
}

/**
 * A pool of body buffers by size class, holding at most `maxFreeBytes` of free buffers (a buffer
 * given back past that bound is left to the garbage collector). Buffers that are out (being
 * written) are not counted: each belongs to a response in flight.
 */
export class BodyPool {
  private readonly free: ArrayBuffer[][] = Array.from({ length: CLASSES }, () => []);
  /** Every buffer this pool made and that is not free: what `give` accepts. */
  private readonly out = new WeakSet<ArrayBuffer>();
  private freeBytes = 0;
  readonly maxFreeBytes: number;

  constructor(maxFreeBytes: number) {
    this.maxFreeBytes = maxFreeBytes;
  }

  /** A buffer of exactly `size` bytes, uninitialised; from the pool when the size is in its range. */
  take(size: number): Buffer {
    if (size < POOL_MIN_BYTES || size > POOL_MAX_BYTES || this.maxFreeBytes <= 0) return Buffer.allocUnsafe(size);
    const list = this.free[classOf(size)]!;
    let block = list.pop();
    if (block === undefined) block = new ArrayBuffer(POOL_MIN_BYTES << classOf(size));
    else this.freeBytes -= block.byteLength;
    this.out.add(block);
    return Buffer.from(block, 0, size);
  }

  /** Whether `body` was taken from this pool and not given back yet. */
  owns(body: Uint8Array): boolean {
    return this.out.has(body.buffer as ArrayBuffer);
  }

  /**
   * Gives back a body from `take` once nothing reads it any more (the socket has written it, or it
   * was never sent). Anything else, or a body given back twice, is ignored.
   */
  give(body: Uint8Array): void {
    const block = body.buffer as ArrayBuffer;
    if (!this.out.delete(block)) return;
    if (this.freeBytes + block.byteLength > this.maxFreeBytes) return;
    this.free[classOf(block.byteLength)]!.push(block);
    this.freeBytes += block.byteLength;
  }
}
