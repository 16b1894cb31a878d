// Global setup of the unit project: makes the bundle of the shipped registry (data/) once per run,
// the expensive fixture many unit files share, into a temporary JSON file that shippedBundle()
// (tests/helpers/shipped.ts) reads, instead of every file loading and checking data/ again.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shipped registry's bundle as JSON, written once per run. */
    shippedBundleFile: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rtp-unit-'));
  const file = path.join(dir, 'registry-bundle.json');
  writeFileSync(file, JSON.stringify(makeBundle(await loadRegistryOrThrow(path.resolve(import.meta.dirname, '../../data')))));
  project.provide('shippedBundleFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
