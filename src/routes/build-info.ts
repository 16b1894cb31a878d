// The one reader of a build's record of itself (dist/server/build-info.json): read, parsed and checked against BuildInfoSchema.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_INFO_FILE, type BuildInfo, BuildInfoSchema } from '../schemas/dist.ts';

/** Why a build record cannot be used: no file, a file that cannot be read, or one that is not a valid record. */
export type BuildInfoErrorCode = 'build_info_missing' | 'build_info_unreadable' | 'build_info_invalid';

/** A build record that cannot be used; `code` is stable, the message names the file and the fix. */
export class BuildInfoError extends Error {
  readonly code: BuildInfoErrorCode;
  readonly file: string;
  constructor(code: BuildInfoErrorCode, file: string, why: string) {
    super(`${file} ${why}: rebuild with \`npm run build\` (or make a new release).`);
    this.name = 'BuildInfoError';
    this.code = code;
    this.file = file;
  }
}

/**
 * The build record of the build whose server folder is `serverDir` (dist/server, or a release's
 * server/). Rejects with a BuildInfoError when it is missing, unreadable, not JSON, or not the
 * record BuildInfoSchema describes (every wrong field named at once).
 */
export async function readBuildInfo(serverDir: string): Promise<BuildInfo> {
  const file = path.join(serverDir, BUILD_INFO_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new BuildInfoError('build_info_missing', file, 'is missing');
    throw new BuildInfoError('build_info_unreadable', file, `cannot be read (${code ?? (err as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BuildInfoError('build_info_invalid', file, 'is not valid JSON');
  }
  const parsed = BuildInfoSchema.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.length === 0 ? '(record)' : i.path.join('.')}: ${i.message}`);
    throw new BuildInfoError('build_info_invalid', file, `is not a valid build record (${fields.join('; ')})`);
  }
  return parsed.data;
}
