// The OpenAPI document: valid OpenAPI 3.1; its paths are the route table's and resolve (through the
// table's own resolver) to the family that owns each operation, with that family's method and
// budget; its parameters are those the handlers read; every field is documented; and real responses
// (from the registry's own build and list functions) are valid against its response schemas.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeExamples } from '../../scripts/lib/openapi-examples.ts';
import { servicesFor } from '../../scripts/lib/services.ts';
import { renderDumps } from '../../src/emit/dumps.ts';
import { HISTORY_PARAMS } from '../../src/list/history.ts';
import { LIST_PARAMS } from '../../src/list/query.ts';
import { COMPONENT_SCHEMAS, propertyPaths } from '../../src/openapi/components.ts';
import { OPERATION_SPECS, openApiDocument } from '../../src/openapi/document.ts';
import { FIELD_DESCRIPTIONS } from '../../src/openapi/fields.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { classify, dumpFiles, EXACT_ROUTES, KEYED_ROUTES, keyedTemplate, OG_TEMPLATE, paths, type RouteFamily } from '../../src/routes/paths.ts';
import { POLICIES, type RoutePolicy } from '../../src/routes/routes.ts';
import { LIST_SORTS } from '../../src/schemas/list.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by key, whatever each value's shape
type Json = Record<string, any>;
type Table = Record<RouteFamily, RoutePolicy>;
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

const resolveParam = (d: Json, p: Json): Json => (typeof p.$ref === 'string' ? d.components.parameters[p.$ref.split('/').pop()!] : p);

/**
 * Where `document` and the route table `table` disagree: a documented path that the table's
 * resolver (classify) puts in a family that does not own its operation, or that the family does
 * not answer with the documented method, or whose budget differs; a path parameter the template
 * does not name (or the reverse); an operation of the table missing from the document; and a
 * route of the URL side (every exact path, keyed family but the game pages, the cards, the dumps)
 * the document leaves out.
 */
function documentProblems(document: Json, table: Table): string[] {
  const problems: string[] = [];
  const examples = Object.fromEntries(Object.entries<Json>(document.components.parameters).map(([name, p]) => [name, String(p.example)]));
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    const concrete = template.replace(/\{([^}]*)\}/g, (_, name: string) => examples[name] ?? '?');
    const policy = table[classify(concrete)];
    for (const [method, op] of Object.entries<Json>(item)) {
      const owned = policy.operations.find((o) => o.id === op.operationId);
      if (owned === undefined) problems.push(`${method} ${template}: ${op.operationId} resolves to ${policy.family}, which does not name it`);
      else if (owned.path !== template) problems.push(`${method} ${template}: ${policy.family} names ${op.operationId} at ${owned.path}`);
      if (!(policy.methods as readonly string[]).includes(method.toUpperCase()))
        problems.push(`${method} ${template}: ${policy.family} answers ${policy.methods.join(', ')}`);
      if (op['x-rate-limited'] !== policy.rateLimited)
        problems.push(`${method} ${template}: x-rate-limited ${op['x-rate-limited']}, the table says ${policy.rateLimited}`);
      const named = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      const inPath = ((op.parameters ?? []) as Json[])
        .map((p) => resolveParam(document, p))
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      if (JSON.stringify(named) !== JSON.stringify(inPath))
        problems.push(`${method} ${template}: path parameters ${inPath.join(', ')}, the template names ${named.join(', ')}`);
    }
  }
  for (const policy of Object.values(table)) {
    for (const op of policy.operations) {
      const documented = document.paths[op.path]?.[policy.methods[0]!.toLowerCase()];
      if (documented?.operationId !== op.id) problems.push(`${op.id}: not at ${policy.methods[0]} ${op.path}`);
    }
  }
  const urlSide = [
    ...EXACT_ROUTES.keys(),
    ...KEYED_ROUTES.filter((r) => r.family !== 'page').map((r) => keyedTemplate(r.family)),
    OG_TEMPLATE,
    paths.dump.json,
    paths.dump.csv,
    paths.dump.ndjson,
    paths.dump.dataPackage,
    paths.dump.changes('{data_version}'),
  ];
  for (const p of urlSide) if (document.paths[p] === undefined) problems.push(`${p}: a route, not in the document`);
  return problems;
}

