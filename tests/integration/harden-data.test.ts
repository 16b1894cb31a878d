// Data hardening through a real release: HTML and script payloads in names, notes and URLs
// (tests/fixtures/xss) are escaped in every HTML page and exact in every JSON answer; a snapshot
// with errors fails the release and the release serving stays as it was.
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { ProviderRecordSchema } from '../../src/schemas/provider.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { WidgetDataSchema } from '../../src/schemas/widget.ts';
import { ROOT, reloadedOn, request, runScript } from '../helpers/production.ts';
import { type Server, startServer } from '../helpers/server.ts';

const FIXTURE = path.join(ROOT, 'tests/fixtures/xss');
let tmp: string;
let releases: string;
let server: Server;
let names: Record<string, string>;
let providerName: string;

/**
 * The page with every quoted attribute value emptied: inside `"…"` a `<` is only text, while a
 * payload that broke out of its quotes would be left standing as markup.
 */
function markupOf(html: string): string {
  return html.replace(/=\s*"[^"]*"/g, '=""').replace(/=\s*'[^']*'/g, "=''");
}

/** What the fixture's payloads would have become if any had not been escaped. */
function injected(html: string): string[] {
  const found: string[] = [];
  const markup = markupOf(html);
  if (markup.includes('<b>not bold')) found.push('element <b> from the attribution');
  for (const tag of markup.match(/<[a-zA-Z][^>]*>/g) ?? []) {
    if (/^<(img|object|embed)\b/i.test(tag)) found.push(`element ${tag}`);
    if (/\son[a-z]+\s*=/i.test(tag)) found.push(`event handler in ${tag}`);
  }
  for (const m of markup.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) if (/__xss|alert\(/.test(m[1]!)) found.push(`script ${m[1]!.slice(0, 80)}`);
  return found;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-xss-'));
  releases = path.join(tmp, 'releases');
  const r = await runScript('scripts/release.ts', [], { RELEASES_DIR: releases, RTP_DATA_DIR: FIXTURE });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  server = await startServer({ outDir: path.join(releases, 'current'), env: { RATE_LIMIT: '0', RELEASE_POLL_MS: '100' } });
  names = {};
  for (const slug of ['book-of-xss', 'quote-breaker']) {
    names[slug] = (JSON.parse(await readFile(path.join(FIXTURE, 'games/evil-games', `${slug}.json`), 'utf8')) as { canonical_name: string }).canonical_name;
  }
  providerName = (JSON.parse(await readFile(path.join(FIXTURE, 'providers/evil-games.json'), 'utf8')) as { display: string }).display;
});

afterAll(async () => {
  await server?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('payloads in the data', () => {
  it.each(['/widget/rtp/book-of-xss', '/widget/rtp/quote-breaker', '/rtp/book-of-xss', '/rtp/quote-breaker', '/providers/evil-games', '/', '/providers'])(
    '%s escapes every payload',
    async (url) => {
      const r = await request(server.url + url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(injected(r.text)).toEqual([]);
    },
  );

  it('the game pages and widgets show the names escaped, not dropped', async () => {
    const widget = (await request(`${server.url}/widget/rtp/book-of-xss`)).text;
    expect(widget).toContain('Book of &lt;img src=x onerror=');
    const page = (await request(`${server.url}/rtp/quote-breaker`)).text;
    expect(page).toMatch(/Quote(&quot;|&#34;|&#x22;) onmouseover=/);
  });

  it('JSON answers carry the exact strings (JSON-escaped), valid against their schemas', async () => {
    for (const slug of ['book-of-xss', 'quote-breaker']) {
      const slot = SlotRecordSchema.parse(JSON.parse((await request(`${server.url}/api/rtp/${slug}`)).text));
      expect(slot.canonical_name).toBe(names[slug]);
      const widget = WidgetDataSchema.parse(JSON.parse((await request(`${server.url}/api/widget/rtp/${slug}`)).text));
      expect(JSON.stringify(widget)).toContain(JSON.stringify(names[slug]).slice(1, -1));
    }
    const provider = ProviderRecordSchema.parse(JSON.parse((await request(`${server.url}/api/rtp/provider/evil-games`)).text));
    expect(JSON.stringify(provider)).toContain(JSON.stringify(providerName).slice(1, -1));
    const list = ListResponseSchema.parse(JSON.parse((await request(`${server.url}/api/rtp/list?provider=evil-games`)).text));
    expect(list.items.map((i) => i.canonical_name).sort()).toEqual(Object.values(names).sort());
    for (const url of ['/api/rtp/book-of-xss', '/api/rtp/list?q=xss', '/api/widget/rtp/quote-breaker']) {
      const r = await request(server.url + url);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('x-content-type-options') ?? 'nosniff').toBe('nosniff');
    }
  });
});

describe('a snapshot with errors', () => {
  it('fails the release and the old release keeps serving the same content', async () => {
    const before = (await request(`${server.url}/api/rtp/book-of-xss`)).text;
    const current = await readFile(path.join(releases, 'current/release.json'), 'utf8');
    const broken = path.join(tmp, 'broken');
    await cp(FIXTURE, broken, { recursive: true });
    const game = JSON.parse(await readFile(path.join(broken, 'games/evil-games/book-of-xss.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(broken, 'games/evil-games/book-of-xss.json'), JSON.stringify({ ...game, stated_rtp: 'ninety-six', provider: 'evil-games' }));
    await writeFile(
      path.join(broken, 'registry.json'),
      JSON.stringify({ ...(JSON.parse(await readFile(path.join(broken, 'registry.json'), 'utf8')) as object), data_version: '2.0.0' }),
    );
    const r = await runScript('scripts/release.ts', [], { RELEASES_DIR: releases, RTP_DATA_DIR: broken });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('release failed at step "data"');
    expect(r.stderr).toContain('book-of-xss.json');
    expect(await readFile(path.join(releases, 'current/release.json'), 'utf8')).toBe(current);
    // A forced reload (SIGHUP) looks at the link now: it still names the release serving.
    await reloadedOn(server, path.basename(await realpath(path.join(releases, 'current'))));
    const after = await request(`${server.url}/api/rtp/book-of-xss`);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before);
  });
});
