// The edge's nginx.conf (src/emit/nginx.ts) against the route table: every URL family goes to the
// location nginx would pick for it (exact, then ^~ prefix, then regular expressions in order, then
// `/`), which serves the file the server would, with the server's headers, or passes it to Node.
import { describe, expect, it } from 'vitest';
import { staticHeaders } from '../../src/emit/headers.ts';
import { EDGE_ERRORS, EDGE_UNAVAILABLE, POOLS, poolServersFile, poolUpstream, renderNginxConf } from '../../src/emit/nginx.ts';
import { SERVED_FIXTURE } from '../fixtures/served-files.ts';
import { JSON_ERROR_HEADERS } from '../../src/list/http.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { familySamples } from '../helpers/route-samples.ts';
import { contentTypeOf } from '../../src/routes/content-types.ts';
import { DUMP_TYPES, DYNAMIC_FAMILIES, dumpFile, JSON_TYPE, pageHeaders, POLICIES } from '../../src/routes/routes.ts';
import { classify, keyedFile, paths, type RouteFamily } from '../../src/routes/paths.ts';

const SITE = 'https://rtp.example.org/registry/';
const SERVED = SERVED_FIXTURE;
const conf = renderNginxConf(SERVED, SITE);

interface Location {
  kind: '=' | '^~' | '~' | '/' | '@';
  match: string;
  body: string[];
}

/** The server block's locations, parsed from the generated text. */
function locations(text: string): Location[] {
  const out: Location[] = [];
  const re = /^ {4}location (=|\^~|~|@)?\s*("(?:[^"\\]|\\.)*"|\S+)? ?\{\n((?: {6}.*\n)*) {4}\}$/gm;
  for (const m of text.matchAll(re)) {
    const raw = m[2] ?? '';
    const match = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\\\/g, '\\') : raw;
    const kind = (m[1] ?? (match === '/' ? '/' : match.startsWith('@') ? '@' : '/')) as Location['kind'];
    out.push({ kind, match, body: m[3]!.trim().split('\n').map((l) => l.trim()) });
  }
  return out;
}
const LOCATIONS = locations(conf);

/** The location nginx picks for a path (no nested locations here). */
function pick(urlPath: string): { loc: Location; captures: string[] } {
  const exact = LOCATIONS.find((l) => l.kind === '=' && l.match === urlPath);
  if (exact !== undefined) return { loc: exact, captures: [] };
  const prefix = LOCATIONS.filter((l) => l.kind === '^~' && urlPath.startsWith(l.match)).sort((a, b) => b.match.length - a.match.length)[0];
  if (prefix !== undefined) return { loc: prefix, captures: [] };
  for (const l of LOCATIONS.filter((x) => x.kind === '~')) {
    const m = new RegExp(l.match).exec(urlPath);
    if (m !== null) return { loc: l, captures: m.slice(1) };
  }
  return { loc: LOCATIONS.find((l) => l.kind === '/' && l.match === '/')!, captures: [] };
}

