// The one reader of build-info.json: a valid record comes back parsed; a missing, non-JSON or wrong
// record is refused with a stable code and a message naming the file and the fix.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildInfoError, readBuildInfo } from '../../src/routes/build-info.ts';

const RECORD = { format: 1, site: 'https://rtp.example', data_version: '1.2.0', frozen_at: '2026-11-21T00:00:00Z', games: 6, providers: 3 };
let dir: string;
const file = () => path.join(dir, 'build-info.json');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-build-info-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The error readBuildInfo rejects with for `text` written as the record (null: no file). */
async function refusal(text: string | null): Promise<BuildInfoError> {
  await rm(file(), { force: true });
  if (text !== null) await writeFile(file(), text);
  const err: unknown = await readBuildInfo(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BuildInfoError);
  return err as BuildInfoError;
}

describe('readBuildInfo', () => {
  it('returns the record the build wrote', async () => {
    await writeFile(file(), JSON.stringify(RECORD));
    expect(await readBuildInfo(dir)).toEqual(RECORD);
  });

  it('refuses a missing record, naming the file and `npm run build`', async () => {
    const err = await refusal(null);
    expect(err.code).toBe('build_info_missing');
    expect(err.message).toBe(`${file()} is missing: rebuild with \`npm run build\` (or make a new release).`);
  });

  it('refuses text that is not JSON', async () => {
    const err = await refusal('{"format":1,');
    expect(err.code).toBe('build_info_invalid');
    expect(err.message).toBe(`${file()} is not valid JSON: rebuild with \`npm run build\` (or make a new release).`);
  });

  it('refuses a record of the wrong shape, naming every wrong field at once', async () => {
    const err = await refusal(JSON.stringify({ ...RECORD, site: 7, games: -1, extra: true }));
    expect(err.code).toBe('build_info_invalid');
    expect(err.message).toBe(
      `${file()} is not a valid build record (site: Invalid input: expected string, received number; games: Too small: expected number to be >=0; (record): Unrecognized key: "extra"): rebuild with \`npm run build\` (or make a new release).`,
    );
  });
});
