// Backpressure against clients that do not read their answers. Every byte a response writes that
// the kernel does not take at once is counted as unsent until Node has handed it over (or the
// response or its connection closed), per connection and in the process:
//   - Node stops reading a connection whose socket needs draining (it pauses the socket and its
//     parser, and resumes them on `drain`), so an unread connection stops being parsed;
//   - requests Node had already read from it wait, unanswered, while the connection holds more
//     than MAX_UNSENT_KB_PER_CONNECTION, and are answered in turn as its client reads; a
//     connection with more than MAX_WAITING_PER_CONNECTION requests waiting is closed;
//   - past MAX_UNSENT_MB in the process, new requests get a 503 until answers drain.
// The counting is a ServerResponse subclass, given to http.createServer (its `ServerResponse` option).
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { http } from './node-http.ts';

/** Requests one connection may have waiting for its client to read; past it, it is closed. */
export const MAX_WAITING_PER_CONNECTION = 256;

export interface UnsentLimits {
  /** Unsent bytes one connection may hold before its next requests wait. */
  connectionBytes: number;
  /** Unsent bytes in the process past which new requests get a 503. */
  processBytes: number;
}

/** What to do with a request that has just arrived. */
export type Admission = 'serve' | 'wait' | 'close' | 'shed';

interface Account {
  bytes: number;
  open: boolean;
  /** Requests waiting for the connection to drain, in arrival order. */
  waiting: Array<() => void>;
  /** A drain of `waiting` is scheduled. */
  draining: boolean;
  socket: Socket;
}

/** Unsent bytes per connection and in all, and the requests waiting on them. */
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

  /** The verdict on a request arriving on `socket` (`resumed`: one that waited and now runs). */
  admit(socket: Socket, resumed = false): Admission {
    if (socket.destroyed) return 'close';
    const account = this.accounts.get(socket);
    // Behind requests already waiting, a new one waits too: answers are made in arrival order.
    if (!resumed && account !== undefined && (account.bytes > this.limits.connectionBytes || account.waiting.length > 0)) return 'wait';
    return this.total > this.limits.processBytes ? 'shed' : 'serve';
  }

  /**
   * Puts a request whose verdict was `wait` in its connection's line: `run` is called once the
   * connection holds no more than its bound. False when the line is full (close the connection).
   */
  wait(socket: Socket, run: () => void): boolean {
    const account = this.account(socket);
    if (account.waiting.length >= MAX_WAITING_PER_CONNECTION) return false;
    account.waiting.push(run);
    // Nothing more is read from the connection while its requests wait (resumed once they ran).
    // Paused on every wait, not only the first: Node resumes a socket on 'drain' by itself.
    socket.pause();
    return true;
  }

  /** Counts `n` bytes written on `socket`; the returned function gives them back (once). */
  hold(socket: Socket, n: number): () => void {
    const account = this.account(socket);
    if (!account.open) return () => undefined;
    account.bytes += n;
    this.total += n;
    let given = false;
    return () => {
      if (given || !account.open) return;
      given = true;
      account.bytes -= n;
      this.total -= n;
      if (account.waiting.length > 0 && account.bytes <= this.limits.connectionBytes && !account.draining) {
        account.draining = true;
        // Out of the write callback that gave the bytes back: the waiting requests run on their own turn.
        setImmediate(() => this.drain(account));
      }
    };
  }

  private drain(account: Account): void {
    account.draining = false;
    while (account.open && account.waiting.length > 0 && account.bytes <= this.limits.connectionBytes) account.waiting.shift()!();
    if (account.open && account.waiting.length === 0) account.socket.resume();
  }

  private account(socket: Socket): Account {
    const account = this.accounts.get(socket);
    if (account !== undefined) return account;
    const created: Account = { bytes: 0, open: !socket.destroyed, waiting: [], draining: false, socket };
    this.accounts.set(socket, created);
    // A connection that closes gives back all it still holds, and its waiting requests are dropped.
    socket.once('close', () => {
      created.open = false;
      this.total -= created.bytes;
      created.bytes = 0;
      created.waiting.length = 0;
    });
    return created;
  }
}

type Chunk = string | Uint8Array | undefined | null | ((error?: Error | null) => void);

const lengthOf = (chunk: Chunk, encoding: unknown): number =>
  typeof chunk === 'string'
    ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
    : chunk instanceof Uint8Array
      ? chunk.byteLength
      : 0;

type Callback = (error?: Error | null) => void;

/**
 * A ServerResponse class whose unsent bytes count in `ledger`: what the kernel did not take at
 * once (the growth of the socket's backlog; all of an answer queued behind another on its
 * connection), until Node has flushed it (the write's callback) or the response or its
 * connection closes.
 */
export function countedResponse(ledger: UnsentLedger): typeof ServerResponse {
  class CountedResponse extends http.ServerResponse {
    private held: Array<() => void> | null = null;

    /** Passes a chunk on through `pass`, counting what of it stays in Node's buffers. */
    private counted<R>(chunk: Chunk, encoding: unknown, callback: Callback | undefined, pass: (callback: Callback | undefined) => R): R {
      const n = lengthOf(chunk, encoding);
      if (n === 0) return pass(callback);
      let give: (() => void) | null = null;
      const before = this.socket?.writableLength ?? 0;
      const result = pass((error) => {
        give?.();
        callback?.(error);
      });
      const socket = this.socket;
      const held = socket === null || socket === undefined ? n : Math.min(n, Math.max(0, socket.writableLength - before));
      if (held > 0) {
        give = ledger.hold(this.req.socket, held);
        if (this.held === null) {
          const all: Array<() => void> = [];
          this.held = all;
          this.once('close', () => {
            for (const back of all) back();
          });
        }
        this.held.push(give);
      }
      return result;
    }

    override write(chunk: Chunk, encoding?: unknown, callback?: unknown): boolean {
      const [enc, cb] = typeof encoding === 'function' ? [undefined, encoding as Callback] : [encoding, callback as Callback | undefined];
      return this.counted(chunk, enc, cb, (c) => (super.write as (...args: unknown[]) => boolean)(chunk, enc, c));
    }

    override end(chunk?: Chunk, encoding?: unknown, callback?: unknown): this {
      if (typeof chunk === 'function') return (super.end as (...args: unknown[]) => this)(chunk);
      const [enc, cb] = typeof encoding === 'function' ? [undefined, encoding as Callback] : [encoding, callback as Callback | undefined];
      return this.counted(chunk, enc, cb, (c) => (super.end as (...args: unknown[]) => this)(chunk, enc, c));
    }
  }
  return CountedResponse as unknown as typeof ServerResponse;
}
