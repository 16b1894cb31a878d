// Adapter for the `igt-slots` line format: one game of a slot data API's public documentation per
// line (data/sources/igt-slots.jsonl), its example response's figures with their variant kinds.
// Tier: aggregator (the documentation calls its values illustrative).
import type { VariantKind } from '../../schemas/authoring.ts';
import { CATEGORY_TYPES, mapVolatility, parsePercent, providerKey, yearOf } from '../normalise.ts';
import type { AdapterResult, SourceAdapter, SourceFact } from '../source.ts';
import { readRows } from './lines.ts';

/** The API's variant words as registry variant kinds. */
const KINDS: Record<string, VariantKind> = {
  default: 'standard',
  bonus_buy: 'bonus_buy',
  ante_bet: 'ante_bet',
  player_config: 'player_config',
  feature: 'feature',
  operator_config: 'operator_ladder',
};

interface Line {
  name?: unknown;
  provider_name?: unknown;
  game_category?: unknown;
  rtp_default?: unknown;
  rtp_variants?: unknown;
  volatility?: unknown;
  release_date?: unknown;
  public_page?: unknown;
}

export const igtSlotsAdapter: SourceAdapter = {
  format: 'igt-slots',
  read(text: string, file: string): AdapterResult {
    return readRows<Line>(text, file, (row, name, line) => {
      if (typeof row.provider_name !== 'string' || row.provider_name.trim() === '') return 'no provider_name';
      const gameType = typeof row.game_category === 'string' ? CATEGORY_TYPES[row.game_category] : undefined;
      if (gameType === undefined) return `game_category ${JSON.stringify(row.game_category)} maps to no game type`;
      const stated = parsePercent(row.rtp_default);
      if (stated === null) return `rtp_default ${JSON.stringify(row.rtp_default)} is not a percent figure`;
      if (typeof row.public_page !== 'string' || !/^https?:\/\//.test(row.public_page)) return 'no public_page URL';
      const variants: SourceFact['variants'] = [];
      let bad: string | null = null;
      for (const v of Array.isArray(row.rtp_variants) ? (row.rtp_variants as Array<Record<string, unknown>>) : []) {
        const rtp = parsePercent(v.rtp);
        const kind = typeof v.variant === 'string' ? KINDS[v.variant] : undefined;
        if (rtp === null || kind === undefined) {
          bad = `a variant ${JSON.stringify(v)} has no percent figure or a kind of no known meaning`;
          break;
        }
        variants.push({ rtp, kind: v.is_default === true ? 'standard' : kind });
      }
      if (bad !== null) return bad;
      if (!variants.some((v) => v.rtp === stated && v.kind === 'standard')) variants.push({ rtp: stated, kind: 'standard' });
      return {
        file,
        line,
        tier: 'aggregator',
        citesProviderPage: false,
        providerName: row.provider_name.trim(),
        provider: providerKey(row.provider_name),
        name,
        stated_rtp: stated,
        variants,
        url: row.public_page,
        page: null,
        notes: '',
        checked_at: null,
        game_type: gameType,
        volatility: mapVolatility(row.volatility),
        max_win_x: null,
        release_year: yearOf(row.release_date),
      };
    });
  },
};
