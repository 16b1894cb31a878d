// The list bundle the build writes (dist/server/list-bundle.bin): search index, loading, refusals.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { searchDocuments, sortedRecords } from '../../src/emit/list/compile.ts';
import { listBundleBytes, listBundleProblem, writeListBundle } from '../../src/emit/list/list-bundle.ts';
import { buildSearchIndex } from '../../src/emit/list/search-index.ts';
import { compileListBundleInWorker } from '../../src/emit/workers.ts';
import { PostingSearch } from '../../src/list/search.ts';
import { loadServices } from '../../src/list/service.ts';
import { BUNDLE_FILE, LIST_BUNDLE_FILE } from '../../src/schemas/dist.ts';
import { decodeListBundle, LIST_BUNDLE_FORMAT } from '../../src/schemas/list-bundle-file.ts';
import { queryTerms } from '../../src/schemas/text.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';
import { referenceIndex, referenceSearch } from '../helpers/minisearch-reference.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'rtp-list-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bundle = fixtureBundle(400);
const bundleText = JSON.stringify(bundle);
const info = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 1,
    site: 'http://127.0.0.1:4321',
    data_version: bundle.meta.data_version,
    frozen_at: bundle.meta.frozen_at,
    games: bundle.records.length,
    providers: bundle.providers.length,
    ...over,
  });

/** A server folder as the build leaves it: registry bundle, build-info and list bundle. */
async function serverDir(name: string): Promise<string> {
  const dir = path.join(root, name);
  rmSync(dir, { recursive: true, force: true });
  (await import('node:fs')).mkdirSync(dir, { recursive: true });
  await writeFile(path.join(dir, BUNDLE_FILE), bundleText);
  await writeFile(path.join(dir, 'build-info.json'), info());
  await writeListBundle(dir, listBundleBytes(bundle, Buffer.from(bundleText)));
  return dir;
}

const QUERIES = [
  '',
  'q=book',
  'q=boo&sort=relevance',
  'q=o&sort=relevance&limit=200',
  'q=bonanxa',
  'q=gold+fortune&sort=rtp_desc',
  'provider=beta&has_variants=1&sort=recent&limit=7&offset=3',
  'game_type=keno',
  'q=zzzz',
];

describe('search index', () => {
  const docs = searchDocuments(sortedRecords(bundle));

  it('read back from the list bundle file, answers exactly like the index the build made', () => {
    const built = buildSearchIndex(docs);
    const decoded = decodeListBundle(listBundleBytes(bundle, Buffer.from(bundleText))).searchIndex;
    expect(decoded.head).toBe(built.head);
    const before = new PostingSearch(built);
    const after = new PostingSearch(decoded);
    let matched = 0;
    for (const q of ['book', 'boo', 'b', 'o', 'gold', 'bonanxa', 'fortune gold', 'dead book', 'x', 'beta', 'zzzz', 'bookofdead']) {
      const a = before.match(queryTerms(q));
      const b = after.match(queryTerms(q));
      expect([...b.ids], q).toEqual([...a.ids]);
      expect([...b.byRelevance], q).toEqual([...a.byRelevance]);
      matched += a.ids.length;
    }
    expect(matched).toBeGreaterThan(100);
  });

  it('matches words as typed exactly like MiniSearch over the same documents: same records, same relevance order', () => {
    const postings = new PostingSearch(buildSearchIndex(docs));
    const reference = referenceIndex(docs);
    const words = [...new Set(bundle.records.flatMap((r) => queryTerms(`${r.canonical_name} ${r.provider}`)))].sort();
    const queries = ['b', 'bo', 'o', 'bonanxa', 'bonanzas', 'gold fortune', 'dead book', 'zzzz', 'beta o', 'x 1'];
    for (let i = 0; i < words.length; i += 3)
      queries.push(words[i]!, `${words[i]!.slice(0, -1)}q`, `${words[i]} ${words[(i * 7) % words.length]!.slice(0, 2)}`);
    let matched = 0;
    for (const q of queries) {
      const terms = queryTerms(q);
      const expected = referenceSearch(reference, terms);
      const actual = postings.matchAsTyped(terms);
      expect([...actual.ids], q).toEqual([...expected.ids]);
      expect([...actual.byRelevance], q).toEqual([...expected.byRelevance]);
      matched += expected.ids.length;
    }
    expect(matched).toBeGreaterThan(1000);
  });
});

