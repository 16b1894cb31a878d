// docs/api.md is generated from the OpenAPI document and the shipped registry, and kept up to date.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_DOC, expectedApiDoc, FIX_COMMAND } from '../../scripts/openapi-docs.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { renderApiMarkdown, typeText } from '../../scripts/lib/openapi-markdown.ts';

describe('docs/api.md', () => {
  it('is up to date with the OpenAPI document and data/', async () => {
    const current = await readFile(API_DOC, 'utf8').catch(() => '');
    const expected = await expectedApiDoc('data');
    expect(current === expected, `docs/api.md is out of date: run \`${FIX_COMMAND}\``).toBe(true);
  });

  it('has a section, an example request and an example response for every route', async () => {
    const text = await expectedApiDoc('data');
    for (const path of Object.keys((openApiDocument() as { paths: object }).paths)) {
      const method = path === '/mcp' ? 'POST' : 'GET';
      const at = text.indexOf(`\n## ${method} ${path}\n`);
      expect(at, path).toBeGreaterThan(0);
      const section = text.slice(at, text.indexOf('\n## ', at + 5));
      if (path === '/api/openapi.json' || path === '/mcp' || path === '/api/feeds/rtp.atom' || path === '/api/feeds/provider/{provider}.atom') continue; // the document itself; the game feed's example stands for all three
      expect(section, path).toContain("curl -i '{base_url}");
      expect(section, path).toMatch(/`(200|404)` · `(application\/json|text\/html|text\/csv|application\/x-ndjson|text\/plain|image\/svg\+xml|image\/png|application\/atom\+xml)`/);
    }
    expect(text).toContain('"canonical_name": "Book of Dead"');
  });

  it('renders schema types readably', () => {
    expect(typeText({ $ref: '#/components/schemas/GameRecord' })).toBe('[GameRecord](#gamerecord)');
    expect(typeText({ type: ['number', 'null'] })).toBe('number or null');
    expect(typeText({ type: 'integer', minimum: 1, maximum: 200 })).toBe('integer (1–200)');
    expect(typeText({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } })).toBe('array of `a`, `b`');
    expect(renderApiMarkdown(openApiDocument(), [])).toContain('### GameRecord');
  });
});
