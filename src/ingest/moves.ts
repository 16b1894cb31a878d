// Published slugs that the cleaning rules (src/ingest/clean.ts) make one game, or that were made from
// a ™ sign: each game keeps one slug, and every other slug moves into it through data/merged.json
// (a tombstone naming `merged_into`, and a 301 from each of the old slug's URLs).
import { cleanName } from './clean.ts';
import { gameKey, type MergedAway, type MergedGame, type ScopeOf } from './merge.ts';
import { slugify } from './normalise.ts';
import type { ProviderTable } from './providers.ts';

interface Published {
  provider: string;
  canonical_name: string;
  canonical_slug: string;
}

/** A slug that moves into another: the old record's provider and name, and the slug it goes to. */
export interface Move {
  provider: string;
  name: string;
  slug: string;
  into: string;
  why: string;
  /** The slug was held back (no longer served): it moves nowhere, but stays held back with its game when that is. */
  held: boolean;
}

/**
 * The slug each game key keeps, and the moves of every other published slug. A key keeps the slug of
 * its clean name where one of its slugs is that, else its first slug in order; a lone slug made from a
 * ™ ("5-frozen-charms-megawaystm") moves to its clean name's slug when that is free. A slug in
 * `held` (held back, no longer served) is not moved: its game, when it returns, takes the kept slug.
 */
export function slugMoves(
  published: readonly Published[],
  table: ProviderTable,
  scopeOf: ScopeOf,
  reserved: Iterable<string>,
  held: ReadonlySet<string> = new Set(),
): { slugs: Map<string, string>; moves: Move[] } {
  const taken = new Set([...published.map((p) => p.canonical_slug), ...reserved]);
  const byKey = new Map<string, Array<Published & { clean: string }>>();
  for (const p of published) {
    const row = table.row(p.provider);
    const clean = cleanName(p.canonical_name, row === undefined ? [] : [...row.labels, row.display]).name;
    const key = gameKey(p.provider, clean, scopeOf);
    byKey.set(key, [...(byKey.get(key) ?? []), { ...p, clean }]);
  }
  const slugs = new Map<string, string>();
  const moves: Move[] = [];
  for (const [key, list] of byKey) {
    list.sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1));
    const own = list.find((p) => p.canonical_slug === slugify(p.clean));
    let keep = (own ?? list[0]!).canonical_slug;
    const lone = list[0]!;
    // Made from a ™: the name carries one, or the slug is the clean name's with "tm" after a word (a name written with ™ by another line).
    const fromTm = /™/.test(lone.canonical_name) || lone.canonical_slug.replace(/tm(?=-|$)/g, '') === slugify(lone.clean);
    if (own === undefined && list.length === 1 && fromTm && !taken.has(slugify(lone.clean))) {
      keep = slugify(lone.clean);
      taken.add(keep);
      moves.push({
        held: false,
        provider: lone.provider,
        name: lone.canonical_name,
        slug: lone.canonical_slug,
        into: keep,
        why: `its slug "${lone.canonical_slug}" was made from a ™ sign; the clean name "${lone.clean}" gives "${keep}"`,
      });
    }
    for (const p of list) {
      if (p.canonical_slug === keep || (list.length === 1 && keep !== p.canonical_slug && moves.some((m) => m.slug === p.canonical_slug))) continue;
      moves.push({
        held: false,
        provider: p.provider,
        name: p.canonical_name,
        slug: p.canonical_slug,
        into: keep,
        why: `"${p.canonical_name}" and the record it goes into are one game once names lose signs and page-title junk ("${p.clean}")`,
      });
    }
    slugs.set(key, keep);
  }
  return { slugs, moves: moves.map((m) => ({ ...m, held: held.has(m.slug) })) };
}

/** The moves as merges into the games published this run (a move into a held-back slug is held back with it, by the caller). */
export function movesAsMerges(moves: readonly Move[], games: readonly MergedGame[]): MergedAway[] {
  const bySlug = new Map(games.map((g) => [g.slug, g]));
  return moves.flatMap((m) => {
    const into = bySlug.get(m.into);
    if (into === undefined || m.held) return [];
    const own = into.facts.filter((f) => slugify(f.nameAsWritten ?? f.name) === m.slug);
    return [
      {
        provider: m.provider,
        name: m.name,
        slug: m.slug,
        mergedInto: m.into,
        intoProvider: into.provider,
        reason: m.why,
        facts: own.length > 0 ? own : into.facts,
      },
    ];
  });
}
