// Pure conversion of the seed CSV rows (shared/data) into authoring records; used by scripts/import-csv.ts.
import { parse } from 'csv-parse/sync';
import type { Problem } from '../registry/problems.ts';
import { type GameFile, GameFileSchema, type ProviderFile, ProviderFileSchema, type RegistryFile, type Variant } from '../schemas/authoring.ts';

export type CsvRow = Record<string, string>;

/** Parses CSV text with a header row (RFC 4180 quoting, CRLF or LF, optional BOM) into rows keyed by column. */
export function parseCsv(text: string): CsvRow[] {
  return parse(text, { columns: true, skip_empty_lines: true, bom: true }) as CsvRow[];
}

const optional = (s: string | undefined): string | null => (s === undefined || s.trim() === '' ? null : s.trim());

/**
 * Variant kinds from the seed's documented meaning: the stated value is the provider's `standard`
 * build; lower values are builds operators may run (`operator_ladder`, per the seed README); a value
 * the notes name as the German build is `jurisdiction` DE; anything else is `unknown`.
 */
export function variantKinds(stated: number, rtps: number[], notes: string): Variant[] {
  const german = [...notes.matchAll(/German (\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1]));
  return rtps.map((rtp): Variant => {
    if (rtp === stated) return { rtp, kind: 'standard' };
    if (german.includes(rtp)) return { rtp, kind: 'jurisdiction', jurisdiction: 'DE' };
    if (rtp < stated) return { rtp, kind: 'operator_ladder' };
    return { rtp, kind: 'unknown' };
  });
}

/** Converts CSV rows to validated authoring records; every row problem is reported with its line. */
export function convertRows(
  gameRows: CsvRow[],
  providerRows: CsvRow[],
  sourceFile = 'sources/seed-games.csv',
): {
  games: GameFile[];
  providers: ProviderFile[];
  registry: RegistryFile;
  problems: Problem[];
} {
  const problems: Problem[] = [];
  const providers: ProviderFile[] = [];
  providerRows.forEach((row, i) => {
    const parsed = ProviderFileSchema.safeParse({ provider: row.provider, display: row.provider_display, website: row.website });
    if (parsed.success) providers.push(parsed.data);
    else for (const issue of parsed.error.issues) problems.push({ file: `providers.csv:${i + 2}`, field: issue.path.join('.'), reason: issue.message });
  });
  const games: GameFile[] = [];
  let latest = '';
  gameRows.forEach((row, i) => {
    const stated = Number(row.stated_rtp);
    const rtps = (row.rtp_variants ?? '')
      .split(';')
      .filter((s) => s.trim() !== '')
      .map(Number);
    const notes = row.notes ?? '';
    const year = optional(row.release_year);
    const maxWin = optional(row.max_win_x);
    const candidate = {
      canonical_slug: row.canonical_slug,
      canonical_name: row.canonical_name,
      provider: row.provider,
      game_type: row.game_type,
      stated_rtp: stated,
      rtp_variants: variantKinds(stated, rtps.length > 0 ? rtps : [stated], notes),
      volatility: optional(row.volatility),
      max_win_x: maxWin === null ? null : Number(maxWin),
      release_year: year === null ? null : Number(year),
      source_url: row.source_url,
      evidence_url: row.evidence_url,
      last_verified: row.checked_at,
      notes,
      // The row itself is the source: checked by hand against its evidence page.
      sources: [
        {
          kind: 'hand_checked',
          url: row.evidence_url,
          checked_at: row.checked_at,
          stated_rtp: stated,
          rtp_variants: [...new Set(rtps.length > 0 ? rtps : [stated])].sort((a, b) => a - b),
          file: sourceFile,
          line: i + 2,
        },
      ],
    };
    const parsed = GameFileSchema.safeParse(candidate);
    if (parsed.success) {
      games.push(parsed.data);
      if (parsed.data.last_verified > latest) latest = parsed.data.last_verified;
    } else {
      // The row's own `sources` entry repeats its figures: its problems are those of the fields it repeats.
      for (const issue of parsed.error.issues)
        if (issue.path[0] !== 'sources') problems.push({ file: `seed-games.csv:${i + 2}`, field: issue.path.join('.') || '(row)', reason: issue.message });
    }
  });
  const registry: RegistryFile = {
    data_version: '0.0.0',
    frozen_at: latest || '1970-01-01T00:00:00Z',
    license: 'CC-BY-4.0',
    license_url: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: 'RTP Registry, provider-stated RTP data, CC BY 4.0',
  };
  return { games, providers, registry, problems };
}
