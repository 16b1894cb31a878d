// The OpenAPI document: valid OpenAPI 3.1, every route and field documented, and real responses
// (from the registry's own build and list functions) valid against its response schemas.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { openApiDocument, openApiJson } from '../../src/openapi/document.ts';
import { routeExamples } from '../../scripts/lib/openapi-examples.ts';
import { renderDumps } from '../../src/emit/dumps.ts';
import { FIELD_DESCRIPTIONS } from '../../src/openapi/fields.ts';
import { classify, dumpFiles, paths, POLICIES } from '../../src/routes/routes.ts';
import { LIST_SORTS } from '../../src/schemas/list.ts';
import { servicesFor } from '../../scripts/lib/services.ts';
import { COMPONENT_SCHEMAS, propertyPaths } from '../../src/openapi/components.ts';

type Json = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, '../..');

const doc = openApiDocument() as Json;
let bundle: RegistryBundle;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow('data'));
});

/** An Ajv validator for the response schema of `path`, `status`, `media` in the document. */
function responseValidator(path: string, status: string, media = 'application/json') {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'urn:rtp:openapi', components: doc.components }, 'urn:rtp:openapi');
  let response = doc.paths[path].get.responses[status];
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const schema = JSON.parse(JSON.stringify(response.content[media].schema).replaceAll('"#/components/', '"urn:rtp:openapi#/components/'));
  return ajv.compile(schema);
}

