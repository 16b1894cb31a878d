// docs/DATA.md is what `npm run data:report` writes from the shipped data: a change to data/ or its
// sources without the report fails here, naming the command.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('docs/DATA.md', () => {
  it('is up to date with data/ (else: npm run data:report)', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-report-'));
    try {
      const out = path.join(tmp, 'DATA.md');
      await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/data-report.ts'), '--out', out], { cwd: ROOT });
      const fresh = await readFile(out, 'utf8');
      expect(fresh, 'docs/DATA.md is stale: run npm run data:report').toBe(await readFile(path.join(ROOT, 'docs/DATA.md'), 'utf8'));
      // The headline counts what the registry loads: every game record and every provider.
      const registry = await loadRegistryOrThrow(path.join(ROOT, 'data'));
      const n = (x: number) => x.toLocaleString('en-US');
      expect(fresh).toContain(`\n**${n(makeBundle(registry).records.length)} games from ${n(registry.providers.length)} providers.**`);
      // Every label and where it went; every held-back game with its figures and lines.
      expect(fresh).toContain('| `Red Tiger/R7` | `red-tiger` |');
      expect(fresh).toContain('| `Others` | refused');
      expect(fresh).toContain("| Space Race | Play'n GO | — |");
      expect(fresh).toContain(
        '| Big Bucks Saloon | BGaming | `big-bucks-saloon` | sources of one rank state defaults 97.01 (sources/overlay-slots.jsonl:74) and 96.00 (sources/igt-slots.jsonl:103)',
      );
      expect(fresh).toContain("| Caishen's Gold | Pragmatic Play | `caishens-gold` |");
      // One game held back once, under both slugs it was published as.
      expect(fresh.match(/^\| Feathered Frenzy/gm)).toEqual(['| Feathered Frenzy']);
      expect(fresh).toContain('| Feathered Frenzy | Big Time Gaming | `feathered-frenzy`, `feathered-frenzy-slot` |');
      // Each label by the branch of the rule behind it.
      expect(fresh).toMatch(/^\| `verified` \| a provider page read here states it \| [\d,]+ \|$/m);
      // A studio whose games share one figure from one origin.
      expect(fresh).toMatch(/^\| Amatic Industries \| 96\.00% \| \d+ \| \d+ \| scrapes of slot review sites \|$/m);
      // The licensed casino's figures: a higher build that does not set the RTP, one that does, a lower one.
      expect(fresh).toContain('| [Mega Moolah](../data/games/microgaming/mega-moolah.json) | Microgaming | 93.42% | 88.12% |');
      expect(fresh).toContain("| [Mystery Joker](../data/games/playngo/mystery-joker.json) | Play'n GO | 96.98% | 96.98% |");
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
