// The edge's nginx.conf (src/emit/nginx.ts) against the route table: every URL family goes to the
// location nginx would pick for it (exact, then ^~ prefix, then regular expressions in order, then
// `/`), which serves the file the server would, with the server's headers, or passes it to Node; a
// merged slug's URLs answer the server's 301.
import { describe, expect, it } from 'vitest';
import { staticHeaders } from '../../src/emit/headers.ts';
import {
  EDGE_ERRORS,
  EDGE_FAIL_TIMEOUT_S,
  EDGE_MAX_FAILS,
  EDGE_POOL_FILE,
  EDGE_UNAVAILABLE,
  EDGE_UPSTREAM_TIMEOUT_S,
  FAILURE_LOG_FORMAT,
  POOLS,
  poolServerLine,
  poolServersFile,
  poolUpstream,
  renderNginxConf,
} from '../../src/emit/nginx.ts';
import { JSON_ERROR_HEADERS } from '../../src/list/handler-result.ts';
import { createMovedLookup } from '../../src/list/moved.ts';
import { contentTypeOf } from '../../src/routes/content-types.ts';
import { MOVED_HEADERS, movedBody } from '../../src/routes/moved.ts';
import { classify, KEYED_ROUTES, keyedFile, paths, type RouteFamily } from '../../src/routes/paths.ts';
import { DUMP_TYPES, EXPECTATION_FAILED, JSON_TYPE, pageHeaders } from '../../src/routes/response-headers.ts';
import { DYNAMIC_FAMILIES, dumpFile, FAST_UPSTREAM_TIMEOUT_MS, POLICIES, type RoutePolicy } from '../../src/routes/routes.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { SERVED_FIXTURE } from '../fixtures/served-files.ts';
import { familySamples } from '../helpers/route-samples.ts';

