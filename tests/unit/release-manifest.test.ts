// The changed-paths manifest and purge list between two releases, and the release's file hashes.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffReleases, purgeList, urlOfReleaseFile } from '../../src/release/manifest.ts';
import { contentHash, type FileHashes, formatHashes, hashTree, parseHashes } from '../../src/release/tree.ts';
import { ReleaseManifestSchema } from '../../src/schemas/release.ts';

const H = (c: string) => c.repeat(64);
const temps: string[] = [];
afterAll(async () => {
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

describe('urlOfReleaseFile', () => {
  it.each([
    ['client/api/rtp/book-of-dead', 'slot', '/api/rtp/book-of-dead'],
    ['client/api/rtp/provider/play-n-go', 'provider', '/api/rtp/provider/play-n-go'],
    ['client/api/widget/rtp/book-of-dead', 'widget_data', '/api/widget/rtp/book-of-dead'],
    ['client/widget/rtp/book-of-dead.html', 'widget', '/widget/rtp/book-of-dead'],
    ['client/rtp/book-of-dead.html', 'game_page', '/rtp/book-of-dead'],
    ['client/index.html', 'page', '/'],
    ['client/about.html', 'page', '/about'],
    ['client/providers/play-n-go.html', 'page', '/providers/play-n-go'],
    ['client/api/openapi.json', 'page', '/api/openapi.json'],
    ['client/_astro/app.1a2b3c.js', 'asset', '/_astro/app.1a2b3c.js'],
    ['client/api/badge/rtp/book-of-dead.svg', 'badge', '/api/badge/rtp/book-of-dead.svg'],
    ['client/api/feeds/game/book-of-dead.atom', 'feed', '/api/feeds/game/book-of-dead.atom'],
    ['client/api/feeds/provider/play-n-go.atom', 'feed', '/api/feeds/provider/play-n-go.atom'],
    ['client/api/feeds/rtp.atom', 'dump', '/api/feeds/rtp.atom'],
    ['client/api/rtp/removed', 'dump', '/api/rtp/removed'],
    ['client/api/rtp/dump/registry.csv', 'dump', '/api/rtp/dump/registry.csv'],
    ['client/api/rtp/dump/changes/1.1.0.json', 'dump', '/api/rtp/dump/changes/1.1.0.json'],
    ['client/llms.txt', 'dump', '/llms.txt'],
    ['client/_headers', 'other', 'client/_headers'],
    ['client/404.html', 'other', 'client/404.html'],
  ])('%s is %s %s', (file, family, url) => {
    expect(urlOfReleaseFile(file)).toEqual({ family, path: url });
  });

  it('leaves server files to the dynamic routes', () => {
    expect(urlOfReleaseFile('server/registry-bundle.json')).toBeNull();
  });
});

describe('diffReleases', () => {
  const before: FileHashes = new Map([
    ['client/api/rtp/a', H('1')],
    ['client/api/rtp/b', H('2')],
    ['client/widget/rtp/a.html', H('3')],
    ['client/rtp/b.html', H('4')],
    ['client/api/rtp/provider/p', H('5')],
    ['client/_astro/x.1.js', H('6')],
    ['server/registry-bundle.json', H('7')],
  ]);
  const after: FileHashes = new Map([
    ['client/api/rtp/a', H('1')], // unchanged
    ['client/api/rtp/c', H('8')], // added
    ['client/widget/rtp/a.html', H('9')], // changed
    ['client/api/rtp/provider/p', H('a')], // changed
    ['client/_astro/x.2.js', H('b')], // added asset, x.1.js removed
    ['server/registry-bundle.json', H('c')],
  ]);

  it('lists changed, added and removed URL paths per family, sorted', () => {
    const m = ReleaseManifestSchema.parse(
      diffReleases({ name: '1.0.0-aaaaaaaaaaaa', dataVersion: '1.0.0', hashes: before }, { name: '1.1.0-bbbbbbbbbbbb', dataVersion: '1.1.0', hashes: after }),
    );
    expect(m.families.slot).toEqual({ changed: [], added: ['/api/rtp/c'], removed: ['/api/rtp/b'] });
    expect(m.families.widget).toEqual({ changed: ['/widget/rtp/a'], added: [], removed: [] });
    expect(m.families.game_page).toEqual({ changed: [], added: [], removed: ['/rtp/b'] });
    expect(m.families.provider.changed).toEqual(['/api/rtp/provider/p']);
    expect(m.families.asset).toEqual({ changed: [], added: ['/_astro/x.2.js'], removed: ['/_astro/x.1.js'] });
    expect(m.counts).toEqual({ changed: 2, added: 2, removed: 3 });
    expect(m.from).toBe('1.0.0-aaaaaaaaaaaa');
    expect(m.data_version_changed).toBe(true);
    expect(m.dynamic).toEqual(['/api/rtp/list', '/api/rtp/history', '/api/rtp/identify']);
  });

  it('the purge list names every changed path but fingerprinted assets, and the dynamic routes by prefix', () => {
    const m = diffReleases(
      { name: '1.0.0-aaaaaaaaaaaa', dataVersion: '1.0.0', hashes: before },
      { name: '1.1.0-bbbbbbbbbbbb', dataVersion: '1.1.0', hashes: after },
    );
    expect(purgeList(m)).toBe(
      ['/api/rtp/b', '/api/rtp/c', '/api/rtp/provider/p', '/rtp/b', '/widget/rtp/a', '/api/rtp/list*', '/api/rtp/history*', '/api/rtp/identify*'].join('\n') +
        '\n',
    );
  });

  it('an identical release changes nothing, not even the dynamic routes', () => {
    const m = diffReleases(
      { name: '1.0.0-aaaaaaaaaaaa', dataVersion: '1.0.0', hashes: before },
      { name: '1.0.0-aaaaaaaaaaaa', dataVersion: '1.0.0', hashes: before },
    );
    expect(m.counts).toEqual({ changed: 0, added: 0, removed: 0 });
    expect(m.dynamic).toEqual([]);
    expect(purgeList(m)).toBe('');
  });

  it('the first release adds everything', () => {
    const m = diffReleases(null, { name: '1.0.0-aaaaaaaaaaaa', dataVersion: '1.0.0', hashes: before });
    expect(m.from).toBeNull();
    expect(m.counts.added).toBe(6);
    expect(m.data_version_changed).toBe(true);
  });
});

describe('release file hashes', () => {
  it('hashes client files and the server content files, skips links, and round-trips files.sha256', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-tree-'));
    temps.push(dir);
    await mkdir(path.join(dir, 'client/api/rtp'), { recursive: true });
    await mkdir(path.join(dir, 'server/chunks'), { recursive: true });
    await writeFile(path.join(dir, 'client/api/rtp/a'), 'A');
    await writeFile(path.join(dir, 'client/index.html'), 'I');
    await writeFile(path.join(dir, 'server/registry-bundle.json'), '{}');
    await writeFile(path.join(dir, 'server/build-info.json'), '{"x":1}');
    await writeFile(path.join(dir, 'server/entry.mjs'), `// ${dir}`);
    await symlink('/etc/hostname', path.join(dir, 'client/api/rtp/link'));
    const hashes = await hashTree(dir);
    expect([...hashes.keys()]).toEqual(['client/api/rtp/a', 'client/index.html', 'server/build-info.json', 'server/registry-bundle.json']);
    expect(hashes.get('client/api/rtp/a')).toBe('559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd');
    const text = formatHashes(hashes);
    expect(text.split('\n')[0]).toBe('559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd  client/api/rtp/a');
    expect(parseHashes(text)).toEqual(hashes);
    expect(contentHash(parseHashes(text))).toBe(contentHash(hashes));
    hashes.set('client/index.html', H('0'));
    expect(contentHash(hashes)).not.toBe(contentHash(parseHashes(text)));
  });

  it('refuses a malformed files.sha256 line', () => {
    expect(() => parseHashes('abc  client/x\n')).toThrow('files.sha256 line 1 is not "<sha256>  <path>"');
  });
});
