// Delta sync on the list route (src/list/sync.ts): records changed after a moment, oldest change
// first, each with updated_at from the history log; paging; every misuse a 400.
import { beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { MSG_SLUGS_COMBINED } from '../../src/list/batch.ts';
import type { RegistryServices } from '../../src/list/service.ts';
import { MSG_SYNC_COMBINED } from '../../src/list/sync.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { SyncResponseSchema } from '../../src/schemas/sync.ts';
import { namedParams, VALID_PARAM_VALUES } from '../helpers/list-params.ts';
import { shippedBundle } from '../helpers/shipped.ts';

let bundle: RegistryBundle;
let services: RegistryServices;
beforeAll(async () => {
  bundle = shippedBundle();
  services = servicesFor(bundle);
});
const sync = (q: string) => {
  const r = services.list(q);
  expect(r.status, q).toBe(200);
  return SyncResponseSchema.parse(JSON.parse(r.body.toString('utf8')));
};
/** The last freeze that changed each game, from the log. */
const lastChange = () => {
  const m = new Map<string, string>();
  for (const e of bundle.history) if (!m.has(e.slug) || e.frozen_at > m.get(e.slug)!) m.set(e.slug, e.frozen_at);
  return m;
};

describe('GET /api/rtp/list?updated_since=', () => {
  it('returns every record changed after the moment, oldest change first, each with updated_at', () => {
    const last = lastChange();
    const versions = [...new Set(bundle.history.map((e) => e.frozen_at))].sort();
    const before = versions.at(-1)!;
    const since = new Date(Date.parse(before) - 1000).toISOString();
    const want = bundle.records.filter((r) => (last.get(r.canonical_slug) ?? bundle.meta.frozen_at) > since).map((r) => r.canonical_slug);
    const got: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = sync(`updated_since=${since}&limit=200&offset=${offset}`);
      expect(page.meta.filtered).toBe(want.length);
      for (const item of page.items) {
        expect(item.updated_at).toBe(last.get(item.canonical_slug) ?? bundle.meta.frozen_at);
        const { updated_at: _u, ...record } = item;
        expect(record).toEqual(bundle.records.find((r) => r.canonical_slug === item.canonical_slug));
      }
      got.push(...page.items.map((i) => i.canonical_slug));
      if (!page.meta.has_more) break;
    }
    expect([...got].sort()).toEqual([...want].sort());
    expect(new Set(got).size).toBe(got.length);
  });

  it('gives nothing after the last freeze, everything before the first, and echoes the moment as UTC', () => {
    const last = [...bundle.history.map((e) => e.frozen_at)].sort().at(-1)!;
    expect(sync(`updated_since=${last}`).meta).toMatchObject({ filtered: 0, has_more: false });
    const all = sync('updated_since=2000-01-01&limit=5');
    expect(all.meta).toMatchObject({
      filtered: bundle.records.length,
      has_more: true,
      query: { updated_since: '2000-01-01T00:00:00.000Z', limit: 5, offset: 0 },
    });
    const times = all.items.map((i) => i.updated_at);
    expect([...times].sort()).toEqual(times);
  });

  it('answers 400 naming updated_since when it is malformed or combined with q, filters, sort or slugs', () => {
    const bad = (q: string) => {
      const r = services.list(q);
      expect(r.status, q).toBe(400);
      return ErrorBodySchema.parse(JSON.parse(r.body.toString('utf8'))).errors;
    };
    expect(bad('updated_since=yesterday')).toEqual([
      { param: 'updated_since', message: 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)' },
    ]);
    expect(bad('updated_since=2026-01-01&provider=playngo')).toEqual([{ param: 'updated_since', message: MSG_SYNC_COMBINED }]);
    // Every parameter the message names is refused beside updated_since, each with a value it accepts alone.
    const named = namedParams(MSG_SYNC_COMBINED);
    expect(named).toContain('q');
    for (const name of named) {
      expect(VALID_PARAM_VALUES[name], name).toBeDefined();
      expect(services.list(`${name}=${encodeURIComponent(VALID_PARAM_VALUES[name]!)}`).status, name).toBe(200);
      // With slugs the batch lookup answers, naming slugs (its own message, tests/unit/list-batch.test.ts).
      const refusal = name === 'slugs' ? { param: 'slugs', message: MSG_SLUGS_COMBINED } : { param: 'updated_since', message: MSG_SYNC_COMBINED };
      expect(bad(`updated_since=2026-01-01&${name}=${encodeURIComponent(VALID_PARAM_VALUES[name]!)}`), name).toEqual([refusal]);
    }
    expect(named).not.toContain('limit'); // a delta sync pages with limit and offset
    expect(bad('updated_since=2026-01-01&limit=0')).toEqual([{ param: 'limit', message: 'must be an integer from 1 to 200' }]);
    // An empty updated_since is absent: the ordinary list.
    expect(services.list('updated_since=&limit=1').status).toBe(200);
    expect(JSON.parse(services.list('updated_since=&limit=1').body.toString('utf8')).facets).toBeDefined();
  });
});