const SITE = 'https://rtp.example.org/registry/';
const SERVED = SERVED_FIXTURE;
/** A studio's slug merged into its publisher's record of the same game. */
const MERGED: ReadonlyMap<string, string> = new Map([['book-of-dead-studio', 'book-of-dead']]);
const conf = renderNginxConf(SERVED, SITE, MERGED);

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
    out.push({
      kind,
      match,
      body: m[3]!
        .trim()
        .split('\n')
        .map((l) => l.trim()),
    });
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
  const file =
    tryFiles === undefined
      ? null
      : tryFiles
          .split(' ')[1]!
          .replace(/^"|"$/g, '')
          .replace(/\$(\d)/g, (_, k: string) => captures[Number(k) - 1]!)
          .replace('$uri', urlPath)
          .slice(1);
  const dt = line('default_type ');
  return {
    proxied: line('proxy_pass ') !== undefined,
    file,
    headers,
    defaultType: dt === undefined ? null : /"(.*)"/.exec(dt)![1]!,
    types: line('types') ?? null,
  };
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

  it("answers what it refuses itself, and a dynamic route no instance answers, with the server's JSON error, and sends unknown paths to the instances", () => {
    const errorPages = new Map(
      [...conf.matchAll(/^ {4}error_page ((?:\d{3} )+)(=\d* )?(\S+);$/gm)].flatMap((m) =>
        m[1]!
          .trim()
          .split(' ')
          .map((code) => [Number(code), { to: m[2]?.trim() ?? '', target: m[3]! }]),
      ),
    );
    // nginx's own errors, each to an internal location answering the JSON body with its status and the server's error headers.
    for (const code of [400, 408, 413, 414, 417, 494, 500, 501, 502, 503, 504, 505]) {
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
    // 404, 405 and the preconditions' handoff are the instances' to answer.
    for (const code of [404, 405, 419]) expect(errorPages.get(code)).toEqual({ to: '=', target: '@node' });
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
    expect(
      conf
        .split('\n')
        .filter((l) => l.includes('disable_symlinks'))
        .every((l) => l.startsWith('      disable_symlinks')),
    ).toBe(true);
    for (const pool of POOLS)
      expect(conf).toContain(
        `upstream ${poolUpstream(pool)} {\n    # Shared by the workers: an instance one finds failed, all leave out.\n    zone ${poolUpstream(pool)} 64k;\n    include ${poolServersFile(pool)};`,
      );
  });

  it('gives the routes the route table says answer in milliseconds its short wait on an instance, the others the default', () => {
    const fast = (Object.values(POLICIES) as RoutePolicy[]).filter((p) => p.upstreamTimeoutMs !== undefined).map((p) => p.family);
    expect(fast.sort()).toEqual(['history', 'identify', 'list']);
    for (const family of DYNAMIC_FAMILIES) {
      const url = SAMPLES[family][0]!.split('?')[0]!;
      const { loc } = pick(url);
      const wait = POLICIES[family].upstreamTimeoutMs;
      const timeouts = loc.body.filter((l) => /^proxy_\w+_timeout /.test(l));
      expect(timeouts, url).toEqual(
        wait === undefined ? [] : [`proxy_connect_timeout ${wait}ms;`, `proxy_send_timeout ${wait}ms;`, `proxy_read_timeout ${wait}ms;`],
      );
    }
    expect(FAST_UPSTREAM_TIMEOUT_MS).toBe(1000);
    expect(conf).toContain(`proxy_read_timeout ${EDGE_UPSTREAM_TIMEOUT_S}s;`);
    // Passive health checks: one failure leaves an instance out for 2 s.
    expect(poolServerLine(4711)).toBe(`server 127.0.0.1:4711 max_fails=${EDGE_MAX_FAILS} fail_timeout=${EDGE_FAIL_TIMEOUT_S}s;\n`);
    expect([EDGE_MAX_FAILS, EDGE_FAIL_TIMEOUT_S]).toEqual([1, 2]);
  });

  it('answers as the instances do what nginx would answer otherwise, and logs no request line', () => {
    // Preconditions and TRACE go to the instances; the pool is chosen again where they answer (TRACE skips the server level).
    expect(conf).toMatch(/^ {4}error_page 404 405 419 = @node;$/m);
    expect(conf).toMatch(/^ {4}if \(\$rtp_precondition\) \{\n {6}return 419;\n {4}\}$/m);
    expect(pick('/nowhere').loc.body).toEqual(['proxy_pass http://$rtp_pool;']);
    expect(LOCATIONS.find((l) => l.kind === '@')!.body).toEqual([`include ${EDGE_POOL_FILE};`, 'proxy_pass http://$rtp_pool;']);
    // An Expect other than 100-continue: the instances' 417, straight from its internal location.
    expect(EDGE_ERRORS.get(417)).toEqual(EXPECTATION_FAILED);
    expect(conf).toMatch(/^ {4}if \(\$rtp_expectation_failed\) \{\n {6}rewrite \^ \/\.edge-error\/417 last;\n {4}\}$/m);
    const expect417 = /map "\$server_protocol\|\$http_expect" \$rtp_expectation_failed \{\n {4}default 0;\n {4}"~\*(.*)" 0;\n {4}"~(.*)" 1;/.exec(conf)!;
    const [meets, fails] = [new RegExp(expect417[1]!, 'i'), new RegExp(expect417[2]!)];
    const refused = (value: string, protocol = 'HTTP/1.1') => !meets.test(`${protocol}|${value}`) && fails.test(`${protocol}|${value}`);
    // As Node reads it: /(?:^|\W)100-continue(?:$|\W)/i, on HTTP/1.1 only.
    expect(['200-ok', 'x', '100-continuex'].map((v) => refused(v))).toEqual([true, true, true]);
    expect(['', '100-continue', '100-Continue', 'foo, 100-continue'].map((v) => refused(v))).toEqual([false, false, false, false]);
    expect(refused('200-ok', 'HTTP/1.0')).toBe(false);
    // HTTP/0.9 closed unanswered; no request line in nginx's error log.
    expect(conf).toMatch(/^ {4}if \(\$rtp_http09\) \{\n {6}return 444;\n {4}\}$/m);
    expect(conf).toMatch(/^error_log stderr alert;$/m);
    expect(conf).toContain(`log_format ${FAILURE_LOG_FORMAT} '$rtp_request_method $rtp_request_path answered`);
    expect(conf).not.toMatch(/log_format[^\n]*\$(request|request_uri|args|query_string)\b/);
  });

  it("answers each URL of a merged slug served from a file with the server's 301: its headers, Location with the query string, its JSON body", () => {
    const lookup = createMovedLookup(MERGED);
    const moved = KEYED_ROUTES.filter((r) => r.key === 'slug').map((r) => `${r.prefix}book-of-dead-studio${r.suffix}`);
    expect(moved).toEqual([
      '/api/widget/rtp/book-of-dead-studio',
      '/api/badge/rtp/book-of-dead-studio.svg',
      '/api/feeds/game/book-of-dead-studio.atom',
      '/api/rtp/book-of-dead-studio',
      '/widget/rtp/book-of-dead-studio',
      '/rtp/book-of-dead-studio',
    ]);
    const errorPage = /^ {4}error_page 418 =301 (\S+);$/m.exec(conf);
    expect(errorPage).not.toBeNull();
    const internal = LOCATIONS.find((l) => l.kind === '=' && l.match === errorPage![1])!;
    expect(internal.body.slice(0, 3)).toEqual(['internal;', 'types { }', `default_type ${JSON.stringify(MOVED_HEADERS['Content-Type'])};`]);
    const headers = internal.body.filter((l) => l.startsWith('add_header ')).map((l) => /^add_header (\S+) "?(.*?)"? always;$/.exec(l)!.slice(1));
    expect(headers).toEqual([...Object.entries(MOVED_HEADERS).filter(([n]) => n !== 'Content-Type'), ['Location', '$rtp_moved_to']]);
    expect(internal.body.at(-1)).toBe('return 200 $rtp_moved_body;');
    for (const url of moved) {
      const { loc } = pick(url);
      expect(loc.kind, url).toBe('=');
      const answer = lookup(url, 'theme=dark')!;
      // Other methods go to the instances (405 -> @node), as the static files do; GET and HEAD hand over to the internal location.
      expect(loc.body, url).toEqual([
        'if ($request_method !~ ^(GET|HEAD)$) { return 405; }',
        `set $rtp_moved_to "${answer.location.split('?')[0]}$is_args$args";`,
        `set $rtp_moved_body ${JSON.stringify(answer.body.toString('utf8'))};`,
        'return 418;',
      ]);
      expect(JSON.parse(answer.body.toString('utf8'))).toEqual(movedBody('book-of-dead-studio', 'book-of-dead'));
    }
    // The link-preview card is the server's (drawn by it), as are the survivor's own files.
    expect(served(paths.ogImage('book-of-dead-studio')).proxied).toBe(true);
    expect(served(paths.slot('book-of-dead')).file).toBe('api/rtp/book-of-dead');
  });

  it('has no redirect locations when nothing was merged (nginx refuses a variable nothing sets)', () => {
    const plain = renderNginxConf(SERVED, SITE, new Map());
    expect(plain).not.toContain('rtp_moved');
    expect(plain).not.toContain('error_page 418');
    expect(locations(plain).length).toBe(LOCATIONS.length - 6 - 1);
  });

  it('is the same text for the same build, and refuses a value nginx would read as a variable', () => {
    expect(renderNginxConf(SERVED, SITE, new Map(MERGED))).toBe(conf);
    expect(() => renderNginxConf([{ path: '/a$b', file: 'a$b.html' }], SITE, MERGED)).toThrow(/cannot write/);
  });
});
