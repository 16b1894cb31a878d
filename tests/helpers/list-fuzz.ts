// The generated list and history queries of the hardening fuzz (tests/integration/harden-http.test.ts),
// also checked against the OpenAPI document by tests/integration/contract.test.ts: seeded, so a seed
// reproduces a run.
import { GAME_TYPES } from '../../src/schemas/authoring.ts';
import { LIST_SORTS } from '../../src/schemas/list.ts';
import { rng } from './list-fixture.ts';

const PARAMS = ['q', 'provider', 'game_type', 'has_variants', 'sort', 'limit', 'offset'] as const;
const VALID: Record<(typeof PARAMS)[number], readonly string[]> = {
  q: ['book', 'dead', 'BOOK OF', 'bóók', 'of', 'x', 'gold rush', 'sweet bonanza', 'ra', 'reactoonz'],
  provider: ['playngo', 'netent', 'pragmatic-play', 'hacksaw', 'no-such-provider'],
  game_type: GAME_TYPES,
  has_variants: ['1'],
  sort: LIST_SORTS,
  limit: ['1', '2', '50', '199', '200'],
  offset: ['0', '1', '10', '132', '133', '500', '1000000'],
};
const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '+1',
  '1.5',
  '1e3',
  '0x10',
  '201',
  '9999999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'yes',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '"\'><img src=x onerror=alert(1)>',
  "' OR '1'='1' --",
  '../../etc/passwd',
  '..\\..\\windows',
  '\u0000',
  'a\u0000b',
  '\u202egnp.exe',
  '\u200b',
  '😀',
  '👨‍👩‍👧‍👦',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301',
  'ǅ',
  'İstanbul',
  'STRASSE ß',
  '\uFFFF',
  '\uFEFF',
  'Ωmega',
  '日本語のゲーム',
  'عربي',
  '\t\n\r',
  '   book   ',
  '*',
  '?',
  '%',
  '#',
  '\\',
];
/** Already percent-encoded (or deliberately broken) text, inserted into the query as is. */
const RAW = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '+',
  '++',
  '%2B',
  '&&',
  '==',
  ';',
  '%26',
  '%3D',
  '%25',
  '%2525',
  '%u0041',
  '%%32%65',
];

/**
 * `count` list and history query strings (seeded): every combination of the seven parameters with
 * valid values, twice, then random, hostile, repeated, huge and broken ones.
 */
export function fuzzQueries(count: number, seed: number): string[] {
  const rnd = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const enc = (s: string) => encodeURIComponent(s);
  const randomText = (max: number) => {
    let s = '';
    const n = Math.floor(rnd() * max);
    for (let k = 0; k < n; k++) {
      const r = rnd();
      const cp =
        r < 0.5
          ? 0x20 + Math.floor(rnd() * 0x5f)
          : r < 0.8
            ? 0xa0 + Math.floor(rnd() * 0x2000)
            : r < 0.95
              ? 0x3000 + Math.floor(rnd() * 0x6000)
              : 0x1f300 + Math.floor(rnd() * 0x300);
      s += String.fromCodePoint(cp);
    }
    return s;
  };
  const value = (name: (typeof PARAMS)[number]) => {
    const r = rnd();
    if (r < 0.6) return enc(pick(VALID[name]));
    if (r < 0.8) return enc(pick(HOSTILE));
    if (r < 0.9) return pick(RAW);
    return enc(randomText(40));
  };
  const out: string[] = [];
  // Every combination of the seven parameters, with valid values, twice.
  for (let round = 0; round < 2; round++) {
    for (let mask = 0; mask < 1 << PARAMS.length; mask++) {
      out.push(
        PARAMS.filter((_, i) => mask & (1 << i))
          .map((p) => `${p}=${enc(pick(VALID[p]))}`)
          .join('&'),
      );
    }
  }
  while (out.length < count) {
    const mode = rnd();
    const parts: string[] = [];
    if (mode < 0.35) {
      for (const p of PARAMS) if (rnd() < 0.5) parts.push(`${p}=${value(p)}`);
    } else if (mode < 0.55) {
      const n = 1 + Math.floor(rnd() * 10);
      for (let k = 0; k < n; k++) {
        const name = rnd() < 0.6 ? pick(PARAMS) : rnd() < 0.5 ? enc(randomText(12)) : pick(RAW);
        parts.push(rnd() < 0.1 ? name : `${name}=${rnd() < 0.5 ? enc(randomText(30)) : pick(RAW)}`);
      }
    } else if (mode < 0.75) {
      // Repeated parameters, hostile values.
      const p = pick(PARAMS);
      const times = 2 + Math.floor(rnd() * (rnd() < 0.1 ? 200 : 5));
      for (let k = 0; k < times; k++) parts.push(`${p}=${rnd() < 0.5 ? enc(pick(VALID[p])) : enc(pick(HOSTILE))}`);
      if (rnd() < 0.5) parts.push(`${pick(PARAMS)}=${pick(RAW)}`);
    } else if (mode < 0.85) {
      // Huge values (the request line stays under Node's 16 KB header limit).
      const p = pick(PARAMS);
      const size = 200 + Math.floor(rnd() * 3000);
      parts.push(`${p}=${enc(rnd() < 0.5 ? 'a'.repeat(size) : 'book '.repeat(size / 5))}`);
      if (rnd() < 0.5) parts.push(`q=${enc('😀'.repeat(Math.floor(size / 4)))}`);
    } else {
      // Valid queries with one hostile twist.
      for (const p of PARAMS) if (rnd() < 0.4) parts.push(`${p}=${enc(pick(VALID[p]))}`);
      parts.splice(Math.floor(rnd() * (parts.length + 1)), 0, `${pick(PARAMS)}=${rnd() < 0.5 ? pick(RAW) : enc(pick(HOSTILE))}`);
    }
    out.push(parts.join(rnd() < 0.05 ? '&&' : '&'));
  }
  return out;
}
