// Adapter for the `slotcatalog` line format (data/sources/slotcatalog.jsonl): one game of a scrape of
// a slot-review site per line, with `rtp_min`, `rtp_max` and sometimes `rtp_default` (strings as
// written; NextGen's carry three decimals). Tier: aggregator. Configuration rule "range minimum"
// (docs/data-model.md): the default is `rtp_default` where given, else `rtp_max`; a lower `rtp_min`
// is an operator build of the same game, never a default. A figure under 80 is no RTP (the scrape
// read another number of the page: Rapunzel's Tower "51.0") and is not taken. A publisher every line
// of which carries one and the same single figure (Endorphina: 96.0 for 46 games) gives a
// placeholder, not each game's figure: those lines are not mapped.
import { parsePercent, providerKey } from '../normalise.ts';
import type { AdapterResult, SourceAdapter, SourceFact } from '../source.ts';
import { citationUrl } from './catalogue.ts';
import { readRows } from './lines.ts';

/** Figures below this are not an RTP of a casino game (the scrape read another number of the page). */
export const LOWEST_RTP = 80;

/** A placeholder needs at least this many lines of one publisher with one figure. */
const PLACEHOLDER_LINES = 5;

interface Line {
  provider?: unknown;
  rtp_min?: unknown;
  rtp_max?: unknown;
  rtp_default?: unknown;
  source_url?: unknown;
}

const figure = (v: unknown): number | null => {
  const n = parsePercent(v);
  return n !== null && n >= LOWEST_RTP ? n : null;
};

/** The single figure of a line with no range, or null. */
function singleFigure(row: Line): number | null {
  const min = figure(row.rtp_min);
  const max = figure(row.rtp_max);
  return min !== null && min === max && (row.rtp_default === null || row.rtp_default === undefined) ? min : null;
}

export const slotcatalogAdapter: SourceAdapter = {
  format: 'slotcatalog',
  read(text: string, file: string): AdapterResult {
    // Publishers whose every line states one and the same single figure.
    const perPublisher = new Map<string, { lines: number; figures: Set<number | null> }>();
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let row: Line;
      try {
        row = JSON.parse(raw) as Line;
      } catch {
        continue;
      }
      if (typeof row.provider !== 'string') continue;
      const p = perPublisher.get(row.provider) ?? { lines: 0, figures: new Set() };
      p.lines++;
      p.figures.add(singleFigure(row));
      perPublisher.set(row.provider, p);
    }
    const placeholder = (label: string): number | null => {
      const p = perPublisher.get(label);
      if (p === undefined || p.lines < PLACEHOLDER_LINES || p.figures.size !== 1) return null;
      return [...p.figures][0] ?? null;
    };
    return readRows<Line>(text, file, (row, name, line) => {
      if (typeof row.provider !== 'string' || row.provider.trim() === '') return 'no provider';
      const same = placeholder(row.provider);
      if (same !== null) return `every line of ${row.provider} states ${same}: a placeholder of the publisher, not this game's figure`;
      const min = figure(row.rtp_min);
      const max = figure(row.rtp_max);
      const given = figure(row.rtp_default);
      const stated = given ?? max;
      if (stated === null)
        return `no RTP figure of ${LOWEST_RTP} or more (rtp_min ${JSON.stringify(row.rtp_min)}, rtp_max ${JSON.stringify(row.rtp_max)}, rtp_default ${JSON.stringify(row.rtp_default)})`;
      const url = citationUrl(row.source_url);
      if (url === null) return `source_url ${JSON.stringify(row.source_url)} is no address`;
      const variants: SourceFact['variants'] = [{ rtp: stated, kind: 'standard' }];
      if (min !== null && min < stated) variants.unshift({ rtp: min, kind: 'operator_ladder' });
      // A maximum above the stated default: the source does not say what it is.
      if (max !== null && max > stated) variants.push({ rtp: max, kind: 'unknown' });
      return {
        file,
        line,
        tier: 'aggregator',
        citesProviderPage: false,
        providerName: row.provider.trim(),
        provider: providerKey(row.provider),
        name,
        stated_rtp: stated,
        variants,
        url,
        page: null,
        notes: '',
        checked_at: null,
        game_type: 'slot',
        volatility: null,
        max_win_x: null,
        release_year: null,
      };
    });
  },
};
