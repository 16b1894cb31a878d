// How sources' names, providers and figures are compared and converted: the matching key of a game
// name, a name cleaned of its provider suffix, exact percent figures, volatility labels and categories.
import { nameKey, slugify } from '../registry/names.ts';
import type { GameType, Volatility } from '../schemas/authoring.ts';

export { nameKey, slugify };

/**
 * A provisional key for a provider label: the slug of the label. The registry's key comes from the
 * alias table (data/provider-aliases.json, src/ingest/providers.ts), which the ingest applies.
 */
export function providerKey(name: string): string {
  return slugify(name);
}

/**
 * A percent figure exactly as the source gives it ("96.03", 96.2, "95.299"): a number with at most
 * three decimals in (0, 100], or null. Nothing is rounded: a figure with more decimals is refused.
 */
export function parsePercent(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,3}(?:\.\d{1,3})?$/.test(text)) return null;
  const n = Number(text);
  return n > 0 && n <= 100 ? n : null;
}

/**
 * The one volatility label table: every label the sources write that names a level of the
 * registry's scale (docs/data-model.md, "Volatility labels"). Labels are compared lowercased with
 * "_" read as a space. Anything else (a typo such as "medim", "medium+", a range such as
 * "low-high", a bare number such as "2" or "4.83" of no stated scale, "adjustable") stays null.
 */
export const VOLATILITY_LABELS: Readonly<Record<string, Volatility>> = {
  low: 'low',
  'very low': 'low',
  'low-medium': 'medium',
  'low medium': 'medium',
  'medium-low': 'medium',
  'medium low': 'medium',
  'med low': 'medium',
  medium: 'medium',
  'medium-high': 'high',
  'medium high': 'high',
  'med high': 'high',
  high: 'high',
  'very high': 'very-high',
  'very-high': 'very-high',
  'extra high': 'very-high',
  extreme: 'very-high',
  insane: 'very-high',
  '1/5': 'low',
  '2/5': 'medium',
  '3/5': 'medium',
  '4/5': 'high',
  '5/5': 'very-high',
};

/**
 * The registry's volatility for a source's word, or null when the source gives none or a word
 * that is no level ("adjustable", "standard", "low / extreme"). Between two levels (medium-high),
 * the higher; Hacksaw's own "N/5" scale: 1 low, 2-3 medium, 4 high, 5 very high.
 */
export function mapVolatility(word: unknown): Volatility | null {
  return typeof word === 'string' ? (VOLATILITY_LABELS[word.trim().toLowerCase().replace(/_/g, ' ')] ?? null) : null;
}

/** Source categories as registry game types (docs/data-model.md). */
export const CATEGORY_TYPES: Record<string, GameType> = {
  video_slot: 'slot',
  slot: 'slot',
  crash: 'instant',
  instant_win: 'instant',
  scratch: 'scratchcard',
  table: 'table',
};

/** A four-digit year from a date or year text ("2023-07-13", "2023"), or null. */
export function yearOf(value: unknown): number | null {
  const m = typeof value === 'string' || typeof value === 'number' ? /^(\d{4})(?:$|-)/.exec(String(value).trim()) : null;
  return m === null ? null : Number(m[1]);
}

/**
 * A name without a trailing "(<provider label>)" that some sources append ("Aliens (NetEnt)" →
 * "Aliens"); any other bracketed part is part of the name ("Kulup (Club)" stays).
 */
export function withoutProviderSuffix(name: string, labels: readonly string[]): string {
  const m = /^(.*\S)\s*\(([^()]+)\)\s*$/.exec(name);
  if (m === null) return name;
  const inner = nameKey(m[2]!);
  return labels.some((l) => nameKey(l) === inner) ? m[1]! : name;
}
