// How sources' names, providers and figures are compared and converted: the matching key of a game
// name, the registry key of a provider, exact percent figures, volatility words and categories.
import { nameKey, slugify } from '../registry/names.ts';
import type { GameType, Volatility } from '../schemas/authoring.ts';

export { nameKey, slugify };

/**
 * Registry keys of providers whose key is not the slug of their name (the keys already published
 * stay as they are). Looked up by the name's matching key.
 */
const PROVIDER_KEYS: Record<string, string> = {
  playngo: 'playngo',
  hacksawgaming: 'hacksaw',
  hacksaw: 'hacksaw',
  belatragames: 'belatra',
  belatra: 'belatra',
  yggdrasilgaming: 'yggdrasil',
  yggdrasil: 'yggdrasil',
  pgsoft: 'pg-soft',
  elkstudios: 'elk-studios',
  avatarux: 'avatarux',
  poggiplay: 'poggiplay',
  onlyplay: 'onlyplay',
  bgaming: 'bgaming',
};

/** The registry key of a provider named `name` in a source. */
export function providerKey(name: string): string {
  return PROVIDER_KEYS[nameKey(name)] ?? slugify(name);
}

/**
 * A percent figure exactly as the source gives it ("96.03", 96.2): a number with at most two
 * decimals in (0, 100], or null. Nothing is rounded: a figure with more decimals is refused.
 */
export function parsePercent(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,3}(?:\.\d{1,2})?$/.test(text)) return null;
  const n = Number(text);
  return n > 0 && n <= 100 ? n : null;
}

const VOLATILITY_WORDS: Record<string, Volatility> = {
  low: 'low',
  'very low': 'low',
  'low-medium': 'medium',
  'medium-low': 'medium',
  medium: 'medium',
  'medium-high': 'high',
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
  return typeof word === 'string' ? (VOLATILITY_WORDS[word.trim().toLowerCase()] ?? null) : null;
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
