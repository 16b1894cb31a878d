// `npm run dist:check`: checks a built dist (RTP_OUT_DIR or dist/) against its data (RTP_DATA_DIR or data/);
// prints every problem with its file and the fix command, exits 1 once if there is any.
import path from 'node:path';
import { dataDir } from '../src/registry/load.ts';
import { formatDistProblems } from './rules.ts';
import { checkDist } from './run.ts';

/** The command that rebuilds this dist from this data (with the environment that chose them). */
function buildCommand(env: NodeJS.ProcessEnv): string {
  const vars = (['RTP_DATA_DIR', 'RTP_OUT_DIR', 'RTP_SITE'] as const).filter((k) => env[k]).map((k) => `${k}=${env[k]}`);
  return [...vars, 'npm run build'].join(' ');
}

async function main(): Promise<number> {
  const env = process.env;
  const outDir = path.resolve(env.RTP_OUT_DIR ?? 'dist');
  const data = dataDir(env);
  const result = await checkDist({ outDir, dataDir: data, env });
  if (result.dataProblems !== undefined) {
    console.error(
      `dist-check: the data in ${data} is invalid, so no dist can match it:\n${result.dataProblems}\nFix the files above, run \`npm run data:check\`, then run \`${buildCommand(env)}\`.`,
    );
    return 1;
  }
  if (result.problems.length > 0) {
    console.error(
      formatDistProblems(
        result.problems.map((p) => ({ ...p, file: path.join(outDir, p.file) })),
        `run \`${buildCommand(env)}\``,
      ),
    );
    console.error(`dist-check: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${outDir} (data ${data}).`);
    return 1;
  }
  console.log(
    `dist-check: ok: ${outDir} matches ${data} (${result.games} games, ${result.providers} providers, ${result.files} files, _headers, registry bundle).`,
  );
  return 0;
}

process.exitCode = await main();
