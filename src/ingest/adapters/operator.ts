// Adapter for the `operator-catalogue` line format (data/sources/operator-711nl.jsonl): one game of a
// licensed online casino's per-studio catalogue per line, as that casino's own games API gave it:
// the name as written, the studio file's name as the provider label, the RTP of the build the
// casino runs (a string as written: "96.2" is 96.20), and the file and array index it was read
// from. Tier: operator. The line cites the studio file at the pinned commit.
import { parsePercent } from '../normalise.ts';
import type { AdapterResult, SourceAdapter } from '../source.ts';
import { readRows } from './lines.ts';

interface Line {
  provider?: unknown;
  rtp?: unknown;
  file?: unknown;
  repo?: unknown;
  commit?: unknown;
}

/** The address of the studio file a line was read from, at the pinned commit; null when the line lacks one. */
export function studioFileUrl(row: Line): string | null {
  const { repo, commit, file } = row;
  if (typeof repo !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(repo)) return null;
  if (typeof commit !== 'string' || !/^[0-9a-f]{40}$/.test(commit)) return null;
  if (typeof file !== 'string' || !/^[\w./-]+$/.test(file) || file.includes('..')) return null;
  return `https://github.com/${repo}/blob/${commit}/${file}`;
}

export const operatorAdapter: SourceAdapter = {
  format: 'operator-catalogue',
  read(text: string, file: string): AdapterResult {
    return readRows<Line>(text, file, (row, name, line) => {
      if (typeof row.provider !== 'string' || row.provider.trim() === '') return 'no studio file';
      const stated = parsePercent(row.rtp);
      if (stated === null) return `rtp ${JSON.stringify(row.rtp)} is not a percent figure`;
      const url = studioFileUrl(row);
      if (url === null) return 'no repository, commit and file to cite';
      return {
        file,
        line,
        tier: 'operator',
        citesProviderPage: false,
        providerName: row.provider.trim(),
        provider: row.provider.trim(),
        name,
        stated_rtp: stated,
        variants: [{ rtp: stated, kind: 'standard' }],
        url,
        page: null,
        notes: '',
        checked_at: null,
        game_type: 'slot',
        // The catalogue states none of these.
        volatility: null,
        max_win_x: null,
        release_year: null,
      };
    });
  },
};
