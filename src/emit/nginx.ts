// The edge's nginx configuration (dist/edge/nginx.conf), generated from the route table
// (src/routes/routes.ts): nginx serves every static family from dist/client with the headers the
// table gives it, and passes only the dynamic routes, and whatever no file answers, to the Node
// instances; the URLs of merged slugs answer the server's 301 (src/routes/moved.ts) from nginx too.
// `npm run edge` (src/edge/) runs it with the per-run parts beside it: the instances' addresses and
// the edge's own address and folder. No path or header is written here by hand.
import { CONTENT_TYPES, DEFAULT_CONTENT_TYPE } from '../routes/content-types.ts';
import { MOVED_HEADERS, MOVED_STATUS, movedBody, movedStaticUrls } from '../routes/moved.ts';
import { ASSET_PREFIX, classify, DUMP_ROUTE, EXACT_ROUTES, KEY_SEGMENT, KEYED_ROUTES, paths, type RouteFamily } from '../routes/paths.ts';
import { DUMP_TYPES, JSON_ERROR, JSON_TYPE, pageHeaders } from '../routes/response-headers.ts';
import { DYNAMIC_FAMILIES, EXACT_DATA_ROUTES, POLICIES } from '../routes/routes.ts';
import type { ServedFile } from '../routes/served-files.ts';
import { staticHeaders } from './headers.ts';
import { PRECONDITION_HANDOFF, requestChecks } from './nginx-checks.ts';
import {
  EDGE_BODY_BYTES,
  EDGE_ERRORS,
  EDGE_HEAD_LINE_BYTES,
  EDGE_LOG_FILE,
  EDGE_POOL_FILE,
  EDGE_SITE_FILE,
  EDGE_UPSTREAM_TIMEOUT_S,
  POOLS,
  poolServersFile,
  poolUpstream,
} from './nginx-edge.ts';

export * from './nginx-edge.ts';

/** The variable edge-pool.conf sets to the upstream group of the pool serving. */
const UPSTREAM = '$rtp_pool';
/**
 * The internal locations of nginx's own answers (EDGE_ERRORS), one per status answered. A URI rather than a named
 * location: a request refused before its request line is parsed has no URI a named location could keep.
 */
const ERROR_LOCATION = '/.edge-error/';
/**
 * The internal location answering the URL of a merged slug, and the status its location returns to
 * reach it (one no route answers): error_page turns it into the 301, as `return 301` could not give
 * the server's JSON body.
 */
const MOVED_LOCATION = '/.edge-moved';
const MOVED_HANDOFF = 418;

