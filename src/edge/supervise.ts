// Keeps the edge's server instances running: one that exits on its own is started again on its
// port, after a delay that doubles with each exit in a row (RESTART_BACKOFF), and every restart is logged.
import type { Part } from './parts.ts';

/**
 * Restart delays: the first restart after `firstMs`, each further one in a row after twice the last,
 * at most `maxMs`; an instance that ran `steadyMs` before it exited starts the count afresh.
 */
export const RESTART_BACKOFF = { firstMs: 250, maxMs: 8_000, steadyMs: 30_000 } as const;

/** One instance of the pool serving: its port for good, and the process answering on it now. */
export interface Slot {
  part: Part;
  port: number;
}

export interface SupervisorOptions {
  /** Starts the slot's instance again (on its port); rejects when it exits before getting ready. */
  start: (slot: Slot) => Promise<Part>;
  /** Whether the slot still belongs to the pool serving (a release switch retires the old pool's). */
  current: (slot: Slot) => boolean;
  /** Called once a slot has a new process (state.json is written again then). */
  restarted: (slot: Slot) => void;
  log: (line: string) => void;
  /** The first restart's delay (ms), when not RESTART_BACKOFF.firstMs; later ones double it, to at least RESTART_BACKOFF.maxMs. */
  firstDelayMs?: number;
}

/** Restarts the instances of the pool serving when they exit, until `close()`. */
export class Supervisor {
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly starting = new Set<Promise<void>>();
  private readonly delays = new WeakMap<Slot, number>();

  private readonly firstMs: number;
  private readonly maxMs: number;

  private readonly options: SupervisorOptions;

  constructor(options: SupervisorOptions) {
    this.options = options;
    // At least 1 ms, so that the delays of an instance that keeps exiting grow.
    this.firstMs = Math.max(1, options.firstDelayMs ?? RESTART_BACKOFF.firstMs);
    this.maxMs = Math.max(RESTART_BACKOFF.maxMs, this.firstMs);
  }

  /** Watches the slot's process: when it exits and the slot is still current, a restart is scheduled. */
  watch(slot: Slot): void {
    const part = slot.part;
    const startedAt = performance.now();
    void part.exited.then((code) => {
      if (this.closed || slot.part !== part || !this.options.current(slot)) return;
      const ranMs = performance.now() - startedAt;
      const last = this.delays.get(slot);
      const delay = last === undefined || ranMs >= RESTART_BACKOFF.steadyMs ? this.firstMs : Math.min(last * 2, this.maxMs);
      this.delays.set(slot, delay);
      this.options.log(`edge: ${part.name} (pid ${part.child.pid}) exited (${code ?? part.child.signalCode}); restarting it in ${delay} ms`);
      this.schedule(slot, delay);
    });
  }

  private schedule(slot: Slot, delay: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.restart(slot).finally(() => this.starting.delete(run));
      this.starting.add(run);
    }, delay);
    this.timers.add(timer);
  }

  private async restart(slot: Slot): Promise<void> {
    if (this.closed || !this.options.current(slot)) return;
    let part: Part;
    try {
      part = await this.options.start(slot);
    } catch (err) {
      if (this.closed || !this.options.current(slot)) return;
      const delay = Math.min((this.delays.get(slot) ?? this.firstMs) * 2, this.maxMs);
      this.delays.set(slot, delay);
      this.options.log(`edge: restarting the instance on port ${slot.port} failed (${(err as Error).message.split('\n')[0]}); trying again in ${delay} ms`);
      return this.schedule(slot, delay);
    }
    if (this.closed || !this.options.current(slot)) {
      // Stopped or switched away meanwhile: the new process is not wanted.
      part.child.kill('SIGTERM');
      await part.exited;
      return;
    }
    slot.part = part;
    this.watch(slot);
    // State first: whoever reads the log line finds state.json already naming the new process.
    this.options.restarted(slot);
    this.options.log(`edge: ${part.name} restarted (pid ${part.child.pid}) on port ${slot.port}`);
  }

  /** Stops restarting: pending restarts are dropped, and one under way stops what it started. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.starting]);
  }
}
