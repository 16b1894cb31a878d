// Writes registry files in their reviewable form: two-space JSON, schema key order, trailing newline.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Pretty JSON as stored under data/ (stable: key order is the caller's construction order). */
export function toDataJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes `text` to `file` via a temporary sibling and a rename, so readers never see half a file. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
