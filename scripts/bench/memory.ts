// Memory phase: cold starts of the server under test on each built registry, start to the first
// list answer and RSS, and one start without Node's compile cache (a machine's very first start).
import type { DataSet } from './data.ts';
import { startServer, type ServerContext } from './list.ts';
import { rssMiB } from './procs.ts';
import type { BenchResult, MemoryRow } from './results.ts';
import { summarize } from './stats.ts';

export async function memoryPhase(ctx: ServerContext, sets: readonly DataSet[], built: ReadonlyMap<string, string>, starts: number): Promise<NonNullable<BenchResult['memory']>> {
  const rows: MemoryRow[] = [];
  for (const ds of sets) {
    const outDir = built.get(ds.label);
    if (outDir === undefined) continue;
    const ready: number[] = [];
    const rss: number[] = [];
    let error: string | undefined;
    let coldReadyMs: number | undefined;
    try {
      for (let i = 1; i <= starts; i++) {
        const s = await startServer(ctx, outDir, 120_000);
        ready.push(s.readyMs);
        const r = rssMiB(s.proc.child.pid!);
        if (r !== undefined) rss.push(r);
        await s.proc.stop();
        ctx.log(`memory ${ds.label} start ${i}: ready in ${s.readyMs.toFixed(0)} ms, RSS ${r?.toFixed(0)} MiB`);
      }
      const cold = await startServer(ctx, outDir, 120_000, { NODE_DISABLE_COMPILE_CACHE: '1' });
      coldReadyMs = cold.readyMs;
      await cold.proc.stop();
    } catch (err) {
      error = (err as Error).message.slice(0, 300);
    }
    if (ready.length === 0) continue;
    rows.push({ label: ds.label, games: ds.games, readyMs: summarize(ready), rssMiB: summarize(rss.length > 0 ? rss : [0]), ...(coldReadyMs === undefined ? {} : { coldReadyMs }), ...(error === undefined ? {} : { error }) });
  }
  return {
    rows,
    notes: [
      `${starts} starts per registry, each a fresh process (files in the page cache), using Node's on-disk compile cache as every restart of a deployed server does; then one start with it off (NODE_DISABLE_COMPILE_CACHE=1).`,
    ],
  };
}
