// The dynamic routes for `astro dev`: built once from the data folder (RTP_DATA_DIR or data/), no build needed.
import { makeBundle } from '../registry/bundle.ts';
import { dataDir, loadRegistryOrThrow } from '../registry/load.ts';
import { createServices, type RegistryServices } from './service.ts';

let services: Promise<RegistryServices> | undefined;

/** The shared services of this process, loading the registry on first use. */
export function devServices(): Promise<RegistryServices> {
  services ??= loadRegistryOrThrow(dataDir()).then((registry) => createServices(makeBundle(registry)));
  return services;
}
