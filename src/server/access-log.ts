// The structured access log: one JSON line per request, gathered into batches and written through
// SonicBoom, an asynchronous destination (ACCESS_LOG=stdout, a file path, or off). Fields, in order:
//   type ("access", to tell these lines from the server's other output), time (ISO 8601, when the
//   response ended), method, path (no query string: queries carry user text and sometimes
//   misplaced secrets), status, duration_ms, bytes, client ("key:<id>" or "ip:<salted hash>"),
//   auth ("key", "invalid" or "none"), rate_limit_remaining (null when not counted), aborted (only
//   when the client went away first).
// Never logged: raw IP addresses, keys (a key-shaped string in a path is redacted), Authorization
// or X-API-Key values, query strings.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import sonicBoom, { type SonicBoom } from 'sonic-boom';
import type { KeyCheck } from '../keys/auth.ts';
import { clientIp, type TrustProxy } from './client-ip.ts';
import { http } from './node-http.ts';

/** Most bytes of access-log lines waiting for the output (stdout or the file) before lines are dropped. */
export const ACCESS_LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** Bytes of lines gathered before a write, and the longest a line waits for its batch (ms). */
export const ACCESS_LOG_BATCH_BYTES = 32 * 1024;
export const ACCESS_LOG_FLUSH_MS = 200;
/** Client address hashes kept (a cache, dropped wholesale when full), and the heap each takes at most. */
export const ACCESS_LOG_HASHES = 10_000;
export const ACCESS_LOG_HASH_BYTES = 256;

export type AccessLogTarget = { kind: 'off' } | { kind: 'stdout' } | { kind: 'file'; path: string };

/** ACCESS_LOG: `off`, `stdout`, or a file path (appended to); unset means `stdout`. */
export function accessLogTarget(env: NodeJS.ProcessEnv = process.env): AccessLogTarget {
  const raw = env.ACCESS_LOG?.trim();
  if (raw === undefined || raw === '' || raw === 'stdout') return { kind: 'stdout' };
  if (raw === 'off') return { kind: 'off' };
  return { kind: 'file', path: raw };
}

/** The fields of a line after `type` and `time`, in order. */
export interface AccessLogEntry {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  bytes: number | null;
  client: string;
  auth: 'key' | 'invalid' | 'none';
  rate_limit_remaining: number | null;
  aborted?: true;
}

const KEY_LIKE = /rtp_live_[0-9A-Za-z]*/g;
const MAX_PATH = 512;

/** The request path as logged: no query, key-shaped text redacted, at most 512 characters. */
export function loggedPath(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  let p = q < 0 ? raw : raw.slice(0, q);
  if (p.includes('rtp_live_')) p = p.replace(KEY_LIKE, 'rtp_live_[redacted]');
  return p.length > MAX_PATH ? `${p.slice(0, MAX_PATH)}…` : p;
}

/** `ip:` and the first 16 hex digits of SHA-256(salt, address): stable per salt, not reversible by lookup. */
export function hashedClient(address: string, salt: string): string {
  return `ip:${createHash('sha256').update(salt).update('\0').update(address).digest('hex').slice(0, 16)}`;
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (Array.isArray(headers)) {
    // Flat [name, value, name, value…] as the server writes them, or [[name, value]…].
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const pair of headers as Array<[string, unknown]>) if (String(pair[0]).toLowerCase() === name) return String(pair[1]);
      return undefined;
    }
    for (let k = 0; k + 1 < headers.length; k += 2) {
      const key = headers[k];
      if (typeof key === 'string' && key.length === name.length && key.toLowerCase() === name) return String(headers[k + 1]);
    }
    return undefined;
  }
  if (headers !== null && typeof headers === 'object') {
    for (const [key, value] of Object.entries(headers as OutgoingHttpHeaders)) if (key.toLowerCase() === name) return String(value);
  }
  return undefined;
}

export interface AccessLogOptions {
  target: Exclude<AccessLogTarget, { kind: 'off' }>;
  /** Proxies trusted for X-Forwarded-For (the same setting as the rate limiter). */
  trustProxy: TrustProxy;
  /** Salt of the IP hashes (ACCESS_LOG_SALT); random per process when absent. */
  salt?: string;
  /** The API key check made for a request, if any. */
  keyCheck?: (req: IncomingMessage) => KeyCheck;
  /** Test hook: write each line at once, synchronously (default: asynchronous, in batches). */
  sync?: boolean;
}

