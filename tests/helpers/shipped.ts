// The bundle of the shipped registry (data/), made once per unit run by tests/helpers/unit-setup.ts.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { RegistryBundle } from '../../src/registry/bundle.ts';

/** A fresh copy of the shipped registry's bundle (the file is read each call, so a test may change its copy). */
export function shippedBundle(): RegistryBundle {
  return JSON.parse(readFileSync(inject('shippedBundleFile'), 'utf8')) as RegistryBundle;
}
