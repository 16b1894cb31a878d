// The widget pages of the build under test with the operator line: every game an operator observed
// has that operator's hidden line, no other game has one, and every page stays within the widget's
// gzip budget (the figures are printed for the record).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gzipSize, WIDGET_GZIP_BUDGET } from '../../dist-check/rules.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { testDataDir, testOutDir } from '../helpers/server.ts';

let bundle: RegistryBundle;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
});

describe('widget pages with operator lines', () => {
  it('hold one hidden line per operator that observed the game, and stay within the gzip budget', async () => {
    const dir = path.join(testOutDir(), 'client', 'widget', 'rtp');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.html'));
    const operators = new Map(bundle.records.map((r) => [r.canonical_slug, r.operators.map((o) => o.operator)]));
    const sizes = { with: [] as number[], without: [] as number[] };
    for (const file of files) {
      const html = await readFile(path.join(dir, file), 'utf8');
      const keys = [...html.matchAll(/<p class="o" data-k="([^"]*)" hidden>/g)].map((m) => m[1]);
      expect(keys, file).toEqual(operators.get(file.slice(0, -'.html'.length)));
      (keys.length > 0 ? sizes.with : sizes.without).push(gzipSize(html));
    }
    expect(files).toHaveLength(bundle.records.length);
    expect(sizes.with.length).toBeGreaterThan(0);
    const max = Math.max(...sizes.with, ...sizes.without);
    expect(max).toBeLessThanOrEqual(WIDGET_GZIP_BUDGET);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    console.log(
      `widget pages: ${sizes.with.length} with an operator line (median ${median(sizes.with)} B gzip), ` +
        `${sizes.without.length} without (median ${median(sizes.without)} B), largest ${max} B of ${WIDGET_GZIP_BUDGET}`,
    );
  });
});
