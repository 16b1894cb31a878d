// Turns merged games into authoring files (data/games/<provider>/<slug>.json) and new providers
// into provider files, by the rules of docs/data-model.md ("Sources and precedence"): the first
// fact in precedence order states the figures; other fields come from the most trusted fact that
// states them (never guessed); every fact is listed in `sources`.
import type { GameFile, ProviderFile, SourceEntry, Variant, VariantKind } from '../schemas/authoring.ts';
import type { MergedGame } from './merge.ts';
import type { ProviderTable } from './providers.ts';
import type { SourceFact } from './source.ts';

/**
 * The variants of a game: every figure stated by a source that agrees with the published stated
 * RTP, each once, ascending, with the kind the most trusted of them gives (a kind over `unknown`);
 * the stated figure is `standard`; then the figures other sources state that a configuration rule
 * makes another build (`configurations`, with their kind). Any other figure stays in `sources` only.
 */
export function variantsOf(facts: readonly SourceFact[], stated: number, configurations: ReadonlyMap<number, VariantKind> = new Map()): Variant[] {
  const byRtp = new Map<number, Variant>();
  for (const f of facts) {
    if (f.stated_rtp !== stated) continue;
    for (const v of f.variants) {
      const kind: VariantKind = v.rtp === stated ? 'standard' : v.kind === 'standard' ? 'unknown' : v.kind;
      const had = byRtp.get(v.rtp);
      // A more trusted fact came first: only an `unknown` it left is replaced.
      if (had !== undefined && !(had.kind === 'unknown' && kind !== 'unknown')) continue;
      byRtp.set(
        v.rtp,
        kind === 'jurisdiction' && v.jurisdiction !== undefined
          ? { rtp: v.rtp, kind, jurisdiction: v.jurisdiction }
          : { rtp: v.rtp, kind: kind === 'jurisdiction' ? 'unknown' : kind },
      );
    }
  }
  for (const [rtp, kind] of configurations) if (!byRtp.has(rtp) && kind !== 'jurisdiction' && kind !== 'standard') byRtp.set(rtp, { rtp, kind });
  byRtp.set(stated, { rtp: stated, kind: 'standard' });
  return [...byRtp.values()].sort((a, b) => a.rtp - b.rtp);
}

/** How a catalogue's citation of a provider page is shown: the page as that catalogue cites it, not read here. */
export function viaPhrase(catalogue: string): string {
  return `provider page as cited by ${catalogue}, not checked here`;
}

/** A fact as a `sources` entry (its figures ascending, each once); `titles` names each source file. */
export function sourceEntry(f: SourceFact, titles: ReadonlyMap<string, string> = new Map()): SourceEntry {
  return {
    kind: f.tier,
    via: f.citesProviderPage ? viaPhrase(titles.get(f.file) ?? f.file) : null,
    url: f.url,
    checked_at: f.checked_at,
    stated_rtp: f.stated_rtp,
    rtp_variants: [...new Set([...f.variants.map((v) => v.rtp), f.stated_rtp])].sort((a, b) => a - b),
    file: f.file,
    line: f.line,
  };
}

function firstStated<T>(facts: readonly SourceFact[], pick: (f: SourceFact) => T | null): T | null {
  for (const f of facts) {
    const v = pick(f);
    if (v !== null) return v;
  }
  return null;
}

/**
 * The authoring file of a merged game. `pinnedAt` gives each source file's pinned date, used as
 * `last_verified` when the stating source says nothing of when it was checked; `displayOf` the
 * display name of a studio key (the alias table's), for `studio`.
 */
export function gameFileOf(
  game: MergedGame,
  pinnedAt: ReadonlyMap<string, string>,
  titles: ReadonlyMap<string, string> = new Map(),
  displayOf: (provider: string) => string = (p) => p,
): GameFile {
  const { winner, facts } = game;
  const seed = facts.find((f) => f.tier === 'hand_checked');
  // A hand-checked row's fields are used as they are, its deliberate nulls included; other games take each field from the most trusted source that states it.
  const field = <T>(pick: (f: SourceFact) => T | null): T | null => (seed !== undefined ? pick(seed) : firstStated(facts, pick));
  // The provider's page when a source gives one; else the page the hand-checked row cites; else the stating source's.
  const sourceUrl = facts.find((f) => f.tier === 'provider' || f.citesProviderPage)?.url ?? seed?.page ?? winner.url;
  // The studio as the most trusted line naming one gives it (a line of the studio's own label).
  const studio = facts.find((f) => f.studio !== undefined)?.studio;
  return {
    canonical_slug: game.slug,
    canonical_name: seed?.name ?? game.name,
    provider: game.provider,
    ...(studio === undefined ? {} : { studio: displayOf(studio) }),
    game_type: winner.game_type,
    stated_rtp: winner.stated_rtp,
    rtp_variants: variantsOf(facts, winner.stated_rtp, game.configurations),
    volatility: field((f) => f.volatility),
    max_win_x: field((f) => f.max_win_x),
    release_year: field((f) => f.release_year),
    source_url: sourceUrl,
    evidence_url: winner.url,
    last_verified: winner.checked_at ?? pinnedAt.get(winner.file) ?? '1970-01-01T00:00:00Z',
    notes: [seed?.notes ?? '', game.note].filter((n) => n !== '').join(' '),
    // The stating source first, then the others in precedence order.
    sources: [winner, ...facts.filter((f) => f !== winner)].map((f) => sourceEntry(f, titles)),
  };
}

/**
 * The provider file of every provider with a published game: an existing file keeps its display
 * name and website; a new one takes the alias table's display name and no website (no source
 * states one). The group and the labels come from the alias table.
 */
export function providerFiles(games: readonly MergedGame[], existing: ReadonlyMap<string, ProviderFile>, table: ProviderTable): ProviderFile[] {
  const out = new Map<string, ProviderFile>();
  for (const g of games) {
    if (out.has(g.provider)) continue;
    const row = table.row(g.provider);
    const had = existing.get(g.provider);
    const group = row?.group === null || row === undefined ? null : (table.file.groups[row.group] ?? null);
    out.set(g.provider, {
      provider: g.provider,
      display: had?.display ?? row?.display ?? g.providerName,
      website: had?.website ?? null,
      group,
      aliases: row?.labels ?? [],
    });
  }
  return [...out.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1));
}