/** A double-quoted nginx string; `$` is refused, since nginx would read it as a variable. */
function quote(value: string): string {
  if (value.includes('$') || /[\r\n]/.test(value)) throw new Error(`nginx.conf: cannot write ${JSON.stringify(value)}: it holds "$" or a line break`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A double-quoted regular expression of a location (its `$` anchors are no variables there). */
function quoteRegex(re: string): string {
  if (/["\r\n]/.test(re)) throw new Error(`nginx.conf: cannot write the pattern ${JSON.stringify(re)}`);
  return `"${re.replace(/\\/g, '\\\\')}"`;
}

/** The directives that give a location its family's headers: Content-Type through `types`, the rest with add_header. */
function headerDirectives(family: RouteFamily, contentType: string | null, page: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  // A fixed type: no extension decides it. Null: the type follows the file's extension (the http block's types).
  if (contentType !== null) out.push('types { }', `default_type ${quote(contentType)};`);
  for (const [name, value] of staticHeaders(family, contentType ?? '', page)) if (name !== 'Content-Type') out.push(`add_header ${name} ${quote(value)};`);
  return out;
}

function location(match: string, body: readonly string[]): string {
  return `    location ${match} {\n${body.map((line) => `      ${line}\n`).join('')}    }\n`;
}

/**
 * A location serving files: as the instances, it follows no symbolic link inside the served folder
 * (the folder itself is reached through links). Only here: the server-level test for the pool
 * serving (edge-site.conf) reads through a link outside it.
 */
/** The internal location `name` under ERROR_LOCATION: `status` with `body` as JSON, and the server's JSON error headers. */
function errorLocation(name: string, status: number, body: unknown): string {
  // `always`: add_header leaves error answers out otherwise.
  const { 'Content-Type': errorType, ...errorHeaders } = JSON_ERROR;
  return location(`= ${ERROR_LOCATION}${name}`, [
    'internal;',
    'types { }',
    `default_type ${quote(errorType!)};`,
    ...Object.entries(errorHeaders).map(([n, v]) => `add_header ${n} ${quote(v)} always;`),
    `return ${status} ${quote(JSON.stringify(body))};`,
  ]);
}

function fileLocation(match: string, body: readonly string[]): string {
  return location(match, [...body, 'disable_symlinks on from=$document_root;']);
}

/**
 * The locations of the merged slugs' URLs served from files (exact, so before the keyed families'
 * patterns), and the internal one answering them: the server's redirect, its headers and JSON body,
 * with `Location` the survivor's URL and the request's query string (taken before error_page's
 * internal redirect drops it). Other methods (the preflight) go to the instances, as for the files.
 * None when nothing was merged (nginx refuses a variable nothing sets).
 */
function movedLocations(merged: ReadonlyMap<string, string>): { errorPage: string[]; locations: string[]; internal: string[] } {
  const urls = movedStaticUrls(merged);
  if (urls.length === 0) return { errorPage: [], locations: [], internal: [] };
  const locations = urls.map((m) =>
    location(`= ${quote(m.from)}`, [
      'if ($request_method !~ ^(GET|HEAD)$) { return 405; }',
      // quote() refuses `$`: the query string's variables go after the quoted path.
      `set $rtp_moved_to ${quote(m.to).slice(0, -1)}$is_args$args";`,
      `set $rtp_moved_body ${quote(JSON.stringify(movedBody(m.slug, m.into)))};`,
      `return ${MOVED_HANDOFF};`,
    ]),
  );
  const { 'Content-Type': type, ...headers } = MOVED_HEADERS;
  const internal = location(`= ${MOVED_LOCATION}`, [
    'internal;',
    'types { }',
    `default_type ${quote(type!)};`,
    ...Object.entries(headers).map(([n, v]) => `add_header ${n} ${quote(v)} always;`),
    'add_header Location $rtp_moved_to always;',
    'return 200 $rtp_moved_body;',
  ]);
  return { errorPage: [`error_page ${MOVED_HANDOFF} =${MOVED_STATUS} ${MOVED_LOCATION};`], locations, internal: [internal] };
}

/** The families whose Content-Type follows the file's extension (src/routes/content-types.ts). */
const BY_EXTENSION: ReadonlySet<RouteFamily> = new Set(['page', 'asset']);

/**
 * The text of nginx.conf for a build: `served` are its files found by URL path
 * (src/routes/served-files.ts), `site` the build's site (the pages' CSP names its origin), `merged`
 * each merged slug's survivor (src/routes/moved.ts `mergedSlugs`).
 */
export function renderNginxConf(served: readonly ServedFile[], site: string, merged: ReadonlyMap<string, string>): string {
  const page = pageHeaders(new URL(site).origin);
  const checks = requestChecks(`${ERROR_LOCATION}${EDGE_ERRORS.get(417)!.statusCode}`);
  const types = new Map<string, string[]>();
  for (const [ext, type] of Object.entries(CONTENT_TYPES)) types.set(type, [...(types.get(type) ?? []), ext.slice(1)]);
  const locations: string[] = [];

  // nginx's own errors: each status to the location of its JSON answer; `tooLarge` names another for 413.
  const errorPages = (tooLarge?: string) =>
    [...EDGE_ERRORS].map(([code, body]) =>
      code === 413 && tooLarge !== undefined
        ? `error_page 413 =413 ${ERROR_LOCATION}${tooLarge};`
        : `error_page ${code} =${body.statusCode} ${ERROR_LOCATION}${body.statusCode};`,
    );
  const bodyLimits: string[] = [];
  // The dynamic routes: only the instances answer them. One that takes a body has the instances'
  // bound, and their answer past it (error_page in a location replaces the server's list, so all of it).
  for (const [urlPath, family] of EXACT_ROUTES) {
    if (!DYNAMIC_FAMILIES.has(family)) continue;
    const body = POLICIES[family].body;
    const limit = body === undefined ? [] : [`client_max_body_size ${body.maxBytes};`, ...errorPages(`${family}-413`)];
    if (body !== undefined) bodyLimits.push(errorLocation(`${family}-413`, 413, body.tooLarge));
    // A route answered in milliseconds: an instance silent past its timeout is skipped (the request
    // goes to the next, as it is idempotent) and left out of its pool (EDGE_FAIL_TIMEOUT_S).
    const wait = POLICIES[family].upstreamTimeoutMs;
    const timeouts = wait === undefined ? [] : ['connect', 'send', 'read'].map((t) => `proxy_${t}_timeout ${wait}ms;`);
    locations.push(location(`= ${quote(urlPath)}`, [...limit, ...timeouts, `proxy_pass http://${UPSTREAM};`]));
  }
  // Static data at exact paths.
  for (const [urlPath, data] of EXACT_DATA_ROUTES)
    locations.push(fileLocation(`= ${quote(urlPath)}`, [...headerDirectives('dump', data.contentType, page), `try_files ${quote(`/${data.file}`)} @node;`]));
  // Files found by URL path: pages, openapi.json; assets share one prefix location below.
  const exact = new Set(EXACT_DATA_ROUTES.keys());
  for (const f of served) {
    if (exact.has(f.path) || f.path.startsWith(ASSET_PREFIX)) continue;
    const family = classify(f.path);
    locations.push(
      fileLocation(`= ${quote(f.path)}`, [
        ...headerDirectives(family, BY_EXTENSION.has(family) ? null : POLICIES[family].contentType, page),
        `try_files ${quote(`/${f.file}`)} @node;`,
      ]),
    );
  }
  locations.push(fileLocation(`^~ ${ASSET_PREFIX}`, [...headerDirectives('asset', null, page), 'try_files $uri @node;']));
  // The dumps: the type follows the extension (DUMP_TYPES).
  const dumpTypes = Object.entries(DUMP_TYPES).map(([ext, type]) => `${quote(type)} ${ext.slice(1)};`);
  const dumpHeaders = headerDirectives('dump', JSON_TYPE, page).filter((d) => !d.startsWith('types') && !d.startsWith('default_type'));
  locations.push(
    fileLocation(`~ ${quoteRegex(DUMP_ROUTE.url.source)}`, [
      `types { ${dumpTypes.join(' ')} }`,
      `default_type ${quote(JSON_TYPE)};`,
      ...dumpHeaders,
      `try_files /${DUMP_ROUTE.dir}/$1 @node;`,
    ]),
  );
  // The merged slugs' URLs: exact locations, so nginx picks them before the keyed families' patterns.
  const moved = movedLocations(merged);
  locations.push(...moved.locations);
  // The keyed families, in the table's order (regular expression locations are tried in order).
  for (const r of KEYED_ROUTES) {
    const re = `^${escapeRegex(r.prefix)}${KEY_SEGMENT}${escapeRegex(r.suffix)}$`;
    locations.push(
      fileLocation(`~ ${quoteRegex(re)}`, [...headerDirectives(r.family, POLICIES[r.family].contentType, page), `try_files /${r.dir}/$1${r.ext} @node;`]),
    );
  }

  const answers = new Map([...EDGE_ERRORS.values()].map((body) => [body.statusCode, body]));
  const internalLocations = [...answers.values()]
    .map((body) => errorLocation(String(body.statusCode), body.statusCode, body))
    .concat(bodyLimits, moved.internal);
  return `# The edge: nginx in front of the registry's Node instances. Generated by the build from
# src/routes/routes.ts (src/emit/nginx.ts); do not edit. \`npm run edge\` runs it with nginx -p <its
# folder>, where it writes ${POOLS.map(poolServersFile).join(', ')}, ${EDGE_SITE_FILE}, ${EDGE_POOL_FILE} and
# ${EDGE_LOG_FILE} beside a link to this file.
daemon off;
# A release switch never reloads nginx (a reload closes clients' idle keep-alive connections, and a
# request sent on one as it closes fails): edge-site.conf reads the release and the pool serving
# through a link that \`npm run edge\` moves.
worker_processes auto;
pid nginx.pid;
# nginx has no format for its error log, and each of its lines about a request carries the request
# line, query string included (even a refused symbolic link is logged at crit): only nginx's own
# faults (alert and worse) are logged there. The requests an instance failed (refusing, silent or
# down) are logged below, query-free.
error_log stderr alert;

events {
  worker_connections 4096;
}

http {
  # Content types by extension, for pages and build assets (src/routes/content-types.ts).
  types {
${[...types].map(([type, exts]) => `    ${quote(type)} ${exts.join(' ')};`).join('\n')}
  }
  default_type ${quote(DEFAULT_CONTENT_TYPE)};
  charset off;
  server_tokens off;
  # The instances log every request they answer (without query strings or raw addresses); nginx logs none.
  access_log off;
  log_not_found off;
${checks.http}
  sendfile on;
  tcp_nopush on;
  # Whole-body answers only, as the instances give them.
  max_ranges 0;
  # The instances' limits (docs/security.md): a 16 KiB request head (batch lookups), 10 s to send it.
  large_client_header_buffers 4 ${EDGE_HEAD_LINE_BYTES / 1024}k;
  client_header_timeout 10s;
  client_body_timeout 30s;
  client_max_body_size ${EDGE_BODY_BYTES / 1024}k;
  send_timeout 30s;
  keepalive_timeout 5s;
  client_body_temp_path temp/body;
  proxy_temp_path temp/proxy;
  fastcgi_temp_path temp/fastcgi;
  uwsgi_temp_path temp/uwsgi;
  scgi_temp_path temp/scgi;

${POOLS.map(
  (pool) => `  upstream ${poolUpstream(pool)} {
    # Shared by the workers: an instance one finds failed, all leave out.
    zone ${poolUpstream(pool)} 64k;
    include ${poolServersFile(pool)};
    keepalive 32;
    # Below the instances' idle keep-alive timeout (KEEP_ALIVE_TIMEOUT_MS, 5 s), so nginx never reuses a connection an instance is closing.
    keepalive_timeout 4s;
  }
`,
).join('\n')}
  server {
    include ${EDGE_SITE_FILE};
    include ${EDGE_LOG_FILE};

${checks.server}

    # To the instances: the client's own address, replacing any X-Forwarded-For it sent (instances trust this hop only).
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $remote_addr;
    # A failed, refused or silent instance: the request goes to the next one. nginx never passes on a
    # non-idempotent request (POST ${paths.mcp}) once an instance has received it.
    proxy_next_upstream error timeout;
    proxy_next_upstream_timeout 10s;
    proxy_connect_timeout 2s;
    proxy_send_timeout ${EDGE_UPSTREAM_TIMEOUT_S}s;
    proxy_read_timeout ${EDGE_UPSTREAM_TIMEOUT_S}s;

    # Methods the static files refuse (the CORS preflight, POST), methods nginx refuses before
    # anything (TRACE), paths no file answers (the 404s) and the preconditions above: the instances
    # answer them as without nginx.
    error_page 404 405 ${PRECONDITION_HANDOFF} = @node;
    # What nginx refuses itself, and no instance answering: the server's JSON error bodies; a merged slug's redirect.
    ${errorPages().concat(moved.errorPage).join('\n    ')}
    recursive_error_pages on;

${locations.join('')}
    location / {
      proxy_pass http://${UPSTREAM};
    }

    location @node {
      include ${EDGE_POOL_FILE};
      proxy_pass http://${UPSTREAM};
    }

${internalLocations.join('')}  }
}
`;
}
