// Site-wide constants and texts shared by the layout, the pages and the string-rendered game pages.

import { paths } from '../routes/paths.ts';
import type { RegistryFile } from '../schemas/authoring.ts';
import { formatDate } from './format.ts';

export const SITE_NAME = 'RTP Registry';

/** How to cite the dataset: the registry's attribution line, its version and freeze date. */
export function citationText(meta: RegistryFile): string {
  return `${meta.attribution}, data version ${meta.data_version} (frozen ${formatDate(meta.frozen_at)}).`;
}

/** How to cite one game's record: name, provider, the dataset citation and the game page path. */
export function gameCitationText(meta: RegistryFile, name: string, providerDisplay: string, pageUrl: string): string {
  return `${name} (${providerDisplay}), ${meta.attribution}, data version ${meta.data_version}, ${pageUrl}`;
}

/** Path of a game's registry page. */
export function gamePath(slug: string): string {
  return paths.gamePage(slug);
}

/** Path of a provider's registry page. */
export function providerPath(key: string): string {
  return paths.providerPage(key);
}