function expectValid(path: string, status: string, body: unknown): void {
  const validate = responseValidator(path, status);
  const ok = validate(body);
  expect(ok, `${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('documents every public route of the route table', () => {
    const documented = Object.keys(doc.paths).sort();
    expect(documented).toEqual(
      [
        paths.list, paths.history, paths.identify, paths.oembed, '/api/rtp/{slug}', '/api/rtp/provider/{provider}', '/api/widget/rtp/{slug}', '/widget/rtp/{slug}', paths.openapi,
        paths.dump.json, paths.dump.csv, paths.dump.ndjson, paths.dump.dataPackage, paths.dump.changes('{data_version}'), paths.removed, paths.llms, '/api/badge/rtp/{slug}.svg', paths.ogImage('{slug}'), paths.feed, '/api/feeds/provider/{provider}.atom', '/api/feeds/game/{slug}.atom', paths.mcp,
      ].sort(),
    );
  });

  it('marks rate limiting as the route table does, and 429 on every route (an exempt one refuses a bad key past the budget)', () => {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      const concrete = path.replace('{slug}', 'book-of-dead').replace('{provider}', 'playngo').replace('{data_version}', '1.0.0');
      const limited = POLICIES[classify(concrete)].rateLimited;
      const op = item.get ?? item.post;
      expect(op['x-rate-limited'], path).toBe(limited);
      expect('429' in op.responses, path).toBe(true);
    }
  });

  it('documents 400 on the query routes and 404 on every path route', () => {
    const shared = ['304', '400', '401', '405', '408', '414', '417', '429', '431', '503'];
    expect(Object.keys(doc.paths['/api/rtp/list'].get.responses).sort()).toEqual(['200', ...shared]);
    expect(Object.keys(doc.paths['/api/rtp/history'].get.responses).sort()).toEqual(['200', ...shared]);
    expect(doc.paths['/api/rtp/list'].get.responses['400'].content['application/json'].example.statusMessage).toBe('invalid query parameters');
    expect(Object.keys(doc.paths['/mcp'].post.responses).sort()).toEqual(['200', '202', '400', '401', '405', '406', '408', '413', '414', '415', '417', '429', '431', '503']);
    for (const p of ['/api/rtp/{slug}', '/api/rtp/provider/{provider}', '/api/widget/rtp/{slug}', '/widget/rtp/{slug}']) {
      expect(doc.paths[p].get.responses['404'], p).toBeDefined();
    }
    expect(doc.paths['/api/rtp/{slug}'].get.responses['404'].content['application/json'].example).toEqual({ statusCode: 404, statusMessage: 'slot not found in registry' });
  });

  it('documents the rate-limit headers on limited 200s and Retry-After on 429', () => {
    const ok = doc.paths['/api/rtp/list'].get.responses['200'].headers;
    expect(Object.keys(ok)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy', 'ETag']));
    expect(Object.keys(doc.components.responses.RateLimited.headers)).toContain('Retry-After');
    expect(Object.keys(doc.paths['/api/widget/rtp/{slug}'].get.responses['200'].headers)).not.toContain('X-RateLimit-Limit');
  });

  it('takes the list parameters from the list schema (sorts, limit range)', () => {
    const params = Object.fromEntries((doc.paths['/api/rtp/list'].get.parameters as Json[]).map((p) => [p.name, p.schema]));
    expect(params.sort.enum).toEqual([...LIST_SORTS]);
    expect(params.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(Object.keys(params)).toEqual([
      'q', 'provider', 'game_type', 'has_variants', 'badge', 'confidence', 'sort', 'limit', 'offset',
      'rtp_min', 'rtp_max', 'volatility', 'max_win_min', 'released_after', 'released_before', 'format', 'slugs', 'updated_since',
    ]);
    expect(params.volatility.pattern).toBe('^(low|medium|high|very-high)(,(low|medium|high|very-high))*$');
    expect(params.badge.enum).toEqual(['verified_rtp', 'variants_tracked', 'sources_disagree']);
  });

  it('describes every field of every schema, and describes no field that does not exist', () => {
    const missing: string[] = [];
    const stale: string[] = [];
    for (const name of Object.keys(COMPONENT_SCHEMAS)) {
      const schema = doc.components.schemas[name];
      const seen = new Set<string>();
      for (const [path, prop] of propertyPaths(schema)) {
        seen.add(path);
        if (typeof prop.description !== 'string' || prop.description === '') missing.push(`${name}.${path}`);
      }
      for (const path of Object.keys(FIELD_DESCRIPTIONS[name] ?? {})) if (!seen.has(path)) stale.push(`${name}.${path}`);
    }
    expect(missing, 'add these to src/openapi/fields.ts').toEqual([]);
    expect(stale, 'remove these from src/openapi/fields.ts').toEqual([]);
  });

  it('carries no $id or $schema inside components (not allowed with fragments in 2020-12)', () => {
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"\$id"|"\$schema"/);
  });

  it('is the same bytes in another process, whatever its time zone, locale and clock', () => {
    // Anything read from the environment, the clock or the locale (dates, sorting, number formats) would show here.
    const script = `import { openApiJson } from ${JSON.stringify(path.join(ROOT, 'src/openapi/document.ts'))}; process.stdout.write(openApiJson());`;
    const other = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' },
    });
    expect(other.status, other.stderr).toBe(0);
    expect(other.stdout).toBe(openApiJson());
    expect(other.stdout.endsWith('}\n')).toBe(true);
  });
});

describe('real responses validate against the document', () => {
  it('every route example computed from the shipped registry', () => {
    const examples = routeExamples(bundle);
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const ex of examples) {
      if (ex.contentType !== 'application/json') continue;
      expectValid(ex.path, String(ex.status), ex.body);
    }
  });

  it('every bulk download of the shipped registry, whole', () => {
    const dumps = renderDumps(bundle, 'http://127.0.0.1:4321');
    const json = (file: string) => JSON.parse(dumps.find((d) => d.file === file)!.bytes.toString('utf8')) as unknown;
    expectValid(paths.dump.json, '200', json(dumpFiles.json));
    expectValid(paths.dump.dataPackage, '200', json(dumpFiles.dataPackage));
    expectValid(paths.removed, '200', json(dumpFiles.removed));
    for (const v of new Set(bundle.history.map((e) => e.data_version))) expectValid(paths.dump.changes('{data_version}'), '200', json(dumpFiles.changes(v)));
  });

  it('list responses over many queries, and every 400', () => {
    const services = servicesFor(bundle);
    const ok = ['', 'q=book', 'provider=playngo&sort=rtp_desc', 'game_type=slot&has_variants=1&limit=200', 'sort=recent&offset=100', 'q=zzzz', 'provider=nope', 'q=dead&sort=relevance'];
    for (const q of ok) {
      const r = services.list(q);
      expect(r.status, q).toBe(200);
      expectValid('/api/rtp/list', '200', JSON.parse(r.body.toString()));
    }
    for (const q of ['limit=abc', 'limit=0', 'limit=201', 'offset=-1', 'sort=best', 'game_type=poker', 'has_variants=yes', `q=${'a'.repeat(300)}`, 'q=a&q=b']) {
      const r = services.list(q);
      expect(r.status, q).toBe(400);
      expectValid('/api/rtp/list', '400', JSON.parse(r.body.toString()));
    }
  });

  it('batch lookups, and their 400', () => {
    const services = servicesFor(bundle);
    const slugs = bundle.records.slice(0, 3).map((r) => r.canonical_slug);
    expectValid('/api/rtp/list', '200', JSON.parse(services.list(`slugs=${slugs.join(',')},no-such-game`).body.toString()));
    const bad = services.list(`slugs=${slugs[0]}&sort=name`);
    expect(bad.status).toBe(400);
    expectValid('/api/rtp/list', '400', JSON.parse(bad.body.toString()));
  });

  it('delta sync responses, and their 400', () => {
    const services = servicesFor(bundle);
    expectValid('/api/rtp/list', '200', JSON.parse(services.list('updated_since=2000-01-01&limit=3').body.toString()));
    expectValid('/api/rtp/list', '400', JSON.parse(services.list('updated_since=soon').body.toString()));
  });

  it('identify responses, and their 400 and 404', () => {
    const services = servicesFor(bundle);
    const r = bundle.records[0]!;
    for (const q of [`slug=${r.canonical_slug}&rtp=${r.stated_rtp}`, `slug=${r.canonical_slug}&rtp=50`, `name=${encodeURIComponent(r.canonical_name)}&rtp=${r.rtp_min}`]) {
      expectValid('/api/rtp/identify', '200', JSON.parse(services.identify(q).body.toString()));
    }
    expectValid('/api/rtp/identify', '400', JSON.parse(services.identify('rtp=abc').body.toString()));
    expectValid('/api/rtp/identify', '404', JSON.parse(services.identify('slug=nope&rtp=96').body.toString()));
  });

  it('history responses, and a 400', () => {
    const services = servicesFor(bundle);
    for (const q of ['', 'slug=book-of-dead', 'provider=playngo&limit=5', 'since=2026-01-01']) {
      expectValid('/api/rtp/history', '200', JSON.parse(services.history(q).body.toString()));
    }
    const bad = services.history('since=yesterday');
    expect(bad.status).toBe(400);
    expectValid('/api/rtp/history', '400', JSON.parse(bad.body.toString()));
  });

  it('rejects a body that breaks the contract (the check can fail)', () => {
    const validate = responseValidator('/api/rtp/{slug}', '404');
    expect(validate({ statusCode: 404 })).toBe(false);
    const list = responseValidator('/api/rtp/list', '200');
    const body = JSON.parse(servicesFor(bundle).list('limit=1').body.toString());
    body.items[0].unexpected = true;
    expect(list(body)).toBe(false);
  });
});
