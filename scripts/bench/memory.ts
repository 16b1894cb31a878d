// Memory and scale phase: cold starts of the server under test on each built registry (start to the
// first list answer, RSS, one start without Node's compile cache), then the uncached stream on each
// synthetic registry (throughput, server CPU per request, RSS after): the scale curve.
import { bundleRecords } from './build.ts';
import type { DataSet } from './data.ts';
import { type LoadSettings, measure, row, type ServerContext, scenario, startServer } from './list.ts';
import { rssMiB, withLoadGeneratorPinned } from './procs.ts';
import { distinctStream, listPath, vocabularyOf } from './query-mix.ts';
import type { MemoryRow, PhaseResult } from './results.ts';
import { summarize } from './stats.ts';

/** The uncached stream (u) on the registry built in `outDir`: figures and the server's RSS after it. */
async function uncachedOn(ctx: ServerContext, outDir: string, load: LoadSettings): Promise<NonNullable<MemoryRow['uncached']>> {
  const stream = distinctStream(vocabularyOf(bundleRecords(outDir)));
  return withLoadGeneratorPinned(async () => {
    const server = await startServer(ctx, outDir, 10 * 60_000);
    try {
      let sent = 0;
      const u = scenario('u', 'uncached distinct queries', 'server', server, { kind: 'stream', next: () => listPath(stream.at(sent++)) }, '');
      await measure(ctx, [u], load);
      const r = row(u);
      return { reqPerSec: r.reqPerSec, cpuUsPerRequest: r.cpuUsPerRequest ?? summarize([0]), p99Ms: r.p99Ms, rssAfterMiB: rssMiB(server.proc.child.pid!) ?? 0 };
    } finally {
      await server.proc.stop();
    }
  });
}

export async function memoryPhase(ctx: ServerContext, sets: readonly DataSet[], starts: number, load: LoadSettings): Promise<PhaseResult<'memory'>> {
  const rows: MemoryRow[] = [];
  for (const ds of sets) {
    const outDir = ctx.built.get(ds.label);
    if (outDir === undefined) continue;
    const ready: number[] = [];
    const rss: number[] = [];
    let error: string | undefined;
    let coldReadyMs: number | undefined;
    let uncached: MemoryRow['uncached'];
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
      if (ds.origin !== 'shipped') uncached = await uncachedOn(ctx, outDir, load);
    } catch (err) {
      error = (err as Error).message.slice(0, 300);
    }
    if (ready.length === 0) continue;
    rows.push({
      label: ds.label,
      games: ds.games,
      readyMs: summarize(ready),
      rssMiB: summarize(rss.length > 0 ? rss : [0]),
      ...(coldReadyMs === undefined ? {} : { coldReadyMs }),
      ...(uncached === undefined ? {} : { uncached }),
      ...(error === undefined ? {} : { error }),
    });
  }
  return {
    rows,
    notes: [
      `${starts} starts per registry, each a fresh process (files in the page cache), using Node's on-disk compile cache as every restart of a deployed server does; then one start with it off (NODE_DISABLE_COMPILE_CACHE=1).`,
      `Then, on each synthetic registry, the uncached stream of the list phase (u) for ${load.rounds} round(s) of ${load.roundS} s after a ${load.warmupS} s warm-up, on a fresh server (pinned as in the list phase), and its RSS after.`,
    ],
  };
}
