// Release diffs and tombstones from the history log (data/history.jsonl): each freeze wrote one
// entry per changed field of each game, both fields with `from: null` for a game added and with
// `to: null` for a game removed (src/registry/freeze.ts).
import type { HistoryEntry } from '../schemas/authoring.ts';
import type { ReleaseChanges, ReleaseGame, RemovedGame, RemovedResponse } from '../schemas/dump.ts';
import { compareStrings } from '../schemas/text.ts';

interface SlugEntries {
  provider: string;
  stated?: HistoryEntry;
  variants?: HistoryEntry;
}

const asNumber = (v: HistoryEntry['from']): number => (typeof v === 'number' ? v : Number.NaN);
const asList = (v: HistoryEntry['from']): number[] => (Array.isArray(v) ? [...v] : typeof v === 'number' ? [v] : []);

/** The side of a game (before or after) its entries give. */
function side(e: SlugEntries, slug: string, which: 'from' | 'to'): ReleaseGame {
  return { slug, provider: e.provider, stated_rtp: asNumber(e.stated?.[which] ?? null), rtp_variants: asList(e.variants?.[which] ?? null) };
}

/**
 * The changes of every frozen version in the log, oldest first: games added (with their figures),
 * removed (with their last figures) and changed (old and new value per field), each by slug.
 */
export function releaseChanges(history: readonly HistoryEntry[]): ReleaseChanges[] {
  const versions: Array<{ data_version: string; frozen_at: string; games: Map<string, SlugEntries> }> = [];
  for (const e of history) {
    let v = versions.at(-1);
    if (v === undefined || v.data_version !== e.data_version) {
      v = { data_version: e.data_version, frozen_at: e.frozen_at, games: new Map() };
      versions.push(v);
    }
    let g = v.games.get(e.slug);
    if (g === undefined) {
      g = { provider: e.provider };
      v.games.set(e.slug, g);
    }
    if (e.field === 'stated_rtp') g.stated = e;
    else g.variants = e;
  }
  return versions.map((v, k) => {
    const added: ReleaseGame[] = [];
    const removed: RemovedGame[] = [];
    const changed: ReleaseChanges['changed'] = [];
    for (const slug of [...v.games.keys()].sort(compareStrings)) {
      const g = v.games.get(slug)!;
      const entries = [g.stated, g.variants].filter((e): e is HistoryEntry => e !== undefined);
      if (entries.every((e) => e.from === null)) added.push(side(g, slug, 'to'));
      else if (entries.every((e) => e.to === null)) removed.push({ ...side(g, slug, 'from'), merged_into: g.stated?.merged_into ?? null });
      else changed.push({ slug, provider: g.provider, changes: entries.map((e) => ({ field: e.field, from: e.from!, to: e.to! })) });
    }
    return {
      data_version: v.data_version,
      frozen_at: v.frozen_at,
      previous_version: k === 0 ? null : versions[k - 1]!.data_version,
      counts: { added: added.length, removed: removed.length, changed: changed.length },
      added,
      removed,
      changed,
    };
  });
}

/** Games removed by a freeze and not added back since, by slug: the tombstones a mirror deletes by (a merged one names the slug it went into). */
export function removedGames(history: readonly HistoryEntry[], meta: { data_version: string; frozen_at: string }): RemovedResponse {
  const last = new Map<string, HistoryEntry>();
  for (const e of history) if (e.field === 'stated_rtp') last.set(e.slug, e);
  const items = [...last.values()]
    .filter((e) => e.to === null)
    .sort((a, b) => compareStrings(a.slug, b.slug))
    .map((e) => ({
      slug: e.slug,
      provider: e.provider,
      removed_in: e.data_version,
      removed_at: e.frozen_at,
      last_stated_rtp: asNumber(e.from),
      reason: e.reason ?? null,
      merged_into: e.merged_into ?? null,
    }));
  return { meta: { data_version: meta.data_version, frozen_at: meta.frozen_at, total: items.length }, items };
}
