// Reload-on-change: polls a cheap probe of a source (a file's identity and mtime, a link's target),
// loads the source anew when the probe changed, and keeps the last good value when a load fails.

/** How a reload came about, and what it may skip. */
export interface ReloadRequest {
  /** Load even when the probe is unchanged (SIGHUP: re-read in place). Default false. */
  force?: boolean;
  /** Load a probe that failed before (polling does not retry it until it changes). Default: `force`. */
  retryFailed?: boolean;
}

/** A finished swap, for the caller's log line. */
export interface Swap<K, T> {
  value: T;
  key: K;
  /** The key of the value swapped out. */
  previous: K;
  /** How long the load took (ms, rounded). */
  ms: number;
}

export interface ReloaderOptions<K, T> {
  /** What the source is now (compared with `same`); throws when it cannot be told. */
  probe: () => Promise<K>;
  /** Loads the source as probed; throws to keep the value in force. */
  load: (key: K) => Promise<T>;
  /** Whether two probes name the same version of the source (default `===`). */
  same?: (a: K, b: K) => boolean;
  /** How often the probe is polled (ms); 0: only on `reload()`. The timer does not keep the process alive. */
  pollMs?: number;
  /** After each swap. */
  onSwap?: (swap: Swap<K, T>) => void;
  /**
   * After a failed probe (`key` undefined: told once per streak of failures, unless a reload was
   * forced) or a failed load of `key`; the value in force stays.
   */
  onError?: (err: unknown, key: K | undefined, reloader: Reloader<K, T>) => void;
}

/**
 * A value loaded from a source that changes: `current` is the last good load. Polls and reloads
 * never overlap: one asked for while a load runs waits for it and then runs once, however many were
 * asked for meanwhile (a burst of changes costs one more load, not one each).
 */
export class Reloader<K, T> {
  private value: T;
  private loadedKey: K;
  private readonly options: ReloaderOptions<K, T>;
  private readonly same: (a: K, b: K) => boolean;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<boolean> | null = null;
  private queued: Promise<boolean> | null = null;
  private queuedRequest: Required<ReloadRequest> = { force: false, retryFailed: false };
  /** A probe whose load failed: polling leaves it alone until the probe changes. */
  private failed: { key: K } | null = null;
  private probeFailing = false;
  private closed = false;
  private swaps = 0;

  /** Starts from a value already loaded for `key`, polling when `pollMs` > 0. */
  constructor(options: ReloaderOptions<K, T>, initial: { key: K; value: T }) {
    this.options = options;
    this.same = options.same ?? ((a, b) => a === b);
    this.value = initial.value;
    this.loadedKey = initial.key;
    const pollMs = options.pollMs ?? 0;
    if (pollMs > 0) this.timer = setInterval(() => void this.reload(), pollMs).unref();
  }

  /** Probes and loads the source, then polls it; rejects when that first load fails. */
  static async open<K, T>(options: ReloaderOptions<K, T>): Promise<Reloader<K, T>> {
    const key = await options.probe();
    return new Reloader(options, { key, value: await options.load(key) });
  }

  /** The last good value. */
  get current(): T {
    return this.value;
  }

  /** The probe the current value was loaded for. */
  get key(): K {
    return this.loadedKey;
  }

  /** Swaps since the start. */
  get reloads(): number {
    return this.swaps;
  }

  /**
   * Probes the source and loads it when it changed (or as `request` says); resolves true on a
   * swap, false when nothing changed, the load failed (the value in force stays) or it is closed.
   */
  reload(request: ReloadRequest = {}): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    const force = request.force ?? false;
    const retryFailed = request.retryFailed ?? force;
    if (this.running === null) return this.start({ force, retryFailed });
    this.queuedRequest = { force: this.queuedRequest.force || force, retryFailed: this.queuedRequest.retryFailed || retryFailed };
    this.queued ??= this.running.then(() => {
      const next = this.queuedRequest;
      this.queued = null;
      this.queuedRequest = { force: false, retryFailed: false };
      return this.reload(next);
    });
    return this.queued;
  }

  /** Resolves once no load runs or waits. */
  async idle(): Promise<void> {
    while (this.running !== null || this.queued !== null) await (this.queued ?? this.running);
  }

  /** Stops polling; later reloads do nothing (one running finishes: `idle()`). */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private start(request: Required<ReloadRequest>): Promise<boolean> {
    this.running = this.attempt(request).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async attempt({ force, retryFailed }: Required<ReloadRequest>): Promise<boolean> {
    let key: K;
    try {
      key = await this.options.probe();
    } catch (err) {
      if (force || !this.probeFailing) this.options.onError?.(err, undefined, this);
      this.probeFailing = true;
      return false;
    }
    this.probeFailing = false;
    if (!force && this.same(key, this.loadedKey)) return false;
    if (!retryFailed && this.failed !== null && this.same(key, this.failed.key)) return false;
    const started = performance.now();
    let value: T;
    try {
      value = await this.options.load(key);
    } catch (err) {
      this.failed = { key };
      this.options.onError?.(err, key, this);
      return false;
    }
    const previous = this.loadedKey;
    this.value = value;
    this.loadedKey = key;
    this.failed = null;
    this.swaps++;
    this.options.onSwap?.({ value, key, previous, ms: Math.round(performance.now() - started) });
    return true;
  }
}
