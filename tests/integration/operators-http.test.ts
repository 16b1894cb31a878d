// The operator route and every game's `operators` over HTTP from the built dist: the operator record
// (200, 404 JSON, exempt from the rate limit), its summary against its games, and each observed
// game's builds in the slug JSON, the list item (include=operators) and the dump, agreeing with its
// stated RTP and variants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryDumpSchema } from '../../src/schemas/dump.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import type { GameRecord, OperatorBuild } from '../../src/schemas/game-record.ts';
import { type OperatorRecord, OperatorRecordSchema } from '../../src/schemas/operator.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { type Server, startServer } from '../helpers/server.ts';

// `server` answers every observed game's record (more than the default daily budget); `limited` counts 2.
let server: Server;
let limited: Server;
beforeAll(async () => {
  [server, limited] = await Promise.all([startServer({ env: { RATE_LIMIT: '100000' } }), startServer({ env: { RATE_LIMIT: '2' } })]);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  expect(await limited.stop()).toBe(0);
});

const json = async (base: Server, p: string) => {
  const res = await fetch(base.url + p);
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
};

/** The rule every observation must keep against its record. */
function expectAgrees(
  r: Pick<GameRecord, 'canonical_slug' | 'stated_rtp' | 'variants' | 'notes'>,
  o: Pick<OperatorBuild, 'rtp' | 'build' | 'variant' | 'reason'>,
): void {
  const at = `${r.canonical_slug} ${o.rtp}`;
  if (o.rtp === r.stated_rtp) {
    expect(o.build, at).toBe('top');
    expect(o.variant, at).toBeNull();
    return;
  }
  const variant = r.variants.find((v) => v.rtp === o.rtp);
  expect(o.variant, at).toEqual(variant === undefined ? null : { rtp: variant.rtp, kind: variant.kind });
  if (o.rtp < r.stated_rtp) {
    expect(o.build, at).toBe('lower');
  } else {
    expect(o.build, at).toBe('higher');
    expect(o.reason, at).not.toBeNull();
    if (r.notes.includes('stated RTP stays')) expect(r.notes, at).toContain(o.reason!);
    else expect(o.reason, at).toContain(`kind ${variant!.kind}`);
  }
}

let dump: GameRecord[];
let operator: OperatorRecord;

