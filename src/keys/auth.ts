// The server's view of API keys: the key ring loaded from the keys file, reloaded when the file
// changes (stat polling) or on demand (SIGHUP), and the per-request check the server runs before
// the rate limiter. The result of each request's check is kept for the access log.
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { INVALID_API_KEY } from '../schemas/api-keys.ts';
import { readKeysFile } from './file.ts';
import { KeyRing, presentedKey } from './keys.ts';

/** The outcome of checking a request's key: none presented, a valid key (by id), or 401. */
export type KeyCheck = { status: 'none' } | { status: 'valid'; id: string } | { status: 'invalid' };

/** A valid key gets this many times the base budget (the Pro tier preview: 10 × 1,000 = 10,000 a day). */
export const KEY_BUDGET_FACTOR = 10;

export const INVALID_API_KEY_BYTES = Buffer.from(JSON.stringify(INVALID_API_KEY));
/** RFC 6750 §3: the challenge sent with the 401. */
export const WWW_AUTHENTICATE = 'Bearer realm="rtp-registry", error="invalid_token"';

const NONE: KeyCheck = { status: 'none' };
const INVALID: KeyCheck = { status: 'invalid' };

export interface KeyAuthOptions {
  file: string;
  /** How often the file's stat is polled for changes (ms); 0 disables watching. */
  pollMs?: number;
  log?: (line: string) => void;
}

export class KeyAuth {
  readonly file: string;
  private ring = new KeyRing([]);
  private readonly log: (line: string) => void;
  private readonly checks = new WeakMap<IncomingMessage, KeyCheck>();
  private readonly pollMs: number;
  private watching = false;
  private loading: Promise<void> | null = null;
  private again = false;

  private constructor(options: KeyAuthOptions) {
    this.file = options.file;
    this.pollMs = options.pollMs ?? 2000;
    this.log = options.log ?? ((line) => console.error(line));
  }

  /** Loads the keys file (a missing file: no keys) and starts watching it. Throws when it is invalid. */
  static async open(options: KeyAuthOptions): Promise<KeyAuth> {
    const auth = new KeyAuth(options);
    auth.ring = new KeyRing((await readKeysFile(auth.file)).keys);
    if (auth.pollMs > 0) {
      auth.watching = true;
      watchFile(auth.file, { interval: auth.pollMs, persistent: false }, auth.onChange);
    }
    return auth;
  }

  /** Keys in the ring (revoked ones included). */
  get size(): number {
    return this.ring.size;
  }

  private readonly onChange = (curr: Stats, prev: Stats): void => {
    if (curr.mtimeMs !== prev.mtimeMs || curr.ino !== prev.ino || curr.size !== prev.size) void this.reload();
  };

  /** Re-reads the keys file; on error the keys in force stay and the problem is logged. */
  reload(): Promise<void> {
    if (this.loading !== null) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          const data = await readKeysFile(this.file);
          this.ring = new KeyRing(data.keys);
          this.log(`api keys: loaded ${data.keys.length} key(s) from ${this.file}`);
        } catch (err) {
          this.log(`api keys: keeping the ${this.ring.size} key(s) in force: cannot load ${this.file}: ${err instanceof Error ? err.message : String(err)}`);
        }
      } while (this.again);
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Checks the key a request presents (if any) and remembers the outcome for the access log. */
  check(req: IncomingMessage): KeyCheck {
    const presented = presentedKey(req.headers.authorization, req.headers['x-api-key']);
    let result: KeyCheck;
    if (presented.kind === 'none') result = NONE;
    else if (presented.kind === 'malformed') result = INVALID;
    else {
      const record = this.ring.verify(presented.key);
      result = record === null ? INVALID : { status: 'valid', id: record.id };
    }
    if (result !== NONE) this.checks.set(req, result);
    return result;
  }

  /** The check made for `req`, if it presented a key. */
  checked(req: IncomingMessage): KeyCheck {
    return this.checks.get(req) ?? NONE;
  }

  close(): void {
    if (this.watching) unwatchFile(this.file, this.onChange);
    this.watching = false;
  }
}
