// Batch lookup on the list route (src/list/batch.ts): records in the order given, unknown slugs in
// meta.missing, every misuse a 400 naming `slugs`; the binary search over the records' own bytes.
import { describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { MSG_SLUGS_COMBINED, MSG_SLUGS_FORMAT, parseBatch } from '../../src/list/batch.ts';
import { BATCH_MAX, BatchResponseSchema } from '../../src/schemas/batch.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';
import { namedParams, VALID_PARAM_VALUES } from '../helpers/list-params.ts';

const bundle = fixtureBundle(120);
const services = servicesFor(bundle);
const slugs = bundle.records.map((r) => r.canonical_slug);
const body = (q: string) => JSON.parse(services.list(q).body.toString('utf8')) as unknown;

describe('batch lookup', () => {
  it('returns the named records in the order given, byte for byte as the list gives them', () => {
    const named = [slugs[7]!, slugs[0]!, slugs[119]!, slugs[42]!];
    const r = services.list(`slugs=${named.join(',')}`);
    expect(r.status).toBe(200);
    expect(r.headers['Cache-Control']).toBe('public, max-age=0, s-maxage=300');
    const b = BatchResponseSchema.parse(JSON.parse(r.body.toString('utf8')));
    expect(b.items.map((i) => i.canonical_slug)).toEqual(named);
    expect(b.meta).toEqual({
      data_version: bundle.meta.data_version,
      frozen_at: bundle.meta.frozen_at,
      total: 120,
      found: 4,
      missing: [],
      moved: [],
      query: { slugs: named },
    });
    for (const item of b.items) expect(item).toEqual(bundle.records.find((x) => x.canonical_slug === item.canonical_slug));
  });

  it('names unknown slugs in meta.missing, keeps the order and drops repeats', () => {
    const b = BatchResponseSchema.parse(body(`slugs=no-such-game,${slugs[3]},${slugs[3]},zzz-last,${slugs[1]}`));
    expect(b.items.map((i) => i.canonical_slug)).toEqual([slugs[3], slugs[1]]);
    expect(b.meta).toMatchObject({ found: 2, missing: ['no-such-game', 'zzz-last'], query: { slugs: ['no-such-game', slugs[3], 'zzz-last', slugs[1]] } });
    expect(BatchResponseSchema.parse(body('slugs=a-0,0')).items).toEqual([]);
  });

  it("answers a slug merged into another record with the survivor's record, once, and names it in meta.moved", () => {
    const into = slugs[5]!;
    const merged = servicesFor({
      ...bundle,
      history: [
        ...bundle.history,
        ...(['stated_rtp', 'rtp_variants'] as const).map((field) => ({
          data_version: '2.3.4',
          frozen_at: '2026-05-01T00:00:00Z',
          slug: 'old-studio-slug',
          provider: 'alpha-games',
          field,
          from: field === 'stated_rtp' ? 96 : [96],
          to: null,
          reason: `merged into ${into}`,
          merged_into: into,
        })),
      ],
    });
    const ask = (q: string) => BatchResponseSchema.parse(JSON.parse(merged.list(q).body.toString('utf8')));
    const b = ask(`slugs=old-studio-slug,${slugs[2]},${into},no-such-game`);
    expect(b.items.map((i) => i.canonical_slug)).toEqual([into, slugs[2]]);
    expect(b.meta).toMatchObject({ found: 2, missing: ['no-such-game'], moved: [{ slug: 'old-studio-slug', merged_into: into }] });
    expect(ask('slugs=old-studio-slug').items).toEqual(ask(`slugs=${into}`).items);
    // As CSV, the same records.
    const csv = merged.list(`slugs=old-studio-slug,${slugs[2]}&format=csv`).body.toString('utf8');
    expect(
      csv
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(',')[0]),
    ).toEqual([into, slugs[2]]);
  });

  it('finds every slug of the registry, and none that sorts between them', () => {
    const engine = services.engine;
    slugs.forEach((s, k) => {
      expect(engine.indexOfSlug(s)).toBe(k);
    });
    for (const s of ['', '-', `${slugs[0]}-`, `${slugs[119]}z`, 'a'.repeat(600)]) expect(engine.indexOfSlug(s), s).toBe(-1);
  });

  it('answers 400 naming slugs when combined with other parameters, malformed or too long', () => {
    const bad = (q: string) => {
      const r = services.list(q);
      expect(r.status, q).toBe(400);
      return ErrorBodySchema.parse(JSON.parse(r.body.toString('utf8'))).errors;
    };
    expect(bad(`slugs=${slugs[0]}&q=book`)).toEqual([
      {
        param: 'slugs',
        message:
          'cannot be combined with q, provider, game_type, has_variants, badge, confidence, sort, limit, offset, rtp_min, rtp_max, volatility, max_win_min, released_after, released_before, operator, operator_build, include, fields, updated_since',
      },
    ]);
    // Every parameter the message names is refused beside slugs, each with a value it accepts alone.
    const named = namedParams(MSG_SLUGS_COMBINED);
    expect(named).toContain('updated_since');
    for (const name of named) {
      expect(VALID_PARAM_VALUES[name], name).toBeDefined();
      expect(bad(`slugs=${slugs[0]}&${name}=${encodeURIComponent(VALID_PARAM_VALUES[name]!)}`), name).toEqual([
        { param: 'slugs', message: MSG_SLUGS_COMBINED },
      ]);
    }
    expect(bad(`slugs=${slugs[0]}&limit=5`)).toEqual([{ param: 'slugs', message: MSG_SLUGS_COMBINED }]);
    expect(bad(`slugs=${slugs[0]}&updated_since=2026-01-01`)).toEqual([{ param: 'slugs', message: MSG_SLUGS_COMBINED }]);
    expect(bad('slugs=Book-Of-Dead')).toEqual([
      { param: 'slugs', message: 'must be 1 to 200 slugs separated by commas (lowercase letters, digits and hyphens)' },
    ]);
    expect(bad('slugs=a,,b')).toEqual([{ param: 'slugs', message: MSG_SLUGS_FORMAT }]);
    expect(bad(`slugs=${Array.from({ length: BATCH_MAX + 1 }, (_, k) => `g${k}`).join(',')}`)).toEqual([{ param: 'slugs', message: MSG_SLUGS_FORMAT }]);
    expect(bad('slugs=a&slugs=b')).toEqual([{ param: 'slugs', message: 'must be given at most once' }]);
    // The payload is never echoed.
    expect(JSON.stringify(bad('slugs=%3Cscript%3E'))).not.toContain('script');
  });

  it('takes 200 slugs, and treats an empty slugs= as absent', () => {
    const many = Array.from({ length: BATCH_MAX }, (_, k) => slugs[k % slugs.length]! + (k < slugs.length ? '' : `-x${k}`));
    const b = BatchResponseSchema.parse(body(`slugs=${many.join(',')}`));
    expect(b.meta.found + b.meta.missing.length).toBe(BATCH_MAX);
    expect(parseBatch('slugs=&q=book')).toBeNull();
    expect(services.list('slugs=&limit=1').status).toBe(200);
    expect(parseBatch('q=slugs')).toBeNull();
  });
});
