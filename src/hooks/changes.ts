// What a release changed, game by game, from the registry bundles of the release it replaced and
// the new one (server/registry-bundle.json of each): games added and removed with their figures (a
// removed game merged into another record names it), games whose stated RTP or variants changed
// with old and new values; and the part of it one subscriber watches.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { mergedSlugs } from '../routes/moved.ts';
import { HistoryEntrySchema } from '../schemas/authoring.ts';
import type { ReleaseGame } from '../schemas/dump.ts';
import type { GameChanges, Subscriber } from '../schemas/hooks.ts';

/** The fields of a bundle the diff reads (the bundle's own schema is richer; only these are needed). */
const BundleFiguresSchema = z.object({
  records: z.array(z.object({ canonical_slug: z.string(), provider: z.string(), stated_rtp: z.number(), rtp_variants: z.array(z.number()) })),
  history: z.array(z.object(HistoryEntrySchema.pick({ slug: true, field: true, to: true, merged_into: true }).shape)),
});

/** A registry bundle's games with their figures, by slug, and the survivor of each slug its history log merged into another record. */
export interface BundleFigures {
  games: Map<string, ReleaseGame>;
  /** As the release's server follows them (src/routes/moved.ts `mergedSlugs`). */
  mergedInto: Map<string, string>;
}

/** The games of a registry bundle file with their figures, and its merges. */
export async function readBundleFigures(file: string): Promise<BundleFigures> {
  const parsed = BundleFiguresSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  const games = new Map(
    parsed.records.map((r) => [r.canonical_slug, { slug: r.canonical_slug, provider: r.provider, stated_rtp: r.stated_rtp, rtp_variants: r.rtp_variants }]),
  );
  return { games, mergedInto: mergedSlugs(parsed.history, (slug) => games.has(slug)) };
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/** The game changes between two releases, each list in slug order; `mergedInto`: the new release's merges (BundleFigures). */
export function diffFigures(
  before: ReadonlyMap<string, ReleaseGame>,
  after: ReadonlyMap<string, ReleaseGame>,
  mergedInto: ReadonlyMap<string, string> = new Map(),
): GameChanges {
  const out: GameChanges = { added: [], removed: [], changed: [] };
  for (const [slug, g] of after) {
    const old = before.get(slug);
    if (old === undefined) {
      out.added.push(g);
      continue;
    }
    const changes: GameChanges['changed'][number]['changes'] = [];
    if (old.stated_rtp !== g.stated_rtp) changes.push({ field: 'stated_rtp', from: old.stated_rtp, to: g.stated_rtp });
    if (!sameList(old.rtp_variants, g.rtp_variants)) changes.push({ field: 'rtp_variants', from: old.rtp_variants, to: g.rtp_variants });
    if (changes.length > 0) out.changed.push({ slug, provider: g.provider, changes });
  }
  for (const [slug, g] of before) if (!after.has(slug)) out.removed.push({ ...g, merged_into: mergedInto.get(slug) ?? null });
  out.added.sort(bySlug);
  out.removed.sort(bySlug);
  out.changed.sort(bySlug);
  return out;
}

/** True when `s` watches everything. */
export const watchesAll = (s: Subscriber) => s.providers.length === 0 && s.games.length === 0;

/** The changes a subscriber watches: all, or those of its providers and games. */
export function changesFor(s: Subscriber, all: GameChanges): GameChanges {
  if (watchesAll(s)) return all;
  const providers = new Set(s.providers);
  const games = new Set(s.games);
  const keep = (g: { slug: string; provider: string }) => providers.has(g.provider) || games.has(g.slug);
  return { added: all.added.filter(keep), removed: all.removed.filter(keep), changed: all.changed.filter(keep) };
}

/** How many games a change set names. */
export const changeCount = (c: GameChanges) => c.added.length + c.removed.length + c.changed.length;