describe('list bundle', () => {
  it('is deterministic: the same bundle gives the same bytes', () => {
    const bytes = Buffer.from(bundleText);
    expect(Buffer.from(listBundleBytes(bundle, bytes)).equals(listBundleBytes(bundle, bytes))).toBe(true);
  });

  it('compiles to the same bytes in a worker thread (the build) as in this thread', async () => {
    const inWorker = await compileListBundleInWorker(bundleText, new URL('../../src/emit/list/worker.ts', import.meta.url));
    expect(Buffer.from(inWorker).equals(listBundleBytes(bundle, Buffer.from(bundleText)))).toBe(true);
  });

  it('loads services that answer byte for byte like services compiled in-process', async () => {
    const dir = await serverDir('ok');
    const loaded = await loadServices(dir);
    const local = servicesFor(bundle);
    expect(loaded).toMatchObject({ dataVersion: bundle.meta.data_version, frozenAt: bundle.meta.frozen_at, games: 400 });
    for (const query of QUERIES) expect(loaded.list(query).body.equals(local.list(query).body), query).toBe(true);
    expect(loaded.history('limit=3').body.equals(local.history('limit=3').body)).toBe(true);
  });

  it('is refused, naming `npm run build`, when missing or not made for this build', async () => {
    const missing = await serverDir('missing');
    rmSync(path.join(missing, LIST_BUNDLE_FILE));
    await expect(loadServices(missing)).rejects.toThrow(/list-bundle\.bin is missing: rebuild with `npm run build`\./);

    const otherVersion = await serverDir('version');
    await writeFile(path.join(otherVersion, 'build-info.json'), info({ data_version: '9.9.9' }));
    await expect(loadServices(otherVersion)).rejects.toThrow(
      /does not match .*build-info\.json \(data 2\.3\.4 .*build-info: data 9\.9\.9.*: rebuild with `npm run build`\./,
    );

    const noRecord = await serverDir('no-record');
    rmSync(path.join(noRecord, 'build-info.json'));
    await expect(loadServices(noRecord)).rejects.toThrow(
      `${path.join(noRecord, 'build-info.json')} is missing: rebuild with \`npm run build\` (or make a new release).`,
    );

    const otherBundle = await serverDir('bundle');
    await writeFile(path.join(otherBundle, BUNDLE_FILE), `${bundleText} `);
    await expect(loadServices(otherBundle)).rejects.toThrow(/was compiled from another registry-bundle\.json .*: rebuild with `npm run build`\./);

    const junk = await serverDir('junk');
    writeFileSync(path.join(junk, LIST_BUNDLE_FILE), 'nope');
    await expect(loadServices(junk)).rejects.toThrow(/cannot be read \(not a list bundle\): rebuild with `npm run build`\./);

    const empty = path.join(root, 'empty');
    (await import('node:fs')).mkdirSync(empty, { recursive: true });
    await expect(loadServices(empty)).rejects.toThrow(/list-bundle\.bin is missing: rebuild with `npm run build`\./);
  });

  it('is checked against the registry bundle bytes (dist-check)', async () => {
    const dir = await serverDir('check');
    const list = await readFile(path.join(dir, LIST_BUNDLE_FILE));
    expect(listBundleProblem(list, Buffer.from(bundleText))).toBeNull();
    expect(listBundleProblem(list, Buffer.from(bundleText.replace('"2.3.4"', '"2.3.5"')))).toBe('is stale: it was compiled from another registry-bundle.json');
    expect(listBundleProblem(Buffer.from('nope'), Buffer.from(bundleText))).toBe('cannot be read (not a list bundle)');
    const damaged = Buffer.from(list);
    const at = damaged.lastIndexOf('"canonical_slug":"');
    damaged[at + 20] = damaged[at + 20] === 0x7a ? 0x79 : 0x7a;
    expect(listBundleProblem(damaged, Buffer.from(bundleText))).toBe('is damaged: its records do not match their digest');
  });

  it('refuses a list bundle of another file format', async () => {
    const dir = await serverDir('format');
    const file = path.join(dir, LIST_BUNDLE_FILE);
    const bytes = await readFile(file);
    const at = bytes.indexOf(`"format":"${LIST_BUNDLE_FORMAT}"`);
    expect(at).toBeGreaterThan(0);
    bytes.write(`"format":"${'0'.repeat(16)}"`, at, 'latin1');
    writeFileSync(file, bytes);
    await expect(loadServices(dir)).rejects.toThrow(
      `cannot be read (list bundle format ${'0'.repeat(16)}, expected ${LIST_BUNDLE_FORMAT}): rebuild with \`npm run build\`.`,
    );
  });
});
