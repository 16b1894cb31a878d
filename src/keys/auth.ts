// The server's view of API keys: the key ring loaded from the keys file, reloaded when the file
// changes (stat polling, lib/reload.ts) or on demand (SIGHUP), and the per-request check the server runs before
// the rate limiter. The result of each request's check is kept for the access log.
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Reloader } from '../lib/reload.ts';
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

/** What the keys file is now: its identity, size and mtime, or `none` when there is no file. */
async function probeKeysFile(file: string): Promise<string> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw err;
  }
}

export class KeyAuth {
  readonly file: string;
  private readonly reloader: Reloader<string, KeyRing>;
  private readonly checks = new WeakMap<IncomingMessage, KeyCheck>();

  private constructor(file: string, reloader: Reloader<string, KeyRing>) {
    this.file = file;
    this.reloader = reloader;
  }

  /** Loads the keys file (a missing file: no keys) and starts watching it. Throws when it is invalid. */
  static async open(options: KeyAuthOptions): Promise<KeyAuth> {
    const { file } = options;
    const log = options.log ?? ((line) => console.error(line));
    const reloader = await Reloader.open<string, KeyRing>({
      probe: () => probeKeysFile(file),
      load: async () => new KeyRing((await readKeysFile(file)).keys),
      pollMs: options.pollMs ?? 2000,
      onSwap: ({ value }) => log(`api keys: loaded ${value.size} key(s) from ${file}`),
      onError: (err, _key, reloader) =>
        log(`api keys: keeping the ${reloader.current.size} key(s) in force: cannot load ${file}: ${err instanceof Error ? err.message : String(err)}`),
    });
    return new KeyAuth(file, reloader);
  }

  /** Keys in the ring (revoked ones included). */
  get size(): number {
    return this.reloader.current.size;
  }

  /** Re-reads the keys file; on error the keys in force stay and the problem is logged. */
  async reload(): Promise<void> {
    await this.reloader.reload({ force: true });
  }

  /** Checks the key a request presents (if any) and remembers the outcome for the access log. */
  check(req: IncomingMessage): KeyCheck {
    // Every value of each header: req.headers keeps only the first of two Authorization headers.
    const { authorization, 'x-api-key': apiKey } = req.headersDistinct;
    const presented = presentedKey(authorization, apiKey);
    let result: KeyCheck;
    if (presented.kind === 'none') result = NONE;
    else if (presented.kind === 'malformed') result = INVALID;
    else {
      const record = this.reloader.current.verify(presented.key);
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
    this.reloader.close();
  }
}
