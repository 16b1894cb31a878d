// parseListQuery: defaults, normalisation and the exact 400 messages of every bad parameter.
import { describe, expect, it } from 'vitest';
import { collectParams } from '../../src/list/params.ts';
import { listQueryKey, MAX_QUERY_TERMS, parseListQuery } from '../../src/list/query.ts';
import { ListQuerySchema } from '../../src/schemas/list.ts';

const RANGES = {
  rtp_min: null,
  rtp_max: null,
  volatility: null,
  max_win_min: null,
  released_after: null,
  released_before: null,
  operator: null,
  operator_build: null,
  include: null,
  fields: null,
};
const DEFAULTS = {
  q: null,
  provider: null,
  game_type: null,
  has_variants: false,
  badge: null,
  confidence: null,
  sort: 'name',
  limit: 50,
  offset: 0,
  ...RANGES,
};

function errorsOf(query: string) {
  const r = parseListQuery(query);
  if (r.ok) throw new Error(`expected errors for ${query}`);
  return r.errors;
}

function queryOf(query: string) {
  const r = parseListQuery(query);
  if (!r.ok) throw new Error(`unexpected errors for ${query}: ${JSON.stringify(r.errors)}`);
  return ListQuerySchema.parse(r.query);
}

describe('parseListQuery', () => {
  it('fills in every default, in schema key order', () => {
    const q = queryOf('');
    expect(q).toEqual(DEFAULTS);
    expect(Object.keys(q)).toEqual([
      'q',
      'provider',
      'game_type',
      'has_variants',
      'badge',
      'confidence',
      'sort',
      'limit',
      'offset',
      'rtp_min',
      'rtp_max',
      'volatility',
      'max_win_min',
      'released_after',
      'released_before',
      'operator',
      'operator_build',
      'include',
      'fields',
    ]);
  });

  it('reads every parameter', () => {
    expect(
      queryOf('q=book&provider=netent&game_type=keno&has_variants=1&badge=sources_disagree&confidence=corroborated&sort=rtp_desc&limit=200&offset=1000000'),
    ).toEqual({
      q: 'book',
      provider: 'netent',
      game_type: 'keno',
      has_variants: true,
      badge: 'sources_disagree',
      confidence: 'corroborated',
      sort: 'rtp_desc',
      limit: 200,
      offset: 1_000_000,
      ...RANGES,
    });
    expect(queryOf('rtp_min=96&rtp_max=97.5&volatility=very-high,low,high,low&max_win_min=5000.25&released_after=2015&released_before=2015')).toEqual({
      ...DEFAULTS,
      rtp_min: 96,
      rtp_max: 97.5,
      volatility: ['low', 'high', 'very-high'],
      max_win_min: 5000.25,
      released_after: 2015,
      released_before: 2015,
    });
    expect(queryOf('rtp_min=0&rtp_max=100&max_win_min=0')).toMatchObject({ rtp_min: 0, rtp_max: 100, max_win_min: 0 });
    expect(queryOf('operator=711nl&operator_build=lower')).toEqual({ ...DEFAULTS, operator: '711nl', operator_build: 'lower' });
  });

  it('rejects a malformed operator key and an unknown build, naming each', () => {
    expect(errorsOf('operator=711.NL&operator_build=best')).toEqual([
      { param: 'operator', message: 'must be an operator key: lowercase letters and digits joined by single hyphens (711nl)' },
      { param: 'operator_build', message: 'must be one of: top, lower, higher' },
    ]);
  });

  const RTP = 'must be a percentage from 0 to 100 with at most two decimals (96.5)';
  const WIN = 'must be a multiple of the stake from 0 to 100000000 with at most two decimals (5000)';
  const YEAR = 'must be a year from 1000 to 9999';
  const LEVELS = 'must be one or more of: low, medium, high, very-high (separated by commas)';
  it.each([
    ['rtp_min=96.215', 'rtp_min', RTP],
    ['rtp_min=100.01', 'rtp_min', RTP],
    ['rtp_min=-1', 'rtp_min', RTP],
    ['rtp_max=1e2', 'rtp_max', RTP],
    ['rtp_max=96,5', 'rtp_max', RTP],
    ['rtp_max=.5', 'rtp_max', RTP],
    ['rtp_min=97&rtp_max=96', 'rtp_max', 'must not be below rtp_min'],
    ['volatility=extreme', 'volatility', LEVELS],
    ['volatility=low,,high', 'volatility', LEVELS],
    ['volatility=LOW', 'volatility', LEVELS],
    ['max_win_min=x5000', 'max_win_min', WIN],
    ['max_win_min=100000001', 'max_win_min', WIN],
    ['max_win_min=1.234', 'max_win_min', WIN],
    ['released_after=15', 'released_after', YEAR],
    ['released_after=0999', 'released_after', YEAR],
    ['released_before=2024.0', 'released_before', YEAR],
    ['released_after=2020&released_before=2019', 'released_before', 'must not be before released_after'],
    ['rtp_min=1&rtp_min=2', 'rtp_min', 'must be given at most once'],
  ])('rejects %s naming %s', (query, param, message) => {
    expect(errorsOf(query)).toEqual([{ param, message }]);
  });

  it('reports every bad filter at once, in parameter order', () => {
    expect(errorsOf('released_before=x&volatility=y&rtp_min=z&limit=0&confidence=w').map((e) => e.param)).toEqual([
      'confidence',
      'limit',
      'rtp_min',
      'volatility',
      'released_before',
    ]);
  });

  it('rejects an unknown confidence level, naming the parameter and the levels', () => {
    for (const bad of ['confidence=high', 'confidence=Verified', 'confidence=verified_rtp']) {
      expect(errorsOf(bad)).toEqual([{ param: 'confidence', message: 'must be one of: verified, corroborated, single_source' }]);
    }
    expect(errorsOf('confidence=verified&confidence=corroborated')).toEqual([{ param: 'confidence', message: 'must be given at most once' }]);
    for (const level of ['verified', 'corroborated', 'single_source']) expect(queryOf(`confidence=${level}`).confidence).toBe(level);
  });

  it('rejects an unknown badge, naming the values', () => {
    const r = parseListQuery('badge=verified');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([{ param: 'badge', message: 'must be one of: verified_rtp, variants_tracked, sources_disagree' }]);
  });

  it('accepts URLSearchParams and URL inputs alike', () => {
    expect(parseListQuery(new URLSearchParams('limit=3'))).toEqual(parseListQuery('limit=3'));
    expect(parseListQuery(new URL('http://x/api/rtp/list?limit=3'))).toEqual(parseListQuery('limit=3'));
  });

  it('trims q and collapses its whitespace; + and %20 are spaces', () => {
    expect(queryOf('q=++Book%20%20of+Dead++').q).toBe('Book of Dead');
  });

  it('treats empty values as absent', () => {
    expect(
      queryOf(
        'q=&provider=&game_type=&has_variants=&confidence=&sort=&limit=&offset=&rtp_min=&rtp_max=&volatility=&max_win_min=&released_after=&released_before=',
      ),
    ).toEqual(DEFAULTS);
    expect(queryOf('q=%20%20').q).toBeNull();
  });

  it('ignores unknown parameters, including other cases of known names', () => {
    expect(queryOf('foo=bar&Limit=abc&SORT=zzz&v=1.0.0')).toEqual(DEFAULTS);
  });

  it('turns sort=relevance into name without q, keeps it with q', () => {
    expect(queryOf('sort=relevance').sort).toBe('name');
    expect(queryOf('sort=relevance&q=book').sort).toBe('relevance');
  });

  it('accepts every sort and game_type value', () => {
    for (const s of ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent']) expect(queryOf(`sort=${s}`).sort).toBe(s);
    for (const t of ['slot', 'scratchcard', 'table', 'video_poker', 'instant', 'bingo', 'keno']) expect(queryOf(`game_type=${t}`).game_type).toBe(t);
  });

  it('accepts limit 1 and 200, offset 0 and 1000000, leading zeros', () => {
    expect(queryOf('limit=1').limit).toBe(1);
    expect(queryOf('limit=200').limit).toBe(200);
    expect(queryOf('limit=007').limit).toBe(7);
    expect(queryOf('offset=0').offset).toBe(0);
    expect(queryOf('offset=1000000').offset).toBe(1_000_000);
  });

  const LIMIT = 'must be an integer from 1 to 200';
  const OFFSET = 'must be an integer from 0 to 1000000';
  it.each([
    ['limit=abc', 'limit', LIMIT],
    ['limit=0', 'limit', LIMIT],
    ['limit=201', 'limit', LIMIT],
    ['limit=1.5', 'limit', LIMIT],
    ['limit=-1', 'limit', LIMIT],
    ['limit=%2B5', 'limit', LIMIT],
    ['limit=1e2', 'limit', LIMIT],
    ['limit=%205', 'limit', LIMIT],
    ['limit=99999999999999999999', 'limit', LIMIT],
    ['offset=-1', 'offset', OFFSET],
    ['offset=abc', 'offset', OFFSET],
    ['offset=1.5', 'offset', OFFSET],
    ['offset=1000001', 'offset', OFFSET],
    ['sort=newest', 'sort', 'must be one of: name, provider, rtp_desc, rtp_asc, variants_desc, recent, relevance'],
    ['sort=NAME', 'sort', 'must be one of: name, provider, rtp_desc, rtp_asc, variants_desc, recent, relevance'],
    ['game_type=video', 'game_type', 'must be one of: slot, scratchcard, table, video_poker, instant, bingo, keno'],
    ['has_variants=yes', 'has_variants', 'must be 1 (or left out)'],
    ['has_variants=0', 'has_variants', 'must be 1 (or left out)'],
    ['has_variants=true', 'has_variants', 'must be 1 (or left out)'],
    ['limit=1&limit=2', 'limit', 'must be given at most once'],
    ['q=a&q=b', 'q', 'must be given at most once'],
    ['q=&q=', 'q', 'must be given at most once'],
    ['sort=name&sort=name', 'sort', 'must be given at most once'],
    ['has_variants=1&has_variants=1', 'has_variants', 'must be given at most once'],
    [`q=${'a'.repeat(201)}`, 'q', 'must be at most 200 characters'],
    [`q=${'a'.repeat(10 * 1024)}`, 'q', 'must be at most 200 characters'],
    [`provider=${'p'.repeat(201)}`, 'provider', 'must be at most 200 characters'],
    [`q=${Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join('+')}`, 'q', 'must contain at most 10 words'],
    ['q=a+b+c+d+e+f+g+h+i+j+k', 'q', 'must contain at most 10 words'], // the shortest q with too many words
    ['q=a-b-c-d-e-f-g-h-i-j-k', 'q', 'must contain at most 10 words'],
  ])('%s → 400 naming %s', (query, param, message) => {
    expect(errorsOf(query)).toEqual([{ param, message }]);
  });

  it('accepts ten distinct words, and repeated words once', () => {
    expect(queryOf('q=a+b+c+d+e+f+g+h+i+j').q).toBe('a b c d e f g h i j');
    expect(queryOf('q=a+a+a+a+a+a+a+a+a+a+a+a').q).toBe('a a a a a a a a a a a a');
  });

  it('counts q in characters, not UTF-16 units', () => {
    expect(queryOf(`q=${encodeURIComponent(`${'🎰'.repeat(10)} ${'é'.repeat(189)}`)}`).q).toHaveLength(20 + 1 + 189);
    expect(errorsOf(`q=${encodeURIComponent('🎰'.repeat(201))}`)).toEqual([{ param: 'q', message: 'must be at most 200 characters' }]);
  });

  it('counts distinct words only', () => {
    expect(queryOf(`q=${Array.from({ length: 30 }, () => 'book').join('+')}`).q).toBe(Array.from({ length: 30 }, () => 'book').join(' '));
  });

  it('reports every bad parameter at once, in parameter order', () => {
    expect(errorsOf('offset=-1&limit=0&sort=x&game_type=y&has_variants=2&q=a&q=b&provider=p&provider=p')).toEqual([
      { param: 'q', message: 'must be given at most once' },
      { param: 'provider', message: 'must be given at most once' },
      { param: 'game_type', message: 'must be one of: slot, scratchcard, table, video_poker, instant, bingo, keno' },
      { param: 'has_variants', message: 'must be 1 (or left out)' },
      { param: 'sort', message: 'must be one of: name, provider, rtp_desc, rtp_asc, variants_desc, recent, relevance' },
      { param: 'limit', message: 'must be an integer from 1 to 200' },
      { param: 'offset', message: 'must be an integer from 0 to 1000000' },
    ]);
  });

  it('gives equal keys to equal normalised queries only', () => {
    const key = (s: string) => listQueryKey(queryOf(s));
    expect(key('')).toBe(key('sort=name&limit=50&offset=0&q=&foo=1'));
    expect(key('sort=relevance')).toBe(key('sort=name'));
    expect(key('q=book')).not.toBe(key('q=Book'));
    expect(key('limit=5')).not.toBe(key('offset=5'));
    expect(key('provider=a')).not.toBe(key('q=a'));
    // Free text cannot pass for a field separator and the next field.
    expect(key('q=a%00b')).not.toBe(key('q=a&provider=b'));
    expect(key('q=a%7C-%7Cx')).not.toBe(key('q=a&game_type=slot'));
  });
});

describe('collectParams', () => {
  const viaUrlSearchParams = (input: string, names: readonly string[]) => {
    const out = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(input)) if (names.includes(k)) out.set(k, [...(out.get(k) ?? []), v]);
    return out;
  };
  const names = ['q', 'limit', 'offset', 'sort', ''];
  const pieces = [
    'q=book',
    'q=',
    'q',
    '=x',
    '',
    'limit=5',
    'limit=5=6',
    'q=a+b',
    'q=%41%zz',
    'q=caf%C3%A9',
    'q=é',
    'other=1',
    '?q=x',
    'sort=name',
    'q=a\u0000b',
    'offset=-1',
  ];

  it('reads a query string exactly as URLSearchParams does, with or without anything to decode', () => {
    const rand = (
      (seed: number) => () =>
        (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
    )(7);
    for (let i = 0; i < 2000; i++) {
      const parts = Array.from({ length: Math.floor(rand() * 5) }, () => pieces[Math.floor(rand() * pieces.length)]!);
      const input = (rand() < 0.2 ? '?' : '') + parts.join(rand() < 0.9 ? '&' : '&&');
      expect(collectParams(input, names), input).toEqual(viaUrlSearchParams(input, names));
    }
  });
});
