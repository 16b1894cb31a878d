// Adapter for the `seed-csv` format: the hand-checked seed (data/sources/seed/seed-games.csv), one
// game per CSV row, each figure checked against the evidence page the row names. Tier:
// hand_checked; the fact cites the evidence page, where the figures were read.
import { convertRows, parseCsv } from '../seed-import.ts';
import type { AdapterResult, SourceAdapter, SourceFact } from '../source.ts';

export const seedCsvAdapter: SourceAdapter = {
  format: 'seed-csv',
  read(text: string, file: string): AdapterResult {
    const rows = parseCsv(text);
    const { games, problems } = convertRows(rows, [], file);
    // convertRows names rows `seed-games.csv:<line>`; the line numbers are kept.
    const unmapped = problems.map((p) => {
      const line = Number(/:(\d+)$/.exec(p.file)?.[1] ?? 0);
      return { file, line, name: rows[line - 2]?.canonical_name ?? null, reason: `${p.field}: ${p.reason}` };
    });
    const lineOf = new Map(rows.map((r, i) => [r.canonical_slug, i + 2]));
    const displayOf = new Map(rows.map((r) => [r.canonical_slug, r.provider_display ?? r.provider ?? '']));
    const facts: SourceFact[] = games.map((g) => ({
      file,
      line: lineOf.get(g.canonical_slug)!,
      tier: 'hand_checked',
      citesProviderPage: false,
      providerName: displayOf.get(g.canonical_slug)!,
      // The seed's provider keys are the registry's own.
      provider: g.provider,
      name: g.canonical_name,
      stated_rtp: g.stated_rtp,
      variants: g.rtp_variants.map((v) =>
        v.jurisdiction === undefined ? { rtp: v.rtp, kind: v.kind } : { rtp: v.rtp, kind: v.kind, jurisdiction: v.jurisdiction },
      ),
      url: g.evidence_url,
      page: g.source_url,
      notes: g.notes,
      checked_at: g.last_verified,
      game_type: g.game_type,
      volatility: g.volatility,
      max_win_x: g.max_win_x,
      release_year: g.release_year,
    }));
    return { facts, unmapped };
  },
};
