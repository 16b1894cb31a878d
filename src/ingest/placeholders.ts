// Placeholder-like studios: a provider many of whose games publish one and the same figure that one
// origin alone states (Mancala Gaming: 7 of 7 at 95.00 from the review-site scrapes). The figure may
// be the source's placeholder for the studio, not each game's: DATA.md lists such studios and each
// record's notes say so. The rule: at least PLACEHOLDER_MIN games and PLACEHOLDER_SHARE of the studio's.
import { figure } from '../lib/percent.ts';
import { originOf } from '../registry/origin.ts';
import type { MergedGame } from './merge.ts';

export const PLACEHOLDER_MIN = 5;
export const PLACEHOLDER_SHARE = 0.4;

/** A studio flagged by the rule: the figure, its one origin, how many of its games publish it alone, of how many. */
export interface PlaceholderStudio {
  provider: string;
  figure: number;
  origin: string;
  games: number;
  of: number;
}

/** The one origin that states a game's published figure, or null when two or more do. */
function loneOrigin(g: MergedGame): string | null {
  const origins = new Set(g.facts.filter((f) => f.stated_rtp === g.winner.stated_rtp).map((f) => originOf({ kind: f.tier, url: f.url, file: f.file })));
  return origins.size === 1 ? [...origins][0]! : null;
}

/** Every studio the rule flags, by provider key. */
export function placeholderStudios(games: readonly MergedGame[]): Map<string, PlaceholderStudio> {
  const per = new Map<string, { total: number; counts: Map<string, number> }>();
  for (const g of games) {
    const p = per.get(g.provider) ?? { total: 0, counts: new Map() };
    p.total++;
    const origin = loneOrigin(g);
    if (origin !== null) {
      const k = `${g.winner.stated_rtp}\u0000${origin}`;
      p.counts.set(k, (p.counts.get(k) ?? 0) + 1);
    }
    per.set(g.provider, p);
  }
  const out = new Map<string, PlaceholderStudio>();
  for (const [provider, { total, counts }] of per) {
    const [k, n] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['', 0];
    if (n < PLACEHOLDER_MIN || n < total * PLACEHOLDER_SHARE) continue;
    const [rtp, origin] = k.split('\u0000');
    out.set(provider, { provider, figure: Number(rtp), origin: origin!, games: n, of: total });
  }
  return out;
}

/** The note a flagged studio's record carries when it publishes the studio's shared figure from that one origin. */
export function placeholderNote(g: MergedGame, flagged: ReadonlyMap<string, PlaceholderStudio>): string {
  const s = flagged.get(g.provider);
  if (s === undefined || g.winner.stated_rtp !== s.figure || loneOrigin(g) !== s.origin) return '';
  return `${s.games} of this studio's ${s.of} games publish ${figure(s.figure)}, each from one origin (${s.origin}): the figure may be that source's placeholder for the studio, not this game's own.`;
}
