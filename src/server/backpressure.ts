// Backpressure against clients that do not read their answers. Every byte a response writes is
// counted as unsent until Node has handed it to the kernel (the response's `close`, or its
// connection's), per connection and in the process:
//   - Node stops reading a connection whose socket needs draining (it pauses the socket and its
//     parser, and resumes them on `drain`), so an unread connection stops being parsed;
//   - requests already read in the same chunk still arrive: one arriving on a connection past
//     MAX_UNSENT_KB_PER_CONNECTION closes that connection, unanswered;
//   - past MAX_UNSENT_MB in the process, new requests get a 503 until answers drain.
// The counting is a ServerResponse subclass, given to http.createServer (its `ServerResponse` option).
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { http } from './node-http.ts';

export interface UnsentLimits {
  /** Unsent bytes one connection may hold before a new request on it closes it. */
  connectionBytes: number;
  /** Unsent bytes in the process past which new requests get a 503. */
  processBytes: number;
}

/** What to do with a request that has just arrived. */
export type Admission = 'serve' | 'close' | 'shed';

interface Account {
  bytes: number;
  open: boolean;
}

/** Unsent bytes per connection and in all. */
export class UnsentLedger {
  private total = 0;
  private readonly accounts = new WeakMap<Socket, Account>();

  readonly limits: UnsentLimits;

  constructor(limits: UnsentLimits) {
    this.limits = limits;
  }

  /** Unsent bytes in the process. */
  get bytes(): number {
    return this.total;
  }

  /** Unsent bytes of one connection. */
  of(socket: Socket): number {
    return this.accounts.get(socket)?.bytes ?? 0;
  }

  /** The verdict on a request arriving on `socket`. */
  admit(socket: Socket): Admission {
    if (socket.destroyed || this.of(socket) > this.limits.connectionBytes) return 'close';
    return this.total > this.limits.processBytes ? 'shed' : 'serve';
  }

  /** Counts `n` bytes written on `socket`; the returned function gives them back (once). */
  hold(socket: Socket, n: number): () => void {
    let account = this.accounts.get(socket);
    if (account === undefined) {
      account = { bytes: 0, open: !socket.destroyed };
      this.accounts.set(socket, account);
      const closing = account;
      // A connection that closes gives back all it still holds, whether or not its responses close.
      socket.once('close', () => {
        closing.open = false;
        this.total -= closing.bytes;
        closing.bytes = 0;
      });
    }
    if (!account.open) return () => undefined;
    account.bytes += n;
    this.total += n;
    const held = account;
    let given = false;
    return () => {
      if (given || !held.open) return;
      given = true;
      held.bytes -= n;
      this.total -= n;
    };
  }
}

type Chunk = string | Uint8Array | undefined | null | ((error?: Error | null) => void);

const lengthOf = (chunk: Chunk, encoding: unknown): number =>
  typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk instanceof Uint8Array ? chunk.byteLength : 0;

type Callback = (error?: Error | null) => void;

/**
 * A ServerResponse class whose written bytes count in `ledger` until Node has flushed them (each
 * write's callback), or the response or its connection closes.
 */
export function countedResponse(ledger: UnsentLedger): typeof ServerResponse {
  class CountedResponse extends http.ServerResponse {
    private held: Array<() => void> | null = null;

    /** Counts a chunk; the callback to pass on instead of `callback`. */
    private count(chunk: Chunk, encoding: unknown, callback: Callback | undefined): Callback | undefined {
      const n = lengthOf(chunk, encoding);
      if (n === 0) return callback;
      if (this.held === null) {
        const held: Array<() => void> = [];
        this.held = held;
        this.once('close', () => {
          for (const give of held) give();
        });
      }
      const give = ledger.hold(this.req.socket, n);
      this.held.push(give);
      return (error) => {
        give();
        callback?.(error);
      };
    }

    override write(chunk: Chunk, encoding?: unknown, callback?: unknown): boolean {
      const [enc, cb] = typeof encoding === 'function' ? [undefined, encoding as Callback] : [encoding, callback as Callback | undefined];
      return (super.write as (...args: unknown[]) => boolean)(chunk, enc, this.count(chunk, enc, cb));
    }

    override end(chunk?: Chunk, encoding?: unknown, callback?: unknown): this {
      if (typeof chunk === 'function') return (super.end as (...args: unknown[]) => this)(chunk);
      const [enc, cb] = typeof encoding === 'function' ? [undefined, encoding as Callback] : [encoding, callback as Callback | undefined];
      return (super.end as (...args: unknown[]) => this)(chunk, enc, this.count(chunk, enc, cb));
    }
  }
  return CountedResponse as unknown as typeof ServerResponse;
}
