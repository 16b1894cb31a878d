// The running server's side of releases: holds the loaded release (bundle, static index, handler)
// behind a single reference and replaces it when RTP_OUT_DIR's target changes (a release switched
// `current`) or on demand (SIGHUP). The next release is loaded completely from its real folder
// before the reference moves; requests already running finish on the release they started with.
import { realpath } from 'node:fs/promises';

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
  private loaded: T;
  private realDir: string;
  private readonly options: LiveReleaseOptions<T>;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<boolean> | null = null;
  /** A target that failed to load: not retried by polling until the link moves again. */
  private failedDir: string | null = null;
  private swaps = 0;

  private constructor(options: LiveReleaseOptions<T>, realDir: string, loaded: T) {
    this.options = options;
    this.outDir = options.outDir;
    this.realDir = realDir;
    this.loaded = loaded;
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** Resolves `outDir`, loads it, and starts polling its target when `pollMs` > 0. */
  static async open<T>(options: LiveReleaseOptions<T>): Promise<LiveRelease<T>> {
    // A missing folder is left to `load`, whose error names what to build.
    const realDir = await realpath(options.outDir).catch(() => options.outDir);
    const live = new LiveRelease(options, realDir, await options.load(realDir));
    const pollMs = options.pollMs ?? 0;
    if (pollMs > 0) {
      live.timer = setInterval(() => void live.reload(false), pollMs);
      live.timer.unref();
    }
    return live;
  }

  /** The release serving new requests. */
  get current(): T {
    return this.loaded;
  }

  /** The real folder of the current release. */
  get dir(): string {
    return this.realDir;
  }

  /** Releases swapped in since start. */
  get reloads(): number {
    return this.swaps;
  }

  /**
   * Loads `outDir`'s current target and swaps it in. Without `force`, nothing happens when the
   * target is the folder already serving (or one that failed before). Resolves true on a swap;
   * on failure logs, keeps the release serving and resolves false.
   */
  reload(force = true): Promise<boolean> {
    if (this.running !== null) {
      // One load at a time: a poll during a load is dropped (the next poll looks again); a forced
      // reload runs after the load in progress.
      return force ? this.running.then(() => this.reload(true)) : this.running.then(() => false);
    }
    this.running = this.attempt(force).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async attempt(force: boolean): Promise<boolean> {
    let target: string;
    try {
      target = await realpath(this.outDir);
    } catch (err) {
      if (force || this.failedDir !== '(missing)') this.log(`release: keeping ${this.realDir}: cannot resolve ${this.outDir}: ${(err as Error).message}`);
      this.failedDir = '(missing)';
      return false;
    }
    if (!force && (target === this.realDir || target === this.failedDir)) return false;
    const started = performance.now();
    let next: T;
    try {
      next = await this.options.load(target);
    } catch (err) {
      this.failedDir = target;
      this.log(`release: keeping ${this.realDir}: loading ${target} failed: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    const from = this.realDir;
    this.loaded = next;
    this.realDir = target;
    this.failedDir = null;
    this.swaps++;
    const name = this.options.describe?.(next);
    this.log(`release: now serving ${target}${name !== undefined ? ` (${name})` : ''}, loaded in ${Math.round(performance.now() - started)} ms (was ${from})`);
    return true;
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
