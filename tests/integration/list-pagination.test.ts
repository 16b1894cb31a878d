// Pagination walks over HTTP: limit 7 through every page of every order (and some filters),
// collecting every matching slug exactly once, in the same order as one big page.
import { describe, expect, it } from 'vitest';
import { readDataFiles } from '../helpers/data-files.ts';
import { refFilterSort, refMatchesQ } from '../helpers/list-reference.ts';
import { useListServer } from '../helpers/list-server.ts';
import { testDataDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const server = useListServer();
const list = server.list;
const listAll = server.listAll;

const SORTS = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent', 'relevance'];
const FILTERS: Array<[string, (g: (typeof data.games)[number]) => boolean]> = [
  ['', () => true],
  ['q=play', (g) => refMatchesQ(g, 'play')],
  ['provider=wazdan', (g) => g.provider === 'wazdan'],
  ['has_variants=1', (g) => g.variants_count > 1],
  ['q=hold&game_type=slot', (g) => refMatchesQ(g, 'hold') && g.game_type === 'slot'],
];

describe('pagination walks', () => {
  for (const sort of SORTS) {
    for (const [filter, keep] of FILTERS) {
      it(`sort=${sort}${filter === '' ? '' : `&${filter}`}: limit 7 pages give every match once`, async () => {
        const query = `sort=${sort}${filter === '' ? '' : `&${filter}`}`;
        const expected = data.games.filter(keep);
        const seen: string[] = [];
        let pages = 0;
        for (let offset = 0; ; offset += 7) {
          const page = await list(`${query}&limit=7&offset=${offset}`);
          pages++;
          expect(page.meta.filtered).toBe(expected.length);
          expect(page.items.length).toBe(Math.min(7, expected.length - offset));
          seen.push(...page.items.map((r) => r.canonical_slug));
          expect(page.meta.has_more).toBe(offset + page.items.length < expected.length);
          if (!page.meta.has_more) break;
        }
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 7)));
        expect(new Set(seen).size).toBe(seen.length);
        expect([...seen].sort()).toEqual(expected.map((g) => g.canonical_slug).sort());
        const whole = await listAll(query);
        expect(seen).toEqual(whole.items.map((r) => r.canonical_slug));
        if (sort !== 'relevance') expect(seen).toEqual(refFilterSort(expected, { sort }).map((g) => g.canonical_slug));
      });
    }
  }
});
