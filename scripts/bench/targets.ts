// The performance targets of issues 3, 4 and 8, evaluated against a benchmark run's medians.
import { num, type BenchResults, type ScenarioRow, type Target } from './report.ts';

function scenario(r: BenchResults, id: string): ScenarioRow | undefined {
  return r.list?.status === 'ok' ? r.list.scenarios.find((s) => s.id === id) : undefined;
}

function ratio(r: BenchResults, label: string): number | undefined {
  return r.list?.status === 'ok' ? r.list.ratios.find((x) => x.label === label)?.ratio.median : undefined;
}

/** Ratio labels shared by the run and the target table. */
export const RATIO = {
  mixCeiling: '(a) mix / (d) ceiling',
  repeatedCeiling: '(b) repeated / (d) ceiling',
  slugCeiling: "(c) slug / (d') ceiling with the slug bytes",
  streamCeiling: 'uncached / (d) ceiling',
  mixPeer: '(a) mix: server / SQLite peer',
  streamPeer: 'uncached: server / SQLite peer',
  peerMixCeiling: 'SQLite peer mix / (d) ceiling',
} as const;

/** Every target that this run measured, with whether its median meets the goal (only a full run at 50k counts). */
export function evaluateTargets(r: BenchResults, listGames: number): Target[] {
  const t: Target[] = [];
  const full = r.mode === 'full';
  const at50k = r.build?.status === 'ok' ? r.build.rows.find((b) => b.games === 50_000 && !b.error) : undefined;
  if (at50k) t.push({ issue: 3, what: 'full build at 50k / plain baseline', goal: '<= 2.0x', measured: `${num(at50k.ratio.median, 2)}x`, met: at50k.ratio.median <= 2 });
  const onSize = full && listGames === 50_000;
  const mix = scenario(r, 'a');
  if (mix) {
    t.push({
      issue: 4,
      what: '(a) mix of distinct queries',
      goal: '>= 3,000 req/s, p99 <= 25 ms',
      measured: `${num(mix.reqPerSec.median)} req/s, p99 ${num(mix.p99Ms.median, 2)} ms`,
      met: onSize && !mix.fail ? mix.reqPerSec.median >= 3000 && mix.p99Ms.median <= 25 : undefined,
    });
  }
  const rep = ratio(r, RATIO.repeatedCeiling);
  if (rep !== undefined) {
    t.push({ issue: 4, what: '(b) repeated query / ceiling', goal: '>= 0.5x', measured: `${num(rep, 2)}x`, met: onSize ? rep >= 0.5 : undefined });
    t.push({ issue: 8, what: '(b) repeated query / ceiling', goal: '>= 0.9x', measured: `${num(rep, 2)}x`, met: onSize ? rep >= 0.9 : undefined });
  }
  const slug = ratio(r, RATIO.slugCeiling);
  if (slug !== undefined) {
    t.push({ issue: 4, what: '(c) static slug JSON / ceiling', goal: '>= 0.5x', measured: `${num(slug, 2)}x`, met: onSize ? slug >= 0.5 : undefined });
    t.push({ issue: 8, what: '(c) static slug JSON / ceiling', goal: '>= 0.9x', measured: `${num(slug, 2)}x`, met: onSize ? slug >= 0.9 : undefined });
  }
  const stream = scenario(r, 'u');
  if (stream) {
    t.push({
      issue: 8,
      what: 'uncached distinct queries',
      goal: '>= 10,000 req/s, p99 <= 5 ms',
      measured: `${num(stream.reqPerSec.median)} req/s, p99 ${num(stream.p99Ms.median, 2)} ms`,
      met: onSize && !stream.fail ? stream.reqPerSec.median >= 10_000 && stream.p99Ms.median <= 5 : undefined,
    });
  }
  const vsPeer = ratio(r, RATIO.streamPeer);
  if (vsPeer !== undefined) t.push({ issue: 8, what: 'uncached: server / SQLite peer', goal: '>= 10x', measured: `${num(vsPeer, 2)}x`, met: onSize ? vsPeer >= 10 : undefined });
  if (r.list?.status === 'ok' && r.list.serverRssAfterMiB !== undefined) {
    const rss = r.list.serverRssAfterMiB;
    t.push({ issue: 4, what: 'server RSS after the load runs', goal: '<= 300 MB', measured: `${num(rss)} MiB`, met: onSize ? rss * 1.048576 <= 300 : undefined });
    t.push({ issue: 8, what: 'server RSS after the load runs', goal: '<= 250 MB', measured: `${num(rss)} MiB`, met: onSize ? rss * 1.048576 <= 250 : undefined });
  }
  const mem = r.memory?.status === 'ok' ? r.memory.rows.find((m) => m.games === listGames && !m.error) : undefined;
  if (mem) {
    t.push({
      issue: 8,
      what: `start to first answered list query (${mem.label})`,
      goal: '<= 0.5 s',
      measured: `${num(mem.startToReadyMs.median)} ms`,
      met: onSize ? mem.startToReadyMs.median <= 500 : undefined,
    });
  }
  return t;
}
