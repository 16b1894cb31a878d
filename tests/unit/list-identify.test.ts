// "Which build is this": GET /api/rtp/identify on the shipped registry and on hand-made records.
import { beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { identify, MSG_GAME_REQUIRED, MSG_RTP, MSG_RTP_REQUIRED, MSG_SLUG_AND_NAME, parseIdentifyQuery } from '../../src/list/identify.ts';
import type { RegistryServices } from '../../src/list/service.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { IdentifyResponseSchema } from '../../src/schemas/identify.ts';
import { shippedBundle } from '../helpers/shipped.ts';

let bundle: RegistryBundle;
let services: RegistryServices;
beforeAll(async () => {
  bundle = shippedBundle();
  services = servicesFor(bundle);
});
const ask = (q: string) => {
  const r = services.identify(q);
  return { status: r.status, body: JSON.parse(r.body.toString('utf8')) as unknown };
};
const META = { data_version: '1.0.0', frozen_at: '2026-11-21T00:00:00Z' };

describe('identify (pure)', () => {
  const record = {
    canonical_slug: 'demo',
    canonical_name: 'Demo',
    provider: 'acme',
    provider_display: 'Acme',
    stated_rtp: 96.21,
    source_url: 'https://acme.example/demo',
    variants: [
      { rtp: 94.13, kind: 'operator_ladder', jurisdiction: null },
      { rtp: 96.21, kind: 'standard', jurisdiction: null },
      { rtp: 96.71, kind: 'bonus_buy', jurisdiction: null },
    ],
    sources: [
      { kind: 'provider', url: 'https://acme.example/demo', checked_at: null, stated_rtp: 96.21, rtp_variants: [94.13, 96.21, 96.71] },
      { kind: 'aggregator', url: 'https://agg.example/demo', checked_at: null, stated_rtp: 96.21, rtp_variants: [96.21] },
    ],
    operators: [
      {
        operator: 'casino-a',
        display: 'Casino A',
        market: 'NL',
        rtp: 94.13,
        build: 'lower',
        variant: { rtp: 94.13, kind: 'operator_ladder' },
        reason: null,
        source: { file: 'sources/a.jsonl', line: 3, catalogue_file: 'a.json', index: 2, url: 'https://a.example/a.json', pinned_at: '2026-11-28T00:00:00Z' },
      },
    ],
  } as unknown as GameRecord;
  const run = (rtp: number) => identify(record, { slug: 'demo', name: null, rtp }, META, 'slug', []);

  it('calls the stated figure the default, within 0.005 either side', () => {
    for (const rtp of [96.21, 96.215, 96.205]) expect(run(rtp), String(rtp)).toMatchObject({ verdict: 'default', match: { rtp: 96.21, kind: 'standard' } });
    expect(run(96.21).match!.sources).toEqual(['https://acme.example/demo', 'https://agg.example/demo']);
  });

  it('names a known variant with its kind and the sources that state it', () => {
    expect(run(94.13)).toMatchObject({
      verdict: 'variant',
      match: { rtp: 94.13, kind: 'operator_ladder', difference: 0, sources: ['https://acme.example/demo'] },
    });
    expect(run(96.71).match!.kind).toBe('bonus_buy');
  });

  it('names the operators known to run the matched build, none for another build or no match', () => {
    expect(run(94.13).operators).toEqual([
      {
        operator: 'casino-a',
        display: 'Casino A',
        market: 'NL',
        rtp: 94.13,
        build: 'lower',
        pinned_at: '2026-11-28T00:00:00Z',
        url: 'https://a.example/a.json',
      },
    ]);
    expect(run(96.21).operators).toEqual([]);
    expect(run(90).operators).toEqual([]);
  });

  it('calls anything else unknown, and lists the nearest figures, nearest first, with the difference', () => {
    const r = run(94.1);
    expect(r.verdict).toBe('unknown');
    expect(r.match).toBeNull();
    expect(r.nearest.map((n) => [n.rtp, n.difference])).toEqual([
      [94.13, -0.03],
      [96.21, -2.11],
      [96.71, -2.61],
    ]);
    expect(run(96.216).verdict).toBe('unknown');
    expect(IdentifyResponseSchema.safeParse(r).success).toBe(true);
  });
});

describe('GET /api/rtp/identify', () => {
  it('answers for a slug of the shipped registry, every variant of every game identified as itself', () => {
    for (const record of bundle.records.slice(0, 200)) {
      for (const v of record.variants) {
        const { status, body } = ask(`slug=${record.canonical_slug}&rtp=${v.rtp}`);
        expect(status).toBe(200);
        const r = IdentifyResponseSchema.parse(body);
        expect(r.match!.rtp, record.canonical_slug).toBe(v.rtp);
        expect(r.verdict).toBe(v.rtp === record.stated_rtp ? 'default' : 'variant');
        expect(r.game).toMatchObject({ canonical_slug: record.canonical_slug, chosen_by: 'slug', alternatives: [] });
      }
    }
  });

  it('answers for a slug merged into another record with the game of that record', () => {
    const survivor = bundle.records.find((r) => r.canonical_slug === 'big-bass-splash')!;
    const { status, body } = ask(`slug=big-bass-splash-reel-kingdom&rtp=${survivor.stated_rtp}`);
    expect(status).toBe(200);
    const direct = IdentifyResponseSchema.parse(ask(`slug=big-bass-splash&rtp=${survivor.stated_rtp}`).body);
    // The same answer, the query echoed as asked.
    expect(IdentifyResponseSchema.parse(body)).toEqual({
      ...direct,
      meta: { ...direct.meta, query: { ...direct.meta.query, slug: 'big-bass-splash-reel-kingdom' } },
    });
  });

  it('accepts 96,21 and 96.21% as well as 96.21', () => {
    const record = bundle.records[0]!;
    const want = IdentifyResponseSchema.parse(ask(`slug=${record.canonical_slug}&rtp=${record.stated_rtp}`).body).match;
    for (const form of [String(record.stated_rtp).replace('.', ','), `${record.stated_rtp}%25`]) {
      expect(IdentifyResponseSchema.parse(ask(`slug=${record.canonical_slug}&rtp=${form}`).body).match, form).toEqual(want);
    }
  });

  it('resolves name= by search, says which game it chose and the next candidates', () => {
    const target = bundle.records.find((r) => r.canonical_slug === 'book-of-dead') ?? bundle.records[0]!;
    const r = IdentifyResponseSchema.parse(ask(`name=${encodeURIComponent(target.canonical_name)}&rtp=${target.stated_rtp}`).body);
    expect(r.game).toMatchObject({ canonical_slug: target.canonical_slug, chosen_by: 'name' });
    expect(r.game.alternatives.length).toBeLessThanOrEqual(2);
    expect(r.meta.query).toEqual({ slug: null, name: target.canonical_name, rtp: target.stated_rtp });
    expect(ask('name=zzqqxxyy&rtp=96').status).toBe(404);
    expect(ask('name=zzqqxxyy&rtp=96').body).toEqual({ statusCode: 404, statusMessage: 'no game matches the name' });
  });

  it('answers 404 for an unknown slug and 400 for every bad parameter, never echoing it', () => {
    expect(ask('slug=no-such-game&rtp=96')).toEqual({ status: 404, body: { statusCode: 404, statusMessage: 'slot not found in registry' } });
    const errors = (q: string) => {
      const r = ask(q);
      expect(r.status, q).toBe(400);
      return ErrorBodySchema.parse(r.body).errors;
    };
    expect(errors('rtp=96')).toEqual([{ param: 'slug', message: MSG_GAME_REQUIRED }]);
    expect(errors('slug=a')).toEqual([{ param: 'rtp', message: MSG_RTP_REQUIRED }]);
    expect(errors('slug=a&name=b&rtp=96')).toEqual([{ param: 'name', message: MSG_SLUG_AND_NAME }]);
    for (const bad of ['abc', '0', '100.01', '101', '-5', '96.123456', '1e2', '%3Cscript%3E'])
      expect(errors(`slug=a&rtp=${bad}`), bad).toEqual([{ param: 'rtp', message: MSG_RTP }]);
    // The message's example is a value the route accepts.
    const example = /such as (\S+)$/.exec(MSG_RTP)?.[1];
    expect(parseIdentifyQuery(`slug=a&rtp=${example}`).ok, MSG_RTP).toBe(true);
    expect(errors('slug=a&rtp=1&rtp=2')).toEqual([{ param: 'rtp', message: 'must be given at most once' }]);
    expect(parseIdentifyQuery('slug=a&rtp=100').ok).toBe(true);
  });
});