describe('operators', () => {
  it('the operator route answers 200 with its record, exempt from the rate limit; an unknown key a JSON 404', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await json(limited, '/api/rtp/operator/711nl');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('public, max-age=3600, s-maxage=3600');
      expect(r.headers.get('ratelimit')).toBeNull();
      operator = OperatorRecordSchema.parse(r.body);
    }
    expect(operator.meta).toMatchObject({ operator: '711nl', display: '711.nl', market: 'NL', licensing_authority: null });
    expect(operator.meta.sources).toEqual([{ file: 'sources/operator-711nl.jsonl', pinned_at: '2026-11-28T00:00:00Z' }]);
    for (const p of ['/api/rtp/operator/no-such-casino', '/api/rtp/operator/NL']) {
      const missing = await json(server, p);
      expect(missing.status, p).toBe(404);
      ErrorBodySchema.parse(missing.body);
    }
  });

  it('its summary counts equal its games list, by provider too, and its games are exactly the records the operator observed', async () => {
    const { summary, games } = operator;
    const has = (g: OperatorRecord['games'][number], b: string) => g.builds.some((x) => x.build === b);
    expect(summary.games_observed).toBe(games.length);
    expect(summary.at_top).toBe(games.filter((g) => has(g, 'top')).length);
    expect(summary.at_lower).toBe(games.filter((g) => has(g, 'lower')).length);
    expect(summary.at_higher).toBe(games.filter((g) => has(g, 'higher')).length);
    expect(summary.observations).toBe(games.reduce((n, g) => n + g.builds.length, 0));
    expect(summary.at_top).toBeGreaterThan(1000);
    expect(summary.at_lower).toBeGreaterThan(0);
    const gaps = games.flatMap((g) => g.builds.filter((b) => b.build === 'lower').map((b) => g.stated_rtp - b.rtp));
    expect(summary.gap_max).toBeCloseTo(Math.max(...gaps), 6);
    expect(summary.gap_mean).toBeCloseTo(gaps.reduce((a, b) => a + b, 0) / gaps.length, 2);
    expect(summary.by_provider.reduce((n, p) => n + p.games_observed, 0)).toBe(games.length);
    expect(summary.by_provider.reduce((n, p) => n + p.at_lower, 0)).toBe(summary.at_lower);
    const d = RegistryDumpSchema.parse((await json(server, '/api/rtp/dump/registry.json')).body);
    dump = d.records;
    const observed = dump.filter((r) => r.operators.some((o) => o.operator === '711nl'));
    expect(games.map((g) => g.slug)).toEqual(observed.map((r) => r.canonical_slug));
    for (const g of games) for (const b of g.builds) expectAgrees({ ...dump.find((r) => r.canonical_slug === g.slug)!, canonical_slug: g.slug }, b);
  });

  it('operator= and operator_build= filter the list (JSON and CSV), echo in meta.query, count in the facets, and refuse bad values', async () => {
    type Page = {
      meta: { filtered: number; query: Record<string, unknown> };
      facets: { operators: Array<{ operator: string; count: number }>; operator_builds: Array<{ operator_build: string; count: number }> };
      items: Array<{ canonical_slug: string }>;
    };
    const page = async (q: string) => (await json(server, `/api/rtp/list?${q}`)).body as Page;
    const all = await page('operator=711nl&limit=200');
    expect(all.meta.filtered).toBe(operator.summary.games_observed);
    expect(all.meta.query).toMatchObject({ operator: '711nl', operator_build: null });
    expect(all.facets.operators).toEqual([{ operator: '711nl', display: '711.nl', count: operator.summary.games_observed }]);
    expect(all.facets.operator_builds).toEqual([
      { operator_build: 'top', count: operator.summary.at_top },
      { operator_build: 'lower', count: operator.summary.at_lower },
      { operator_build: 'higher', count: operator.summary.at_higher },
    ]);
    const lower = await page('operator=711nl&operator_build=lower&limit=200&sort=name');
    expect(lower.meta.filtered).toBe(operator.summary.at_lower);
    expect(lower.meta.query).toMatchObject({ operator: '711nl', operator_build: 'lower' });
    const lowerSlugs = operator.games.filter((g) => g.builds.some((b) => b.build === 'lower')).map((g) => g.slug);
    for (const item of lower.items) expect(lowerSlugs).toContain(item.canonical_slug);
    // Its own facet ignores the build filter; the build facet ignores nothing but itself.
    expect(lower.facets.operators).toEqual([{ operator: '711nl', display: '711.nl', count: operator.summary.at_lower }]);
    // With another filter: the provider narrows every count alike.
    const provider = operator.summary.by_provider.find((p) => p.at_lower > 0)!;
    const narrowed = await page(`provider=${provider.provider}&operator=711nl&operator_build=lower`);
    expect(narrowed.meta.filtered).toBe(provider.at_lower);
    expect(narrowed.facets.operator_builds.find((b) => b.operator_build === 'top')!.count).toBe(provider.at_top);
    const none = await page('operator=no-such-casino');
    expect(none.meta.filtered).toBe(0);
    const nothing = await page('limit=1');
    expect(nothing.facets.operators).toEqual([{ operator: '711nl', display: '711.nl', count: operator.summary.games_observed }]);
    // CSV: the same games, one row each.
    const csv = await (await fetch(`${server.url}/api/rtp/list?operator=711nl&operator_build=lower&limit=200&format=csv`)).text();
    expect(csv.trimEnd().split('\r\n').length - 1).toBe(Math.min(200, operator.summary.at_lower));
    for (const bad of ['operator=711.NL', 'operator_build=best', 'operator=711nl&operator_build=TOP', 'operator=a&operator=b', `operator=${'a'.repeat(201)}`]) {
      const r = await json(server, `/api/rtp/list?${bad}`);
      expect(r.status, bad).toBe(400);
      const errors = ErrorBodySchema.parse(r.body).errors!;
      expect(
        errors.map((e) => e.param).every((p) => p === 'operator' || p === 'operator_build'),
        bad,
      ).toBe(true);
      expect(JSON.stringify(r.body)).not.toContain('711.NL');
    }
  });

  it('every observed game carries its builds, agreeing with its stated RTP and variants, in the dump, the slug JSON and the list item', async () => {
    const observed = dump.filter((r) => r.operators.length > 0);
    expect(observed.length).toBeGreaterThan(5000);
    expect(dump.filter((r) => r.operators.length === 0).length).toBeGreaterThan(0);
    for (const r of observed) {
      for (const o of r.operators) {
        expectAgrees(r, o);
        expect(o.source.pinned_at).toBe('2026-11-28T00:00:00Z');
        expect(o.source.catalogue_file).toMatch(/^data\/[a-z0-9_]+_711_catalog\.json$/);
        expect(Number.isInteger(o.source.index)).toBe(true);
      }
    }
    // The list items (include=operators), every page: the same builds as the dump.
    const byList = new Map<string, unknown>();
    for (let offset = 0; offset < dump.length; offset += 200) {
      const page = (await json(server, `/api/rtp/list?sort=name&limit=200&offset=${offset}&include=operators`)).body as { items: GameRecord[] };
      for (const item of page.items) byList.set(item.canonical_slug, item.operators);
    }
    expect(byList.size).toBe(dump.length);
    for (const r of dump) expect(byList.get(r.canonical_slug), r.canonical_slug).toEqual(r.operators);
    // The default item leaves them out.
    const lean = (await json(server, '/api/rtp/list?limit=1')).body as { items: Array<Record<string, unknown>> };
    expect(lean.items[0]).not.toHaveProperty('operators');
    // Each observed game's slug JSON, a few at a time.
    const queue = [...observed];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let r = queue.pop(); r !== undefined; r = queue.pop()) {
          const slot = SlotRecordSchema.parse((await json(server, `/api/rtp/${r.canonical_slug}`)).body);
          expect(slot.operators, r.canonical_slug).toEqual(r.operators);
        }
      }),
    );
  }, 240_000);
});
