// Deterministic list-route query sets for the benchmark: a realistic mix and a combinatorial stream of distinct queries.
// Emits URL query strings for GET /api/rtp/list (the caller prefixes the path).

import { tokenize } from '../../src/schemas/text.ts';
import { Dice } from '../lib/synth.ts';

export const SORTS = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent', 'relevance'] as const;
export type Sort = (typeof SORTS)[number];
/** Sorts that need no `q` to be meaningful. */
const PLAIN_SORTS: readonly Sort[] = SORTS.filter((s) => s !== 'relevance');

/** One list query; absent fields are left to the route's defaults. */
export interface ListQuery {
  q?: string;
  provider?: string;
  game_type?: string;
  has_variants?: boolean;
  sort?: Sort;
  limit?: number;
  offset?: number;
}

/** What the generators draw from: words of the games' names, provider keys and display names, game types. */
interface Vocabulary {
  words: string[];
  providers: Array<{ key: string; display: string }>;
  gameTypes: string[];
  total: number;
}

/** The fields of a public record the vocabulary needs. */
export interface VocabularyRecord {
  canonical_name: string;
  provider: string;
  provider_display: string;
  game_type: string;
}

const STOP_WORDS = new Set(['of', 'the', 'and', 'a', 'an', 'in', 'on', 'to', 'for', 'with', 'at', 'by', 'de', 'la', 'le']);
/** The words of a name the generators use: 3+ letters, not a stop word, not a number. */
const nameWords = (name: string) => tokenize(name).filter((x) => x.length >= 3 && !STOP_WORDS.has(x) && !/^\d+$/.test(x));

/** Collects the vocabulary of a registry (sorted, so the same records give the same vocabulary). */
export function vocabularyOf(records: readonly VocabularyRecord[]): Vocabulary {
  const w = new Set<string>();
  const providers = new Map<string, string>();
  const types = new Set<string>();
  for (const r of records) {
    for (const x of nameWords(r.canonical_name)) w.add(x);
    providers.set(r.provider, r.provider_display);
    types.add(r.game_type);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    words: [...w].sort(cmp),
    providers: [...providers].sort((a, b) => cmp(a[0], b[0])).map(([key, display]) => ({ key, display })),
    gameTypes: [...types].sort(cmp),
    total: records.length,
  };
}

/** The name word (3+ letters, not a stop word) that occurs in most names; ties go to the alphabetically first. */
export function mostFrequentWord(records: readonly Pick<VocabularyRecord, 'canonical_name'>[]): string {
  const counts = new Map<string, number>();
  for (const r of records) for (const w of new Set(nameWords(r.canonical_name))) counts.set(w, (counts.get(w) ?? 0) + 1);
  let best = '';
  let n = 0;
  for (const [w, c] of counts) if (c > n || (c === n && w < best)) [best, n] = [w, c];
  if (best === '') throw new Error('query-mix: no name words');
  return best;
}

const SEARCH_ORDER = ['q', 'provider', 'game_type', 'has_variants', 'sort', 'limit', 'offset'] as const;

/** Fixed parameter order, so equal queries give equal strings. */
export function toSearch(query: ListQuery): string {
  return SEARCH_ORDER.filter((k) => query[k] !== undefined && query[k] !== false)
    .map((k) => `${k}=${k === 'has_variants' ? 1 : encodeURIComponent(query[k]!)}`)
    .join('&');
}

/** The list route's path for a query. */
export const listPath = (query: ListQuery) => `/api/rtp/list?${toSearch(query)}`;

/**
 * The query as the route would apply it (defaults filled in, q lowercased with single spaces), so two
 * generated queries that a response cache would treat as one count as one.
 */
export function normalisedKey(query: ListQuery): string {
  const q = query.q === undefined ? '' : tokenize(query.q).join(' ');
  const fields = [q, query.provider ?? '', query.game_type ?? '', query.has_variants ? '1' : '', query.sort ?? 'name', query.limit ?? 50, query.offset ?? 0];
  return fields.join('\u0000');
}

/** Page sizes of the mix and their weights: mostly the default, sometimes small pages, rarely the maximum. */
const MIX_LIMITS: ReadonlyArray<readonly [number | undefined, number]> = [
  [undefined, 40],
  [10, 10],
  [20, 15],
  [25, 10],
  [50, 10],
  [100, 10],
  [200, 5],
];

function mixQ(dice: Dice, vocab: Vocabulary): string {
  const r = dice.next();
  let q: string;
  if (r < 0.5 || vocab.words.length < 2) q = dice.pick(vocab.words);
  else if (r < 0.75) {
    const w = dice.pick(vocab.words);
    q = w.slice(0, Math.max(3, Math.min(w.length - 1, 3 + Math.floor(dice.next() * 3))));
  } else if (r < 0.9) q = `${dice.pick(vocab.words)} ${dice.pick(vocab.words)}`;
  else q = dice.pick(vocab.providers).display;
  // Some capitalised, as people type them.
  return dice.chance(0.2) ? q.replace(/(^|\s)(\p{L})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase()) : q;
}

