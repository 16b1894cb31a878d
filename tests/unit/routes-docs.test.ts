// The route table in the docs is written from src/routes/routes.ts, and kept up to date.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { routeTableMarkdown, withRouteTable } from '../../src/routes/docs.ts';
import { POLICIES } from '../../src/routes/routes.ts';

describe('the route table in the docs', () => {
  it('docs/server.md holds the table as src/routes/routes.ts has it', async () => {
    const text = await readFile('docs/server.md', 'utf8');
    expect(withRouteTable(text) === text, 'docs/server.md: the route table is out of date: run `npm run docs:routes`').toBe(true);
  });

  it('has one row per family, each with its methods, cache and budget', () => {
    const rows = routeTableMarkdown()
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| Route'));
    expect(rows).toHaveLength(Object.keys(POLICIES).length);
    for (const [k, p] of Object.values(POLICIES).entries()) {
      expect(rows[k]).toContain(p.methods.join(', '));
      expect(rows[k]).toContain(`\`${p.cacheControl}\``);
      expect(rows[k]).toContain(p.rateLimited ? '| counted |' : '| exempt |');
    }
  });

  it('a change to a policy changes the table', () => {
    const before = routeTableMarkdown();
    const saved = POLICIES.history.cacheControl;
    try {
      (POLICIES.history as { cacheControl: string }).cacheControl = 'no-store';
      expect(routeTableMarkdown()).not.toBe(before);
    } finally {
      (POLICIES.history as { cacheControl: string }).cacheControl = saved;
    }
  });
});
