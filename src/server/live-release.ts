// The running server's side of releases: holds the loaded release (bundle, static index, handler)
// behind a single reference and replaces it when RTP_OUT_DIR's target changes (a release switched
// `current`) or on demand (SIGHUP). The next release is loaded completely from its real folder
// before the reference moves; requests already running finish on the release they started with.
import { realpath } from 'node:fs/promises';
import { Reloader } from '../lib/reload.ts';

export interface LiveReleaseOptions<T> {
  /** The folder to serve: a release folder, dist/, or the `current` link of a releases folder. */
  outDir: string;
  /** Loads everything a release needs from its real folder (never through the link). */
  load: (realDir: string) => Promise<T>;
  /** How often the link's target is checked (ms); 0: only on `reload()`. */
  pollMs?: number;
  log?: (line: string) => void;
  /** Names a loaded release in log lines (its data version, say). */
  describe?: (loaded: T) => string;
}

export class LiveRelease<T> {
  readonly outDir: string;
  private readonly reloader: Reloader<string, T>;

  private constructor(outDir: string, reloader: Reloader<string, T>) {
    this.outDir = outDir;
    this.reloader = reloader;
  }

  /** Resolves `outDir`, loads it, and starts polling its target when `pollMs` > 0. */
  static async open<T>(options: LiveReleaseOptions<T>): Promise<LiveRelease<T>> {
    const log = options.log ?? ((line) => console.log(line));
    // A missing folder is left to `load`, whose error names what to build.
    const realDir = await realpath(options.outDir).catch(() => options.outDir);
    const reloader = new Reloader<string, T>(
      {
        probe: () => realpath(options.outDir),
        load: options.load,
        pollMs: options.pollMs ?? 0,
        onSwap: ({ value, key, previous, ms }) => {
          const name = options.describe?.(value);
          log(`release: now serving ${key}${name !== undefined ? ` (${name})` : ''}, loaded in ${ms} ms (was ${previous})`);
        },
        onError: (err, key, { key: serving }) => {
          const why = err instanceof Error ? err.message : String(err);
          log(
            key === undefined
              ? `release: keeping ${serving}: cannot resolve ${options.outDir}: ${why}`
              : `release: keeping ${serving}: loading ${key} failed: ${why}`,
          );
        },
      },
      { key: realDir, value: await options.load(realDir) },
    );
    return new LiveRelease(options.outDir, reloader);
  }

  /** The release serving new requests. */
  get current(): T {
    return this.reloader.current;
  }

  /** The real folder of the current release. */
  get dir(): string {
    return this.reloader.key;
  }

  /** Releases swapped in since start. */
  get reloads(): number {
    return this.reloader.reloads;
  }

  /**
   * Loads `outDir`'s current target and swaps it in. Without `force`, nothing happens when the
   * target is the folder already serving (or one that failed before). Resolves true on a swap;
   * on failure logs, keeps the release serving and resolves false.
   */
  reload(force = true): Promise<boolean> {
    return this.reloader.reload({ force });
  }

  close(): void {
    this.reloader.close();
  }
}
