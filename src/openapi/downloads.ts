// The OpenAPI document's operations of the static downloads (src/emit/dumps.ts, feeds.ts, llms.ts):
// the bulk dumps, release diffs, tombstones, feeds and llms.txt, by operation id.
import { API_PREFIX, paths } from '../routes/paths.ts';
import type { OperationId } from '../routes/routes.ts';
import { SLOT_NOT_FOUND } from '../schemas/errors.ts';
import type { Json } from './components.ts';
import { getOperation, MOVED_RESPONSE } from './responses.ts';
import { jsonError, type OperationSpec, okHeaders, ref } from './shapes.ts';

/** A static download: written by the build, not rate limited, cached 1 hour, with an ETag; a 404 when its path has a parameter (it may name nothing). */
function download(summary: string, description: string, type: string, schema: Json, more: Json = {}): OperationSpec {
  return (policy, op) =>
    getOperation({
      summary,
      description: `${description} Written by the build for each data version; not rate limited; cached 1 hour.`,
      tags: ['bulk'],
      responses: {
        '200': { description: summary, headers: okHeaders(policy), content: { [type]: { schema } } },
        ...more,
        ...(op.path.includes('{')
          ? { '404': jsonError(`No such file (the answer of every unknown path under ${paths.slot('')} and ${API_PREFIX}).`, SLOT_NOT_FOUND) }
          : {}),
      },
    });
}

const TEXT = { type: 'string' };

/** The bulk downloads, release diffs, tombstones, feeds and llms.txt. */
export const DOWNLOAD_OPERATIONS = {
  getRegistryDump: download(
    'Every game record, as one JSON document',
    'All public game records with their sources, by slug, and the meta with the licence.',
    'application/json',
    ref('RegistryDump'),
  ),
  getRegistryNdjson: download(
    'Every game record, one JSON object per line',
    'The records of registry.json as newline-delimited JSON (each line a GameRecord).',
    'application/x-ndjson',
    TEXT,
  ),
  getRegistryCsv: download(
    'Every game, one CSV row each',
    'RFC 4180 with a header row, CRLF line ends and a UTF-8 byte order mark (so spreadsheets read it as UTF-8); lists (variants, badges, source URLs) are joined with `;`. The columns and their types are in datapackage.json.',
    'text/csv',
    TEXT,
  ),
  getDataPackage: download(
    'The Frictionless Data Package of the dumps',
    'Describes registry.csv, registry.json and registry.ndjson: version (the data version), licence (CC-BY-4.0 with the attribution), and per resource its path, media type, size in bytes, `sha256:` hash and table schema.',
    'application/json',
    ref('DataPackage'),
  ),
  getReleaseChanges: download(
    'What one frozen data version changed',
    'Games added (with their figures), removed (with their last figures) and changed (old and new value per field) by this version, from the history log; `previous_version` names the version before it. A mirror applies these in order instead of downloading everything again.',
    'application/json',
    ref('ReleaseChanges'),
  ),
  getRegistryFeed: download(
    'Atom feed of RTP changes',
    "RFC 4287: the newest 100 changes and additions of provider-stated RTP figures across the registry, newest first; each entry links the game's page and cites its source.",
    'application/atom+xml',
    TEXT,
  ),
  getProviderFeed: download(
    "Atom feed of one provider's RTP changes",
    "The newest 100 changes and additions of the provider's games.",
    'application/atom+xml',
    TEXT,
  ),
  getOperatorFeed: download(
    "Atom feed of one operator's observed builds",
    "One entry per date a source of the operator was pinned, summarising what its catalogue showed then: games observed, at the top build, at a lower build (mean and largest gap in points), above the stated RTP. An observation is what that casino's catalogue showed on the date its source was pinned, not a live reading.",
    'application/atom+xml',
    TEXT,
  ),
  getGameFeed: download(
    "Atom feed of one game's RTP changes",
    'Every recorded change of the game, newest first.',
    'application/atom+xml',
    TEXT,
    MOVED_RESPONSE,
  ),
  getLlmsTxt: download(
    "The registry's summary for assistants",
    'Markdown after the llms.txt proposal (https://llmstxt.org): what the registry is, its routes and bulk files, the licence and how to cite.',
    'text/plain',
    TEXT,
  ),
  getRemoved: download(
    'Games removed from the registry',
    'Tombstones: each game removed by a freeze and not added back, with the version that removed it and its last stated RTP, so a mirror can delete exactly those.',
    'application/json',
    ref('RemovedResponse'),
  ),
} satisfies Partial<Record<OperationId, OperationSpec>>;