/** What the location does for the path: the file it serves (first try_files entry), its headers and type. */
function served(urlPath: string): { proxied: boolean; file: string | null; headers: Map<string, string>; defaultType: string | null; types: string | null } {
  const { loc, captures } = pick(urlPath);
  const line = (p: string) => loc.body.find((l) => l.startsWith(p));
  const tryFiles = line('try_files ');
  const headers = new Map<string, string>();
  for (const l of loc.body.filter((x) => x.startsWith('add_header '))) {
    const m = /^add_header (\S+) "(.*)";$/.exec(l)!;
    headers.set(m[1]!, m[2]!.replace(/\\"/g, '"'));
  }
  const file = tryFiles === undefined ? null : tryFiles.split(' ')[1]!.replace(/^"|"$/g, '').replace(/\$(\d)/g, (_, k: string) => captures[Number(k) - 1]!).replace('$uri', urlPath).slice(1);
  const dt = line('default_type ');
  return { proxied: line('proxy_pass ') !== undefined, file, headers, defaultType: dt === undefined ? null : /"(.*)"/.exec(dt)![1]!, types: line('types') ?? null };
}

const SAMPLES = familySamples({ slug: 'book-of-dead', provider: 'netent', version: '1.2.3', asset: '/_astro/site.abc.css' });
SAMPLES.page.push('/favicon.svg');

describe('nginx.conf from the route table', () => {
  it('has a sample URL for every route family, each classified as that family', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(POLICIES).sort());
    expect(LOCATIONS.length).toBeGreaterThan(SERVED.length + 8);
    for (const [family, urls] of Object.entries(SAMPLES)) for (const url of urls) expect(classify(url.split('?')[0]!), url).toBe(family);
  });

  it('passes the dynamic routes, and only them, to the instances', () => {
    for (const [family, urls] of Object.entries(SAMPLES) as Array<[RouteFamily, string[]]>) {
      for (const url of urls) expect(served(url.split('?')[0]!).proxied, url).toBe(DYNAMIC_FAMILIES.has(family));
    }
  });

  it('serves every static URL from the file the server reads, with the server headers of its family', () => {
    const page = pageHeaders(new URL(SITE).origin);
    const index = new Map(SERVED.map((f) => [f.path, f.file]));
    for (const [family, urls] of Object.entries(SAMPLES) as Array<[RouteFamily, string[]]>) {
      if (DYNAMIC_FAMILIES.has(family)) continue;
      for (const url of urls) {
        const got = served(url);
        expect(pick(url).loc.body, url).toContain('disable_symlinks on from=$document_root;');
        const dump = dumpFile(url);
        const want = dump?.file ?? keyedFile(url)?.file ?? index.get(url);
        expect(got.file, url).toBe(want);
        const type = dump?.contentType ?? (family === 'page' || family === 'asset' ? contentTypeOf(want!) : POLICIES[family].contentType);
        const expected = staticHeaders(family, type, page).filter(([n]) => n !== 'Content-Type');
        expect([...got.headers], url).toEqual(expected);
        // The type: fixed for the family, or by extension (the http block's types, or the dumps' own).
        if (got.defaultType !== null && got.types === 'types { }') expect(got.defaultType, url).toBe(type);
        else if (got.types !== null) expect(got.types, url).toContain(`"${type}" ${want!.slice(want!.lastIndexOf('.') + 1)}`);
        else expect(conf, url).toContain(`"${type}" ${want!.slice(want!.lastIndexOf('.') + 1)}`);
      }
    }
    expect(Object.keys(DUMP_TYPES)).toHaveLength(3);
  });

  it('answers what it refuses itself, and a dynamic route no instance answers, with the server\'s JSON error, and sends unknown paths to the instances', () => {
    const errorPages = new Map([...conf.matchAll(/^ {4}error_page ((?:\d{3} )+)(=\d* )?(\S+);$/gm)].flatMap((m) => m[1]!.trim().split(' ').map((code) => [Number(code), { to: m[2]?.trim() ?? '', target: m[3]! }])));
    // nginx's own errors, each to an internal location answering the JSON body with its status and the server's error headers.
    for (const code of [400, 408, 413, 414, 494, 500, 501, 502, 503, 504, 505]) {
      const page = errorPages.get(code);
      expect(page, String(code)).toBeDefined();
      const body = EDGE_ERRORS.get(code)!;
      expect(page!.to).toBe(`=${body.statusCode}`);
      const loc = LOCATIONS.find((l) => l.kind === '=' && l.match === page!.target)!;
      expect(loc.body).toContain('internal;');
      expect(loc.body).toContain(`return ${body.statusCode} ${JSON.stringify(JSON.stringify(body))};`);
      expect(loc.body).toContain(`default_type ${JSON.stringify(JSON_TYPE)};`);
      const headers = loc.body.filter((l) => l.startsWith('add_header ')).map((l) => /^add_header (\S+) "(.*)" always;$/.exec(l)!.slice(1));
      expect(['Content-Type', JSON_TYPE, ...headers.flat()]).toEqual([...JSON_ERROR_HEADERS]);
      expect(ErrorBodySchema.parse(body)).toEqual(body);
    }
    // No instance answering: the JSON 503. A header too large: 431, as the server answers it.
    for (const code of [502, 503, 504]) expect(EDGE_ERRORS.get(code)).toBe(EDGE_UNAVAILABLE);
    expect(EDGE_UNAVAILABLE.statusCode).toBe(503);
    expect(EDGE_ERRORS.get(494)!.statusCode).toBe(431);
    // 404 and 405 are the instances' to answer.
    expect(errorPages.get(404)).toEqual({ to: '=', target: '@node' });
    expect(errorPages.get(405)).toEqual({ to: '=', target: '@node' });
    expect(served('/api/rtp/no-such/thing').proxied).toBe(true);
    expect(served('/.env').proxied).toBe(true);
    expect(served('/404').proxied).toBe(true);
  });

  it('replaces any X-Forwarded-For a client sends with its own address, and retries idempotent requests only', () => {
    expect(conf).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(conf).not.toContain('$proxy_add_x_forwarded_for');
    expect(conf).toContain('proxy_next_upstream error timeout;');
    expect(conf).not.toContain('non_idempotent');
    expect(served(paths.list).proxied && pick(paths.list).loc.match).toBe(paths.list);
    expect(conf).toContain('proxy_pass http://$rtp_pool;');
    // Symbolic links are refused in the file locations only: the pool serving is read through a link (edge-site.conf).
    expect(conf.split('\n').filter((l) => l.includes('disable_symlinks')).every((l) => l.startsWith('      disable_symlinks'))).toBe(true);
    for (const pool of POOLS) expect(conf).toContain(`upstream ${poolUpstream(pool)} {\n    include ${poolServersFile(pool)};`);
  });

  it('is the same text for the same build, and refuses a value nginx would read as a variable', () => {
    expect(renderNginxConf(SERVED, SITE)).toBe(conf);
    expect(() => renderNginxConf([{ path: '/a$b', file: 'a$b.html' }], SITE)).toThrow(/cannot write/);
  });
});
