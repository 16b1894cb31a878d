// A valid value of each list route parameter, for tests that combine one parameter with another,
// and the names a "cannot be combined with …" message lists.

/** A value each list route parameter accepts on its own. */
export const VALID_PARAM_VALUES: Readonly<Record<string, string>> = {
  q: 'book',
  provider: 'playngo',
  game_type: 'slot',
  has_variants: '1',
  badge: 'verified_rtp',
  confidence: 'verified',
  sort: 'name',
  limit: '5',
  offset: '0',
  rtp_min: '90',
  rtp_max: '99',
  volatility: 'high',
  max_win_min: '100',
  released_after: '2015',
  released_before: '2024',
  operator: '711nl',
  operator_build: 'top',
  include: 'sources',
  fields: 'canonical_slug',
  updated_since: '2026-01-01',
  slugs: 'book-of-dead',
};

/** The parameter names a "cannot be combined with a, b, c" message lists, in its order. */
export function namedParams(message: string): string[] {
  const m = /^cannot be combined with (.+)$/.exec(message);
  if (m === null) throw new Error(`not a "cannot be combined with" message: ${message}`);
  return m[1]!.split(', ');
}
