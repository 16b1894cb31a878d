// docs/api.md is generated from the OpenAPI document and the shipped registry, README.md's route list
// from the same document; both are kept up to date.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { README_ROUTES_END, README_ROUTES_START, renderApiMarkdown, typeText, withRouteList } from '../../scripts/lib/openapi-markdown.ts';
import { API_DOC, expectedApiDoc, expectedReadme, FIX_COMMAND, README } from '../../scripts/openapi-docs.ts';
import { openApiDocument } from '../../src/openapi/document.ts';

/** docs/api.md as the generator writes it from data/: built once for the file, the expensive part here. */
let apiDoc: Promise<string> | undefined;
const expectedDoc = (): Promise<string> => (apiDoc ??= expectedApiDoc('data'));

describe('docs/api.md', () => {
  it('is up to date with the OpenAPI document and data/', async () => {
    const current = await readFile(API_DOC, 'utf8').catch(() => '');
    const expected = await expectedDoc();
    expect(current === expected, `docs/api.md is out of date: run \`${FIX_COMMAND}\``).toBe(true);
  }, 60_000); // examples computed over the whole shipped registry (11,000-odd games)

  it("README.md's route list is the document's, one line per route linked to its section", async () => {
    const current = await readFile(README, 'utf8');
    expect(current === (await expectedReadme()), `README.md's route list or data figures are out of date: run \`${FIX_COMMAND}\``).toBe(true);
    const doc = openApiDocument() as { paths: Record<string, { get?: { summary: string } }> };
    const list = current.slice(current.indexOf(README_ROUTES_START), current.indexOf(README_ROUTES_END)).split('\n').slice(1, -1);
    expect(list).toHaveLength(Object.keys(doc.paths).length);
    expect(list[0]).toBe(`- [\`GET /api/rtp/list\`](docs/api.md#get-apirtplist): ${doc.paths['/api/rtp/list']!.get!.summary}`);
    // A route the document gains is a line the list gains.
    const more = { ...doc, paths: { ...doc.paths, '/api/new': { get: { summary: 'New', 'x-rate-limited': true } } } };
    expect(withRouteList(current, more)).toContain('- [`GET /api/new`](docs/api.md#get-apinew): New\n<!-- end of route list -->');
    expect(withRouteList('no markers', doc)).toBeNull();
    // The data figures are the shipped data's.
    expect(current).toMatch(/^`data\/` holds [\d,]+ games from [\d,]+ providers at data version 2\.0\.0 \(frozen [^)]+\)\.$/m);
  }, 60_000);

  it('has a section, an example request and an example response for every route', async () => {
    const text = await expectedDoc();
    for (const path of Object.keys((openApiDocument() as { paths: object }).paths)) {
      const method = path === '/mcp' ? 'POST' : 'GET';
      const at = text.indexOf(`\n## ${method} ${path}\n`);
      expect(at, path).toBeGreaterThan(0);
      const section = text.slice(at, text.indexOf('\n## ', at + 5));
      if (path === '/api/openapi.json' || path === '/mcp' || path === '/api/feeds/rtp.atom' || path === '/api/feeds/provider/{provider}.atom') continue; // the document itself; the game feed's example stands for all three
      expect(section, path).toContain("curl -i '{base_url}");
      expect(section, path).toMatch(
        /`(200|404)` · `(application\/json|text\/html|text\/csv|application\/x-ndjson|text\/plain|image\/svg\+xml|image\/png|application\/atom\+xml)`/,
      );
    }
    expect(text).toContain('"canonical_name": "Book of Dead"');
  }, 60_000);

  it('renders schema types readably', () => {
    expect(typeText({ $ref: '#/components/schemas/GameRecord' })).toBe('[GameRecord](#gamerecord)');
    expect(typeText({ type: ['number', 'null'] })).toBe('number or null');
    expect(typeText({ type: 'integer', minimum: 1, maximum: 200 })).toBe('integer (1–200)');
    expect(typeText({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } })).toBe('array of `a`, `b`');
    expect(renderApiMarkdown(openApiDocument(), [])).toContain('### GameRecord');
  });
});
