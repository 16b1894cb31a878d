// Adapter for the `catalogue` line format (data/sources/slotfolio.jsonl, calcasi.jsonl,
// overlay-slots.jsonl): one game of a catalogue's data files per line, with the figure it lists
// first (a number, or a string as the file writes it: "96.2" is 96.20), every figure it lists, and
// the page it cites. Tier: catalogue; aggregator where the line says so (`source_kind:
// "aggregator"`: the overlay app's table, which cites nothing). A line that says its figure comes from the provider's own page
// (`source_kind: "provider"`) is the catalogue's citation of that page, not the page (this project
// has not read it): it ranks above a plain catalogue line and is shown with `via`. A `github:owner/repo/path@commit` citation (the
// catalogue's own file) becomes that file's address on GitHub at the commit.
import { mapVolatility, parsePercent, providerKey, yearOf } from '../normalise.ts';
import type { AdapterResult, SourceAdapter } from '../source.ts';
import { readRows } from './lines.ts';

interface Line {
  name?: unknown;
  provider?: unknown;
  rtp?: unknown;
  rtp_variants?: unknown;
  source_kind?: unknown;
  source_url?: unknown;
  volatility?: unknown;
  max_win_x?: unknown;
  release?: unknown;
}

/** `github:owner/repo/some/path.ts@commit` → https://github.com/owner/repo/blob/commit/some/path.ts; http(s) URLs as they are. */
export function citationUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (/^https?:\/\/[^\s]+$/.test(value)) return value;
  const m = /^github:([\w.-]+)\/([\w.-]+)\/([^@\s]+)@([0-9a-f]{7,40})$/.exec(value);
  return m === null ? null : `https://github.com/${m[1]}/${m[2]}/blob/${m[4]}/${m[3]}`;
}

export const catalogueAdapter: SourceAdapter = {
  format: 'catalogue',
  read(text: string, file: string): AdapterResult {
    return readRows<Line>(text, file, (row, name, line) => {
      if (typeof row.provider !== 'string' || row.provider.trim() === '') return 'no provider';
      const stated = parsePercent(row.rtp);
      if (stated === null) return `rtp ${JSON.stringify(row.rtp)} is not a percent figure`;
      const url = citationUrl(row.source_url);
      if (url === null) return `source_url ${JSON.stringify(row.source_url)} is no address`;
      const listed = Array.isArray(row.rtp_variants) ? row.rtp_variants.map(parsePercent) : [];
      if (listed.some((r) => r === null)) return 'rtp_variants holds a value that is not a percent figure';
      const others = [...new Set(listed as number[])].filter((r) => r !== stated).sort((a, b) => a - b);
      return {
        file,
        line,
        tier: row.source_kind === 'aggregator' ? 'aggregator' : 'catalogue',
        citesProviderPage: row.source_kind === 'provider',
        providerName: row.provider.trim(),
        provider: providerKey(row.provider),
        name,
        stated_rtp: stated,
        // The catalogue does not say what its other figures are.
        variants: [...others.map((rtp) => ({ rtp, kind: 'unknown' as const })), { rtp: stated, kind: 'standard' as const }],
        url,
        page: null,
        notes: '',
        checked_at: null,
        game_type: 'slot',
        volatility: mapVolatility(row.volatility),
        max_win_x: typeof row.max_win_x === 'number' && row.max_win_x > 0 ? row.max_win_x : null,
        release_year: yearOf(row.release),
      };
    });
  },
};
