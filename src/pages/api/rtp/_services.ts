// The dynamic routes for `astro dev`: the registry the pages load (src/site/registry.ts), compiled
// into its list bundle in process by the build's compiler and loaded like the server loads it.
import { listBundleOf } from '../../../emit/emit.ts';
import { openServices, type RegistryServices } from '../../../list/service.ts';
import { siteData } from '../../../site/registry.ts';

let services: Promise<RegistryServices> | undefined;

/** The shared services of this process, compiled on first use. */
export function devServices(): Promise<RegistryServices> {
  services ??= siteData().then(({ bundle }) => openServices(listBundleOf(bundle)));
  return services;
}
