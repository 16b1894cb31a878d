// The registry as a citable dataset: the schema.org `Dataset` JSON-LD of the home and about pages,
// and the root CITATION.cff (Citation File Format 1.2.0), both from registry.json's meta.
import type { DataDownload, Dataset, WithContext } from 'schema-dts';
import { paths } from '../routes/paths.ts';
import type { RegistryFile } from '../schemas/authoring.ts';
import { SITE_NAME } from './site.ts';

/** What the dataset is, in one sentence (JSON-LD `description`, CITATION.cff `abstract`). */
export const DATASET_DESCRIPTION =
  'Provider-stated RTP (return to player) of casino games, with the lower RTP builds casinos may run, the provider, and the sources that state each figure.';

/** The three record dumps as schema.org `DataDownload`s: media type and absolute URL. */
export function datasetDistribution(site: string): DataDownload[] {
  return [
    { '@type': 'DataDownload', name: 'registry.csv', encodingFormat: 'text/csv', contentUrl: `${site}${paths.dump.csv}` },
    { '@type': 'DataDownload', name: 'registry.json', encodingFormat: 'application/json', contentUrl: `${site}${paths.dump.json}` },
    { '@type': 'DataDownload', name: 'registry.ndjson', encodingFormat: 'application/x-ndjson', contentUrl: `${site}${paths.dump.ndjson}` },
  ];
}

/**
 * The registry's schema.org `Dataset`: name, version (= `data_version`), licence, the three dumps,
 * `dateModified` (the freeze), creator. Typed with schema-dts, so a property or type outside the
 * schema.org vocabulary does not compile.
 */
export function datasetJsonLd(meta: RegistryFile, site: string, games: number): WithContext<Dataset> {
  const creator = { '@type': 'Organization', name: SITE_NAME, url: `${site}/` } as const;
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: SITE_NAME,
    description: `${DATASET_DESCRIPTION} ${games} games, data version ${meta.data_version}.`,
    url: `${site}/`,
    version: meta.data_version,
    dateModified: meta.frozen_at,
    license: meta.license_url,
    isAccessibleForFree: true,
    creator,
    publisher: creator,
    creditText: meta.attribution,
    keywords: ['RTP', 'return to player', 'casino games', 'slots', 'open data'],
    distribution: datasetDistribution(site),
  };
}

/** A `<script type="application/ld+json">` element; `<` is escaped so no text can close the element. */
export function jsonLdScript(doc: object): string {
  return `<script type="application/ld+json">${JSON.stringify(doc).replaceAll('<', '\\u003c')}</script>`;
}

/** YAML double-quoted scalar (JSON strings are valid YAML 1.2 double-quoted scalars). */
const q = (s: string) => JSON.stringify(s);

/** The root CITATION.cff for the registry's data (`npm run citation` writes it; a unit test keeps it current). */
export function citationCff(meta: RegistryFile): string {
  return [
    '# How to cite the registry (Citation File Format 1.2.0). Written by `npm run citation` from data/registry.json.',
    'cff-version: 1.2.0',
    `message: ${q('If you use this data, please cite it as below, with the data version you used and the source_url of each record you quote.')}`,
    'type: dataset',
    `title: ${q(`${SITE_NAME}: provider-stated RTP of casino games`)}`,
    `abstract: ${q(DATASET_DESCRIPTION)}`,
    'authors:',
    `  - name: ${q(SITE_NAME)}`,
    `version: ${q(meta.data_version)}`,
    `date-released: ${q(meta.frozen_at.slice(0, 10))}`,
    `license: ${q(meta.license)}`,
    'keywords:',
    ...['RTP', 'return to player', 'casino games', 'open data'].map((k) => `  - ${q(k)}`),
    '',
  ].join('\n');
}
