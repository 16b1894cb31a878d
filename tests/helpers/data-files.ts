// Reads a registry's data files directly (no src/ code), for tests that compute expected answers independently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GameRecord } from '../../src/schemas/game-record.ts';

export interface DataFiles {
  meta: { data_version: string; frozen_at: string };
  providers: Array<{ provider: string; display: string }>;
  /** operators/*.json's keys and names (none where the folder is missing). */
  operators: Array<{ operator: string; display: string }>;
  /** The fields the list route sorts and filters on, per game. */
  games: GameRecord[];
}

/**
 * Where a source's figures come from, as data/sources/README.md describes the files: the overlay table and the
 * review-site scrape are one origin; a hand-checked row is the evidence it names (Slotfolio, the slot API, else its site).
 */
function originOf(s: { kind: string; file: string; url: string }): string {
  if (s.kind === 'hand_checked') {
    const url = s.url.toLowerCase();
    if (url.includes('github.com/pr0ject2/slotfolio/')) return 'slotfolio';
    if (url.includes('i-gaming.tools/') || url.includes('github.com/igamingtools/')) return 'igt';
    return `site:${new URL(s.url).hostname.replace(/^www\./, '')}`;
  }
  const byFile: Record<string, string> = {
    'sources/slotfolio.jsonl': 'slotfolio',
    'sources/igt-slots.jsonl': 'igt',
    'sources/overlay-slots.jsonl': 'scrapes',
    'sources/slotcatalog.jsonl': 'scrapes',
  };
  return byFile[s.file] ?? s.file;
}

/** Loads registry.json, providers/*.json and games/<provider>/<slug>.json from `dir`. */
export function readDataFiles(dir: string): DataFiles {
  const meta = JSON.parse(readFileSync(path.join(dir, 'registry.json'), 'utf8'));
  const providers = readdirSync(path.join(dir, 'providers'))
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(path.join(dir, 'providers', f), 'utf8')) as { provider: string; display: string; group?: string | null; aliases?: string[] },
    );
  const display = new Map(providers.map((p) => [p.provider, p.display]));
  // What search finds a provider's games by besides its key and name: its group and every label the sources write.
  const also = new Map(providers.map((p) => [p.provider, [p.group ?? '', ...(p.aliases ?? [])].join(' ')]));
  const operatorFiles = existsSync(path.join(dir, 'operators')) ? readdirSync(path.join(dir, 'operators')).filter((f) => f.endsWith('.json')) : [];
  const operators = operatorFiles.map(
    (f) => JSON.parse(readFileSync(path.join(dir, 'operators', f), 'utf8')) as { operator: string; display: string; sources: Array<{ file: string }> },
  );
  // Each operator line's build, against the stated RTP (docs/data-model.md, "Public game record").
  const operatorOf = new Map(operators.flatMap((o) => o.sources.map((s) => [s.file, o.operator] as const)));
  const games: GameRecord[] = [];
  for (const provider of readdirSync(path.join(dir, 'games'))) {
    for (const file of readdirSync(path.join(dir, 'games', provider))) {
      const g = JSON.parse(readFileSync(path.join(dir, 'games', provider, file), 'utf8'));
      // Confidence (docs/data-model.md, "Derivation rules"): a provider page states the figure, or a licensed casino and
      // another origin do and no source states more: verified; two origins: corroborated; else single source.
      const sources = g.sources as Array<{ kind: string; stated_rtp: number; file: string; url: string }>;
      const agreeing = sources.filter((s) => s.stated_rtp === g.stated_rtp);
      const origins = new Set(agreeing.map(originOf));
      const operator = agreeing.find((s) => s.kind === 'operator');
      const byCasino = operator !== undefined && origins.size >= 2 && sources.every((s) => s.stated_rtp <= g.stated_rtp);
      const confidence = agreeing.some((s) => s.kind === 'provider') || byCasino ? 'verified' : origins.size >= 2 ? 'corroborated' : 'single_source';
      games.push({
        canonical_slug: g.canonical_slug,
        canonical_name: g.canonical_name,
        provider: g.provider,
        provider_display: display.get(g.provider)!,
        stated_rtp: g.stated_rtp,
        variants_count: g.rtp_variants.length,
        release_year: g.release_year,
        volatility: g.volatility,
        max_win: g.max_win_x,
        last_verified: g.last_verified,
        game_type: g.game_type,
        confidence,
        also: also.get(g.provider) ?? '',
        operators: sources
          .filter((s) => s.kind === 'operator' && operatorOf.has(s.file))
          .map((s) => ({ operator: operatorOf.get(s.file)!, build: s.stated_rtp === g.stated_rtp ? 'top' : s.stated_rtp < g.stated_rtp ? 'lower' : 'higher' })),
      } as unknown as GameRecord);
    }
  }
  return {
    meta,
    providers: providers.map((p) => ({ provider: p.provider, display: p.display })),
    operators: operators.map((o) => ({ operator: o.operator, display: o.display })),
    games,
  };
}
