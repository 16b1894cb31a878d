// The list and history routes over a registry bundle held in memory, loaded the way the server
// loads them: the build's compiler makes the list bundle's bytes, the list engine opens them.
// For the command-line tools, the benchmark and the tests; the server reads dist/server instead.
import { listBundleOf } from '../../src/emit/emit.ts';
import { openServices, type RegistryServices, type ServiceOptions } from '../../src/list/service.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';

/** The services over `bundle`, as if built to dist/ and loaded by the server. */
export function servicesFor(bundle: RegistryBundle, options: ServiceOptions = {}): RegistryServices {
  return openServices(listBundleOf(bundle), options);
}
