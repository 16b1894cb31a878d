// GET /api/rtp/identify over HTTP against the built dist: answers, errors, and the list route's budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { IdentifyResponseSchema } from '../../src/schemas/identify.ts';
import { type Server, startServer, testOutDir } from '../helpers/server.ts';

interface Rec {
  canonical_slug: string;
  stated_rtp: number;
  variants: Array<{ rtp: number; kind: string }>;
  operators: Array<{ operator: string; rtp: number; build: string }>;
}
let server: Server;
let records: Rec[];
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '4' } });
  records = (JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as { records: Rec[] }).records;
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe('GET /api/rtp/identify', () => {
  it('identifies a variant, rejects bad input as JSON 400, and counts against the list budget', async () => {
    const game = records.find((r) => r.variants.length > 1)!;
    const variant = game.variants.find((v) => v.rtp !== game.stated_rtp)!;
    const ok = await fetch(`${server.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=${variant.rtp}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ok.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('3');
    expect(IdentifyResponseSchema.parse(await ok.json())).toMatchObject({ verdict: 'variant', match: { rtp: variant.rtp, kind: variant.kind } });

    const bad = await fetch(`${server.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=lots`);
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(await bad.json()).errors).toEqual([{ param: 'rtp', message: 'must be a percentage above 0 and at most 100, such as 96.21' }]);
    const missing = await fetch(`${server.url}/api/rtp/identify?slug=no-such-game&rtp=96`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ statusCode: 404, statusMessage: 'slot not found in registry' });
    await fetch(`${server.url}/api/rtp/list?limit=1`);
    const over = await fetch(`${server.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=96`);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('names the operators known to run the identified build, and none for another build', async () => {
    const own = await startServer({ env: { RATE_LIMIT: '100' } });
    try {
      const game = records.find((r) => r.operators.some((o) => o.build === 'lower') && r.variants.some((v) => !r.operators.some((o) => o.rtp === v.rtp)))!;
      const lower = game.operators.find((o) => o.build === 'lower')!;
      const at = IdentifyResponseSchema.parse(await (await fetch(`${own.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=${lower.rtp}`)).json());
      expect(at.verdict).toBe('variant');
      expect(at.operators).toEqual([expect.objectContaining({ operator: lower.operator, rtp: lower.rtp, build: 'lower', pinned_at: '2026-11-28T00:00:00Z' })]);
      const other = game.variants.find((v) => !game.operators.some((o) => o.rtp === v.rtp))!;
      expect(
        IdentifyResponseSchema.parse(await (await fetch(`${own.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=${other.rtp}`)).json()).operators,
      ).toEqual([]);
      const unknown = IdentifyResponseSchema.parse(await (await fetch(`${own.url}/api/rtp/identify?slug=${game.canonical_slug}&rtp=50`)).json());
      expect(unknown).toMatchObject({ verdict: 'unknown', operators: [] });
    } finally {
      expect(await own.stop()).toBe(0);
    }
  });
});
