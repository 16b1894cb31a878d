// The edge's supervisor (src/edge/supervise.ts) with stand-in processes: an instance that exits is
// started again on its slot after a delay that doubles with each exit in a row, a start that fails
// is tried again, and nothing is restarted once the slot is retired or the supervisor closed.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../src/edge/parts.ts';
import { RESTART_BACKOFF, type Slot, Supervisor } from '../../src/edge/supervise.ts';

let nextPid = 1000;

/** A stand-in process: `exit()` ends it as a SIGKILL would. */
function fakePart(): Part & { exit: () => void } {
  let exit!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (exit = resolve));
  const child = { pid: nextPid++, signalCode: null as string | null, kill: () => true };
  return {
    name: 'instance 1 (blue)',
    child: child as unknown as ChildProcess,
    exited,
    exit: () => {
      child.signalCode = 'SIGKILL';
      exit(null);
    },
  };
}

/** A supervisor over one slot, with its log and a promise for each restart. */
function harness(options: { failStarts?: number; firstDelayMs?: number } = {}) {
  const lines: string[] = [];
  const slot: Slot = { part: fakePart(), port: 4711 };
  let current = true;
  let failures = options.failStarts ?? 0;
  let onRestart: (() => void) | null = null;
  const supervisor = new Supervisor({
    start: async () => {
      if (failures-- > 0) throw new Error('exited (1) before getting ready:\nstack');
      return fakePart();
    },
    current: () => current,
    restarted: () => onRestart?.(),
    log: (line) => lines.push(line),
    firstDelayMs: options.firstDelayMs ?? 5,
  });
  supervisor.watch(slot);
  const restarted = () => new Promise<void>((resolve) => (onRestart = resolve));
  return { lines, slot, supervisor, restarted, retire: () => (current = false) };
}

describe('the edge supervisor', () => {
  it('starts an instance that exits again on its slot, each delay in a row twice the last, every step logged', async () => {
    const { lines, slot, supervisor, restarted } = harness();
    const pids = [slot.part.child.pid];
    for (let k = 0; k < 3; k++) {
      const next = restarted();
      (slot.part as ReturnType<typeof fakePart>).exit();
      await next;
      pids.push(slot.part.child.pid);
    }
    expect(new Set(pids).size).toBe(4);
    expect(lines.filter((l) => l.includes('exited')).map((l) => /restarting it in (\d+) ms/.exec(l)![1])).toEqual(['5', '10', '20']);
    expect(lines[0]).toBe(`edge: instance 1 (blue) (pid ${pids[0]}) exited (SIGKILL); restarting it in 5 ms`);
    expect(lines[1]).toBe(`edge: instance 1 (blue) restarted (pid ${pids[1]}) on port 4711`);
    await supervisor.close();
  });

  it('tries a start that fails again after a longer delay, naming the failure by its first line', async () => {
    const { lines, slot, supervisor, restarted } = harness({ failStarts: 2 });
    const next = restarted();
    (slot.part as ReturnType<typeof fakePart>).exit();
    await next;
    const failed = lines.filter((l) => l.includes('failed'));
    expect(failed).toEqual([
      'edge: restarting the instance on port 4711 failed (exited (1) before getting ready:); trying again in 10 ms',
      'edge: restarting the instance on port 4711 failed (exited (1) before getting ready:); trying again in 20 ms',
    ]);
    expect(lines.at(-1)).toMatch(/restarted \(pid \d+\) on port 4711$/);
    await supervisor.close();
  });

  it('restarts nothing once the slot is retired (a release switch) or the supervisor closed', async () => {
    const retired = harness();
    retired.retire();
    (retired.slot.part as ReturnType<typeof fakePart>).exit();
    await retired.slot.part.exited;
    await retired.supervisor.close();
    expect(retired.lines).toEqual([]);

    // Closed while a restart waits (the stop of the edge): the restart is dropped.
    const closing = harness({ firstDelayMs: 60_000 });
    const part = closing.slot.part;
    (part as ReturnType<typeof fakePart>).exit();
    await part.exited;
    await closing.supervisor.close();
    expect(closing.slot.part).toBe(part);
    expect(closing.lines).toEqual([`edge: instance 1 (blue) (pid ${part.child.pid}) exited (SIGKILL); restarting it in 60000 ms`]);
  });

  it('has the figures docs/security.md gives: 250 ms first, 8 s at most, afresh after 30 s of running', () => {
    expect(RESTART_BACKOFF).toEqual({ firstMs: 250, maxMs: 8_000, steadyMs: 30_000 });
  });
});
