// Loading the dynamic routes from a bundle file through the compiling child process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices, loadServices, readBundleFile } from '../../src/list/service.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rtp-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadServices', () => {
  it('answers exactly like services built in-process', async () => {
    const bundle = fixtureBundle(150);
    const file = path.join(dir, 'bundle.json');
    writeFileSync(file, JSON.stringify(bundle));
    const loaded = await loadServices(file);
    const local = createServices(bundle);
    expect(loaded).toMatchObject({ dataVersion: '2.3.4', frozenAt: '2026-05-01T00:00:00Z', games: 150 });
    for (const query of ['', 'q=book&sort=relevance', 'provider=beta&has_variants=1&sort=recent&limit=7&offset=3', 'game_type=keno']) {
      expect(loaded.list(query).body.equals(local.list(query).body)).toBe(true);
    }
    expect(loaded.history('limit=2').body.equals(local.history('limit=2').body)).toBe(true);
  });

  it('reports a missing, malformed or mismatched bundle in one readable line', async () => {
    await expect(loadServices(path.join(dir, 'missing.json'))).rejects.toThrow(/Cannot read the registry bundle .*missing\.json: run `npm run build` first\./);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{');
    await expect(readBundleFile(bad)).rejects.toThrow(/is not valid JSON/);
    const wrong = path.join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ format: 2 }));
    await expect(loadServices(wrong)).rejects.toThrow(/does not match its schema \(format: /);
  });
});