/**
 * A fixed mix of `count` distinct realistic list queries (distinct after normalisation): q words and
 * prefixes drawn from the names, provider display names, provider and game_type filters, has_variants,
 * every sort (cycled, so all appear; relevance always with q) and the default, limits (mostly the
 * default 50, then 20, 10, 25, 50, 100, rarely 200), page
 * walks and deep offsets (these mostly without q, as a crawler walks the list). Deterministic in `seed`.
 */
export function queryMix(vocab: Vocabulary, count: number, seed = 1): ListQuery[] {
  if (vocab.words.length === 0 || vocab.providers.length === 0) throw new Error('query-mix: empty vocabulary');
  const dice = new Dice(seed); // the registry generator's seeded PRNG: the mix is reproducible
  const seen = new Set<string>();
  const out: ListQuery[] = [];
  const sortCycle: Array<Sort | undefined> = [undefined, ...SORTS];
  let attempts = 0;
  while (out.length < count) {
    if (++attempts > count * 50) throw new Error(`query-mix: could not find ${count} distinct queries (found ${out.length})`);
    const sort = sortCycle[attempts % sortCycle.length];
    const query: ListQuery = {};
    if (sort === 'relevance' || dice.chance(0.6)) query.q = mixQ(dice, vocab);
    if (dice.chance(0.25)) query.provider = dice.pick(vocab.providers).key;
    if (dice.chance(0.15)) query.game_type = dice.pick(vocab.gameTypes);
    if (dice.chance(0.15)) query.has_variants = true;
    if (sort !== undefined) query.sort = sort;
    const limit = dice.weighted(MIX_LIMITS);
    if (limit !== undefined) query.limit = limit;
    const size = limit ?? 50;
    const r = dice.next();
    if (query.q === undefined) {
      if (r < 0.3) {
        const pages = Math.max(1, Math.floor(vocab.total / size));
        query.offset = Math.floor(dice.next() * pages) * size; // deep: anywhere in the registry
      } else if (r < 0.6) query.offset = (1 + Math.floor(dice.next() * 5)) * size;
    } else if (r < 0.2) query.offset = (1 + Math.floor(dice.next() * 3)) * size;
    const key = normalisedKey(query);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(query);
  }
  return out;
}

const STREAM_LIMITS = [10, 20, 50, 100] as const;
const STREAM_PAGES = [0, 1, 2, 3, 5, 10, 20, 50] as const;

/** Filter combinations of the distinct stream: none, has_variants, each of two game types, up to 8 providers. */
function streamFilters(vocab: Vocabulary): ListQuery[] {
  const f: ListQuery[] = [{}, { has_variants: true }];
  for (const t of vocab.gameTypes.slice(0, 2)) f.push({ game_type: t });
  for (const p of vocab.providers.slice(0, 8)) f.push({ provider: p.key });
  return f;
}

/** q values of the distinct stream: every name word and, where different, its 3- and 4-letter prefixes. */
function streamQs(vocab: Vocabulary): string[] {
  const qs = new Set<string>();
  for (const w of vocab.words) {
    qs.add(w);
    if (w.length > 3) qs.add(w.slice(0, 3));
    if (w.length > 4) qs.add(w.slice(0, 4));
  }
  return [...qs].sort();
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * A combinatorial stream of distinct list queries: query `i` for i < size is a mixed-radix decoding of
 * a fixed permutation of i over (q or none with sort) x filter x limit x page, so consecutive queries
 * differ in every dimension and no two indices below `size` give the same normalised query (no
 * response-cache hit). Deterministic; `at(i)` wraps modulo `size`.
 */
export function distinctStream(vocab: Vocabulary): { size: number; at: (i: number) => ListQuery } {
  const qs = streamQs(vocab);
  const filters = streamFilters(vocab);
  const heads = PLAIN_SORTS.length + qs.length * SORTS.length; // q-less with a plain sort, or a q with any sort
  const size = heads * filters.length * STREAM_LIMITS.length * STREAM_PAGES.length;
  if (size * size > Number.MAX_SAFE_INTEGER) throw new Error(`query-mix: stream space too large for exact arithmetic (${size})`);
  let step = Math.max(1, Math.floor(size * 0.6180339887));
  while (gcd(step, size) !== 1) step++;
  const at = (i: number): ListQuery => {
    let j = ((i % size) * step + 7) % size; // i * step < size^2 <= 2^53 (checked above)
    const page = STREAM_PAGES[j % STREAM_PAGES.length]!;
    j = Math.floor(j / STREAM_PAGES.length);
    const limit = STREAM_LIMITS[j % STREAM_LIMITS.length]!;
    j = Math.floor(j / STREAM_LIMITS.length);
    const filter = filters[j % filters.length]!;
    const head = Math.floor(j / filters.length);
    const query: ListQuery = {};
    if (head < PLAIN_SORTS.length) query.sort = PLAIN_SORTS[head]!;
    else {
      const h = head - PLAIN_SORTS.length;
      query.q = qs[Math.floor(h / SORTS.length)]!;
      query.sort = SORTS[h % SORTS.length]!;
    }
    Object.assign(query, filter);
    query.limit = limit;
    query.offset = page * limit;
    return query;
  };
  return { size, at };
}