/** A copy of the route table with `change` made to it. */
function broken(change: (t: Table) => void): Table {
  const t = structuredClone(POLICIES) as Table;
  change(t);
  return t;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('documents every route of the route table, each where the table resolves it, with its methods and budget', () => {
    expect(documentProblems(doc, POLICIES)).toEqual([]);
    // Every family answered by a handler or a data file has an operation: only pages and build assets have none.
    expect(
      Object.values(POLICIES)
        .filter((p) => p.operations.length === 0)
        .map((p) => p.family)
        .sort(),
    ).toEqual(['asset', 'page']);
    expect(Object.keys(doc.paths)).toHaveLength(Object.values(POLICIES).flatMap((p) => p.operations).length);
    // Every operation the document can describe is one the table names.
    expect(Object.keys(OPERATION_SPECS).sort()).toEqual(
      Object.values(POLICIES)
        .flatMap((p) => p.operations.map((o) => o.id))
        .sort(),
    );
  });

  it('fails the check on a broken route table (the check can fail)', () => {
    const cases: Array<[string, Table]> = [
      ['an operation dropped', broken((t) => void (t.slot.operations = []))],
      ['two operations swapped', broken((t) => void ([t.slot.operations, t.widget_data.operations] = [t.widget_data.operations, t.slot.operations]))],
      ['a misspelt path', broken((t) => void (t.history.operations = [{ id: 'listHistory', path: `${paths.history}s` }]))],
      ['a method the route does not answer', broken((t) => void (t.mcp.methods = ['GET', 'HEAD']))],
      ['a budget flipped', broken((t) => void (t.history.rateLimited = true))],
    ];
    for (const [what, table] of cases) {
      // The document built from the broken table against the real one, and the real document against the broken table.
      expect(documentProblems(openApiDocument(table), POLICIES), what).not.toEqual([]);
      expect(documentProblems(doc, table), what).not.toEqual([]);
    }
    expect(() => openApiDocument(broken((t) => void (t.slot.operations = [{ id: 'getGame', path: keyedTemplate('provider') }])))).toThrow(
      /names \/api\/rtp\/provider\/\{provider\} twice/,
    );
    expect(() => openApiDocument(broken((t) => void (t.slot.operations = [{ id: 'getGame', path: '/api/rtp/{game}' }])))).toThrow(
      /names the parameter \{game\}/,
    );
  });

  it('marks 429 on every route (an exempt one refuses a bad key past the budget)', () => {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      const op = item.get ?? item.post;
      expect('429' in op.responses, path).toBe(true);
    }
  });

  it('documents 400 on the query routes and 404 on every path route', () => {
    const shared = ['304', '400', '401', '405', '408', '414', '417', '429', '431', '503'];
    expect(Object.keys(doc.paths[paths.list].get.responses).sort()).toEqual(['200', ...shared]);
    expect(Object.keys(doc.paths[paths.history].get.responses).sort()).toEqual(['200', ...shared]);
    expect(doc.paths[paths.list].get.responses['400'].content['application/json'].example.statusMessage).toBe('invalid query parameters');
    expect(Object.keys(doc.paths[paths.mcp].post.responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '405',
      '406',
      '408',
      '413',
      '414',
      '415',
      '417',
      '429',
      '431',
      '503',
    ]);
    for (const [p, item] of Object.entries<Json>(doc.paths)) {
      if (p.includes('{')) expect(item.get.responses['404'], p).toBeDefined();
    }
    expect(doc.paths[keyedTemplate('slot')].get.responses['404'].content['application/json'].example).toEqual({
      statusCode: 404,
      statusMessage: 'slot not found in registry',
    });
  });

  it('documents the rate-limit headers on counted 200s only, and Retry-After on 429', () => {
    for (const [p, item] of Object.entries<Json>(doc.paths)) {
      const op = item.get ?? item.post;
      expect('X-RateLimit-Limit' in (op.responses['200'].headers ?? {}), p).toBe(op['x-rate-limited']);
    }
    expect(Object.keys(doc.paths[paths.list].get.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy', 'ETag']),
    );
    expect(Object.keys(doc.components.responses.RateLimited.headers)).toContain('Retry-After');
  });

  it("documents the query parameters the handlers read, with the list schema's sorts and bounds", () => {
    const query = (p: string) => (doc.paths[p].get.parameters as Json[]).filter((x) => x.in === 'query');
    const list = Object.fromEntries(query(paths.list).map((x) => [x.name, x.schema]));
    // The list route reads LIST_PARAMS; the answer format, the batch lookup and the delta sync read one more each.
    expect(Object.keys(list)).toEqual([...LIST_PARAMS, 'format', 'slugs', 'updated_since']);
    expect(query(paths.history).map((x) => x.name)).toEqual([...HISTORY_PARAMS]);
    expect(list.sort.enum).toEqual([...LIST_SORTS]);
    expect(list.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(list.volatility.pattern).toBe('^(low|medium|high|very-high)(,(low|medium|high|very-high))*$');
    expect(list.badge.enum).toEqual(['verified_rtp', 'variants_tracked', 'sources_disagree']);
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

  it('is the published copy (clients/typescript/openapi.json) byte for byte, built in a process with another time zone and locale', () => {
    // Anything read from the environment or the locale (dates, sorting, number formats) would show here.
    const script = `import { openApiJson } from ${JSON.stringify(path.join(ROOT, 'src/openapi/document.ts'))}; process.stdout.write(openApiJson());`;
    const other = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' },
    });
    expect(other.status, other.stderr).toBe(0);
    const published = readFileSync(path.join(ROOT, 'clients/typescript/openapi.json'), 'utf8');
    expect(other.stdout === published, 'clients/typescript/openapi.json is out of date: run `npm run client:build`').toBe(true);
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
    const ok = [
      '',
      'q=book',
      'provider=playngo&sort=rtp_desc',
      'game_type=slot&has_variants=1&limit=200',
      'sort=recent&offset=100',
      'q=zzzz',
      'provider=nope',
      'q=dead&sort=relevance',
    ];
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
    for (const q of [
      `slug=${r.canonical_slug}&rtp=${r.stated_rtp}`,
      `slug=${r.canonical_slug}&rtp=50`,
      `name=${encodeURIComponent(r.canonical_name)}&rtp=${r.rtp_min}`,
    ]) {
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