/** A line's `time`: ISO 8601 in UTC with milliseconds, made once per millisecond. */
let isoAt = Number.NaN;
let isoText = '';
function isoNow(): string {
  const now = Date.now();
  if (now !== isoAt) {
    isoAt = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/**
 * One access-log line: `{"type":"access","time":…}` then the entry's fields in AccessLogEntry's
 * order, exactly as `JSON.stringify({ type: 'access', time, ...entry })` writes them, and a newline.
 */
export function accessLine(time: string, e: AccessLogEntry): string {
  return `{"type":"access","time":"${time}","method":${JSON.stringify(e.method)},"path":${JSON.stringify(e.path)},"status":${e.status},"duration_ms":${e.duration_ms},"bytes":${e.bytes},"client":${JSON.stringify(e.client)},"auth":"${e.auth}","rate_limit_remaining":${e.rate_limit_remaining}${e.aborted === true ? ',"aborted":true' : ''}}\n`;
}

// The package's types describe an ES default export; at run time the default import is the class
// itself (its module.exports).
const Destination = sonicBoom as unknown as typeof SonicBoom;

const STARTED = Symbol('accessLogStarted');
const HEAD = Symbol('accessLogHead');
type Tracked = ServerResponse & { [STARTED]: number; [HEAD]?: unknown };

/** writeHead that keeps the headers: the server sends them as an array, which res.getHeader cannot see. */
function keepHead(this: Tracked, ...args: unknown[]): ServerResponse {
  this[HEAD] = typeof args[1] === 'string' ? args[2] : args[1];
  return (http.ServerResponse.prototype.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
}

/**
 * The output on stdout or a file (SonicBoom), asynchronous unless `sync`. Bounded by bytes: when it
 * cannot keep up, writes past ACCESS_LOG_BUFFER_BYTES of backlog are dropped (SonicBoom's
 * maxLength) rather than held in memory.
 */
export function accessLogOutput(target: Exclude<AccessLogTarget, { kind: 'off' }>, sync = false): SonicBoom {
  return new Destination({ dest: target.kind === 'stdout' ? 1 : target.path, sync, maxLength: ACCESS_LOG_BUFFER_BYTES, mkdir: target.kind === 'file' });
}

export class AccessLog {
  private readonly destination: SonicBoom;
  private readonly salt: string;
  private readonly trustProxy: TrustProxy;
  private readonly keyCheck: ((req: IncomingMessage) => KeyCheck) | undefined;
  private readonly toFile: boolean;
  private readonly sync: boolean;
  private readonly hashes = new Map<string, string>();
  /** Lines not yet handed to the destination (fewer than ACCESS_LOG_BATCH_BYTES). */
  private pending = '';
  private readonly timer: NodeJS.Timeout | undefined;
  /** The 'close' listener of every tracked response (one function, no closure per request). */
  private readonly onClose: (this: ServerResponse) => void;

  constructor(options: AccessLogOptions) {
    this.sync = options.sync === true;
    this.destination = accessLogOutput(options.target, this.sync);
    // Lines go out in batches of 32 KiB (some 150 lines), and at least every ACCESS_LOG_FLUSH_MS (an
    // unref'd timer): an asynchronous write costs some 25 µs of CPU (a thread-pool round trip), far
    // more than building a line.
    this.timer = this.sync ? undefined : setInterval(() => this.flush(), ACCESS_LOG_FLUSH_MS).unref();
    this.salt = options.salt !== undefined && options.salt !== '' ? options.salt : randomBytes(16).toString('hex');
    this.trustProxy = options.trustProxy;
    this.keyCheck = options.keyCheck;
    this.toFile = options.target.kind === 'file';
    const log = this;
    this.onClose = function (this: ServerResponse) {
      log.write(this as Tracked);
    };
  }

  /**
   * Starts timing a request; its line is written when the response is done ('close', which
   * follows 'finish'), marked aborted when the client left before the answer was sent.
   */
  track(_req: IncomingMessage, res: ServerResponse): void {
    const tracked = res as Tracked;
    tracked[STARTED] = performance.now();
    tracked.writeHead = keepHead as Tracked['writeHead'];
    res.on('close', this.onClose);
  }

  private write(res: Tracked): void {
    const ms = performance.now() - res[STARTED];
    const req = res.req;
    const written = res[HEAD];
    const remaining = headerValue(written, 'x-ratelimit-remaining') ?? stringHeader(res.getHeader('x-ratelimit-remaining'));
    const length = headerValue(written, 'content-length') ?? stringHeader(res.getHeader('content-length'));
    const check = this.keyCheck?.(req) ?? { status: 'none' };
    const client =
      check.status === 'valid' ? `key:${check.id}` : this.clientHash(clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'], this.trustProxy));
    const entry: AccessLogEntry = {
      method: req.method ?? '',
      path: loggedPath(req.url),
      status: res.statusCode,
      duration_ms: Math.round(ms * 1000) / 1000,
      bytes: length !== undefined && /^[0-9]+$/.test(length) ? Number(length) : null,
      client,
      auth: check.status === 'valid' ? 'key' : check.status,
      rate_limit_remaining: remaining !== undefined && /^[0-9]+$/.test(remaining) ? Number(remaining) : null,
    };
    if (!res.writableFinished) entry.aborted = true;
    const line = accessLine(isoNow(), entry);
    if (this.sync) return void this.destination.write(line);
    this.pending += line;
    if (this.pending.length >= ACCESS_LOG_BATCH_BYTES) this.flush();
  }

  /** Hands the gathered lines to the destination. */
  private flush(): void {
    if (this.pending === '') return;
    const batch = this.pending;
    this.pending = '';
    this.destination.write(batch);
  }

  /** The hashed client of an address, remembered for the next requests of the same client. */
  private clientHash(address: string): string {
    let hashed = this.hashes.get(address);
    if (hashed === undefined) {
      // Bounded: dropped wholesale when full (a cache, not a record of clients).
      if (this.hashes.size >= ACCESS_LOG_HASHES) this.hashes.clear();
      hashed = hashedClient(address, this.salt);
      this.hashes.set(address, hashed);
    }
    return hashed;
  }

  /** Writes out what is buffered and closes the destination. */
  close(): Promise<void> {
    clearInterval(this.timer);
    this.flush();
    return new Promise((resolve) => {
      try {
        this.destination.flushSync();
      } catch {
        // nothing buffered, or the destination is not open yet
      }
      if (!this.toFile) return resolve();
      this.destination.once('close', () => resolve());
      this.destination.end();
    });
  }
}

function stringHeader(value: number | string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The access log ACCESS_LOG asks for, or null when it is off. */
export function createAccessLog(env: NodeJS.ProcessEnv, options: Omit<AccessLogOptions, 'target' | 'salt'>): AccessLog | null {
  const target = accessLogTarget(env);
  if (target.kind === 'off') return null;
  return new AccessLog({ ...options, target, salt: env.ACCESS_LOG_SALT });
}
