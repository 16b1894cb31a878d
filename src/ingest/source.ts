// What every source adapter produces: one fact per source line (a game as that line states it),
// and the lines it could not map, with the reason. The merge (src/ingest/merge.ts) turns facts
// from all sources into registry records by the precedence below (docs/data-model.md).
import { type GameType, SOURCE_TIERS, type SourceTier, type VariantKind, type Volatility } from '../schemas/authoring.ts';

export { SOURCE_TIERS, type SourceTier };

/**
 * Lower first: the rank of a fact in the precedence. Provider page read here 0, a licensed
 * operator's catalogue 2, hand-checked 4, a catalogue line citing the provider's page 5, a plain
 * catalogue line 6, aggregator 8: a
 * citation ranks above a plain catalogue line and below the hand-checked seed.
 */
export function factRank(f: Pick<SourceFact, 'tier' | 'citesProviderPage'>): number {
  return SOURCE_TIERS.indexOf(f.tier) * 2 - (f.citesProviderPage ? 1 : 0);
}

/** One game as one source line states it. Figures are exactly those of the line. */
export interface SourceFact {
  /** The source file (data/sources/<file>) and the 1-based line the fact comes from. */
  file: string;
  line: number;
  tier: SourceTier;
  /** True when the line says its figures come from the provider's page it cites (a citation, not a page read here). */
  citesProviderPage: boolean;
  /** The provider as the line names it (display form), and the registry's key for it. */
  providerName: string;
  provider: string;
  /** The studio key the line names, when its game is its distributor's (`provider` is then the distributor). */
  studio?: string;
  name: string;
  /** The name as the line writes it, where the cleaning rules changed it (src/ingest/clean.ts). */
  nameAsWritten?: string;
  /** A build the line's name marks ("(Flash)"): its figure is a variant of the game, never its default. */
  build?: 'flash';
  stated_rtp: number;
  /** Every figure the line states, with its kind (the stated one included, as `standard`). */
  variants: Array<{ rtp: number; kind: VariantKind; jurisdiction?: string }>;
  /** The page the line cites for its figures (a provider page, a review, the source file). */
  url: string;
  /** The page to cite for the game that the line names besides (the seed's `source_url`), if any. */
  page: string | null;
  /** Notes the line carries (the seed's), or ''. */
  notes: string;
  /** When the line's figures were checked, where the source says (ISO date or timestamp). */
  checked_at: string | null;
  game_type: GameType;
  volatility: Volatility | null;
  max_win_x: number | null;
  release_year: number | null;
}

/** A line an adapter could not map, and why. */
export interface Unmapped {
  file: string;
  line: number;
  name: string | null;
  reason: string;
}

export interface AdapterResult {
  facts: SourceFact[];
  unmapped: Unmapped[];
}

/** Reads one line format. `file` is the name shown in facts and problems (data/sources/…). */
export interface SourceAdapter {
  /** The line format, e.g. `igt-slots`, `catalogue`, `seed-csv`. */
  format: string;
  read(text: string, file: string): AdapterResult;
}
