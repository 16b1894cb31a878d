// npm run data:check: validates the registry folder (RTP_DATA_DIR or data/), lists every problem, and fails once.
import path from 'node:path';
import { dataDir, loadRegistry } from '../src/registry/load.ts';
import { formatProblems } from '../src/registry/problems.ts';

const dir = dataDir();
const shown = path.relative(process.cwd(), dir) || '.';
const result = await loadRegistry(dir);

if (!result.ok) {
  const files = new Set(result.problems.map((p) => p.file.replace(/:\d+$/, '')));
  console.error(formatProblems(result.problems));
  console.error(
    `data:check: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} under ${shown}`,
  );
  process.exit(1);
}

const { meta, games, providers, history } = result.registry;
console.log(
  `data:check: OK: ${games.length} games, ${providers.length} providers, data_version ${meta.data_version} (frozen_at ${meta.frozen_at}), ` +
    `${history.length} history entr${history.length === 1 ? 'y' : 'ies'} in ${shown}`,
);
