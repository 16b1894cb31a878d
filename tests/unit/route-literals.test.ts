// A route's path is written once, in the route table (src/routes/): code elsewhere under src/ builds
// it from there (`paths`, `keyedTemplate`, the prefixes). This scans the code of every file under
// src/ outside src/routes/ (comments stripped: they may name routes as documentation) for the
// table's path roots, so a new copy of a route's path cannot creep back.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, ASSET_PREFIX, EXACT_ROUTES, KEYED_ROUTES, OG_PREFIX, PAGE_PATHS, paths, WIDGET_PREFIX } from '../../src/routes/paths.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const firstSegment = (p: string) => `/${p.split('/')[1]!}`;

/**
 * The roots of the table's paths: the first segment of each exact path (`/api`, `/mcp`,
 * `/llms.txt`) and page (`/providers`, `/compare`, `/about`; the search page `/` is SEARCH_LINK's),
 * and of each prefix with its slash (`/widget/`, `/rtp/`, `/_astro/`, `/providers/`).
 */
function routeRoots(): string[] {
  const prefixes = [...KEYED_ROUTES.map((r) => r.prefix), API_PREFIX, WIDGET_PREFIX, ASSET_PREFIX, OG_PREFIX, paths.providerPage(''), paths.operatorPage('')];
  const exact = [...EXACT_ROUTES.keys(), ...[...PAGE_PATHS].filter((p) => p !== paths.pages.search)];
  return [...new Set([...exact.map(firstSegment), ...prefixes.map((p) => `${firstSegment(p)}/`)])].sort();
}

/**
 * The search page's path `/` as a link or a page's path (`href="/"`, `href: '/'`, `path="/"`):
 * a bare `'/'` is too common elsewhere (path splitting) to be a root of its own.
 */
const SEARCH_LINK = /\b(?:href|path)\s*[=:]\s*\{?\s*(["'`])\/(?:\1|[?#])/;

/**
 * A root where a path starts: not inside a longer path or word (`/api` in `/rtp/api` or `x.org/api`),
 * and a root without its slash ending there or at a separator (`/api/…`, `/api?…`, not `/apis`).
 */
function literalPattern(roots: readonly string[]): RegExp {
  const alternatives = roots.map((r) => (r.endsWith('/') ? escapeRegExp(r) : `${escapeRegExp(r)}(?![\\w.-])`));
  return new RegExp(`(?<![\\w.~%/:-])(?:${alternatives.join('|')})`);
}

/** The code of a source file without its comments: TypeScript through esbuild; an .astro file's script fence so, its template without HTML and JS comments. */
function codeOf(file: string, text: string): string {
  const ts = (code: string) => transformSync(code, { loader: 'ts', legalComments: 'none', sourcefile: file }).code;
  if (!file.endsWith('.astro')) return ts(text);
  const fence = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const script = fence === null ? '' : ts(fence[1]!);
  const template = (fence === null ? text : text.slice(fence[0].length))
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return `${script}\n${template}`;
}

/** Every route path literal in the code of `files` (relative to src/), as `file: line`. */
function routeLiterals(files: ReadonlyMap<string, string>, roots = routeRoots()): string[] {
  const pattern = literalPattern(roots);
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const line of codeOf(file, text).split('\n')) {
      if (pattern.test(line) || SEARCH_LINK.test(line)) found.push(`${file}: ${line.trim().slice(0, 160)}`);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|mjs|astro)$/.test(e.name) ? [full] : [];
  });
}

describe('route paths are written in the route table only', () => {
  it('roots every route of the table', () => {
    expect(routeRoots()).toEqual([
      '/_astro/',
      '/about',
      '/api',
      '/api/',
      '/compare',
      '/llms.txt',
      '/mcp',
      '/operators',
      '/operators/',
      '/providers',
      '/providers/',
      '/rtp/',
      '/widget/',
    ]);
  });

  it('has an Astro page for each page of the site at an exact path', () => {
    const pageFile = (p: string) => path.join(SRC, 'pages', `${p === '/' ? 'index' : p.slice(1)}.astro`);
    expect([...PAGE_PATHS].filter((p) => !existsSync(pageFile(p)))).toEqual([]);
    expect(PAGE_PATHS.size).toBeGreaterThanOrEqual(4);
  });

  it('no code under src/ outside src/routes/ writes a route path (comments may)', () => {
    const files = new Map(
      sourceFiles(SRC)
        .filter((f) => !path.relative(SRC, f).startsWith(`routes${path.sep}`))
        .map((f) => [path.relative(SRC, f), readFileSync(f, 'utf8')]),
    );
    expect(files.size).toBeGreaterThan(100);
    expect(routeLiterals(files), 'build these paths from src/routes/paths.ts (paths, keyedTemplate, the prefixes)').toEqual([]);
  });

  it('finds a path in a string, a template or markup, and not in a comment or a longer path', () => {
    const sample = new Map([
      [
        'a.ts',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test, not a template
        "// GET /api/rtp/list\n/** see /mcp */\nconst a = '/api/rtp/list';\nconst b = `${site}/rtp/${slug}`;\nconst c = 'https://example.org/api/x';\nconst d = 'client/api/rtp';\n",
      ],
      [
        'b.astro',
        '---\n// the /widget/rtp/ pages\nconst x = 1;\n---\n<!-- /llms.txt -->\n<a href="/llms.txt">llms</a>\n<a href="/providers">all providers</a>\n<a href="/">home</a>\n<a href="/providers/x">x</a>\n',
      ],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test, not a template
      ['c.ts', "const nav = [{ href: '/', label: 'Search' }];\nconst parts = url.split('/');\nconst u = `/compare?slugs=${s}`;\nconst v = '/compared';\n"],
    ]);
    const found = routeLiterals(sample);
    expect(found).toHaveLength(8);
    expect(found[0]).toMatch(/^a\.ts: const a = "\/api\/rtp\/list";$/);
    expect(found[1]).toMatch(/^a\.ts: const b = `\$\{site\}\/rtp\/\$\{slug\}`;$/);
    expect(found.slice(2, 5)).toEqual([
      'b.astro: <a href="/llms.txt">llms</a>',
      'b.astro: <a href="/providers">all providers</a>',
      'b.astro: <a href="/">home</a>',
    ]);
    expect(found[5]).toBe('b.astro: <a href="/providers/x">x</a>');
    expect(found[6]).toMatch(/^c\.ts: const nav = \[\{ href: "\/", label: "Search" \}\];$/);
    expect(found[7]).toMatch(/^c\.ts: const u = `\/compare\?slugs=/);
  });
});
