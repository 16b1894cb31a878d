// npm run data:synth -- --count N --out <dir> [--seed N] [--force]
// Writes a deterministic synthetic registry (invented games and studios, for scale work only) into <dir>.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FROZEN_FILE, HISTORY_FILE, REGISTRY_FILE } from '../src/registry/load.ts';
import { assertSynthValid, synthRegistry, writeSynthRegistry } from './lib/synth.ts';

const USAGE = 'usage: npm run data:synth -- --count N --out <dir> [--seed N] [--force]';
const MAX_COUNT = 1_000_000;

function fail(message: string, code = 1): never {
  console.error(`data:synth: ${message}\n${USAGE}`);
  process.exit(code);
}

let values: { count?: string | undefined; out?: string | undefined; seed?: string | undefined; force?: boolean | undefined };
try {
  ({ values } = parseArgs({
    options: { count: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' }, force: { type: 'boolean', default: false } },
  }));
} catch (err) {
  fail((err as Error).message, 2);
}
if (values.count === undefined || values.out === undefined) fail('--count and --out are required', 2);
if (!/^\d+$/.test(values.count) || Number(values.count) < 1 || Number(values.count) > MAX_COUNT)
  fail(`--count "${values.count}": must be a whole number from 1 to ${MAX_COUNT}`, 2);
if (!/^\d+$/.test(values.seed ?? '') || Number(values.seed) > 0xffffffff) fail(`--seed "${values.seed}": must be a whole number from 0 to 4294967295`, 2);

const out = path.resolve(values.out);
const shipped = path.resolve(import.meta.dirname, '../data');
if (out === shipped) fail(`refusing to write synthetic data over the shipped registry (${shipped})`);

let entries: string[] = [];
try {
  entries = await readdir(out);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
if (entries.length > 0) {
  if (!values.force) fail(`${values.out} is not empty (pass --force to replace the registry files in it)`);
  // Only the registry's own parts: anything else in the folder is left alone.
  for (const part of ['games', 'providers', REGISTRY_FILE, HISTORY_FILE, FROZEN_FILE]) await rm(path.join(out, part), { recursive: true, force: true });
}

const started = performance.now();
const count = Number(values.count);
const reg = synthRegistry({ count, seed: Number(values.seed) });
assertSynthValid(reg);
await writeSynthRegistry(out, reg);
const multi = reg.games.filter((g) => g.rtp_variants.length > 1).length;
console.log(
  `data:synth: ${count} games (${((100 * multi) / count).toFixed(1)}% multi-variant), ${reg.providers.length} providers, ` +
    `${reg.history.length} history entries, data_version ${reg.meta.data_version}, seed ${values.seed} -> ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
