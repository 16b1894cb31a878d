// /llms.txt (the llms.txt proposal, https://llmstxt.org): what the registry is, its routes, its
// licence and how to cite it, for assistants and crawlers that read a site's summary first.
//
//   links to {site}/api/rtp/list, /api/rtp/{slug}, /api/rtp/provider/{provider}, /api/rtp/operator/{operator}, /api/rtp/history,
//   /api/openapi.json, /api/rtp/dump/*, /api/rtp/removed, /rtp/{slug}, /widget/rtp/{slug}
import type { RegistryBundle } from '../registry/bundle.ts';
import { citation } from '../registry/shape.ts';
import { keyedTemplate, paths } from '../routes/paths.ts';
import { REGISTRY_NAME } from '../routes/urls.ts';
import { PUBLIC_RATE_LIMIT } from '../schemas/rate-limit.ts';

/** The text of /llms.txt for the bundle, with absolute links under `site`. */
export function renderLlmsTxt(bundle: RegistryBundle, site: string): string {
  const { meta, records, providers, history } = bundle;
  const example = records.find((r) => r.canonical_slug === 'book-of-dead') ?? records[0];
  const slug = example?.canonical_slug ?? '{slug}';
  const provider = example?.provider ?? '{provider}';
  const versions = [...new Set(history.map((e) => e.data_version))];
  const latest = versions.at(-1);
  const url = (p: string) => `${site}${p}`;
  const lines = [
    `# ${REGISTRY_NAME}`,
    '',
    `> An open registry of the provider-stated RTP (return to player) of ${records.length.toLocaleString('en-US')} casino games from ${providers.length} providers: each game's stated RTP, every known RTP variant (operator rungs, bonus buys, ante bets) with its kind, the provider, and the source to cite. Data version ${meta.data_version}, frozen ${meta.frozen_at}. Licence: CC BY 4.0.`,
    '',
    "The figures are what providers state (a theoretical return over very many rounds), not measured results. Every record lists the sources that state its figures in precedence order; when sources disagree, the record carries the badge `sources_disagree` and lists each. `snapshot_id` pins the exact facts cited. A casino may run any of a game's RTP variants: to tell which build a figure belongs to, compare it with `rtp_variants`.",
    '',
    '## API (JSON, no key, CORS *)',
    '',
    `- [Search, filter, sort and page](${url(paths.list)}?q=book&limit=5): \`GET ${paths.list}\` with \`q\`, \`provider\`, \`game_type\`, \`has_variants=1\`, \`badge\`, \`confidence\`, \`rtp_min\`, \`rtp_max\`, \`volatility\`, \`max_win_min\`, \`released_after\`, \`released_before\`, \`sort\`, \`limit\` (1-200), \`offset\`; \`format=csv\` for CSV; ${PUBLIC_RATE_LIMIT.toLocaleString('en-US')} requests per day per IP.`,
    `- [Several games at once](${url(paths.list)}?slugs=${slug}): \`GET ${paths.list}?slugs=a,b,c\`, up to 200, in the order given.`,
    `- [One game](${url(paths.slot(slug))}): \`GET ${keyedTemplate('slot')}\`, the record with provider meta, house edge, history, embed code and a citation line.`,
    `- [One provider](${url(paths.provider(provider))}): \`GET ${keyedTemplate('provider')}\`.`,
    ...bundle.operators.map(
      (o) =>
        `- [Which builds ${o.display} runs](${url(paths.operator(o.operator))}): \`GET ${keyedTemplate('operator')}\`, the build of each game that licensed casino's own catalogue showed on the date its source was pinned (${o.sources.map((s) => s.pinned_at.slice(0, 10)).join(', ')}), not a live reading; each game record's \`operators\` holds the same.`,
    ),
    `- [RTP changes](${url(paths.history)}): \`GET ${paths.history}\`, newest first (\`slug\`, \`provider\`, \`since\`).`,
    `- [OpenAPI 3.1 document](${url(paths.openapi)}): every route, parameter and field.`,
    '',
    '## Bulk data',
    '',
    `- [All records, JSON](${url(paths.dump.json)}), [CSV](${url(paths.dump.csv)}), [NDJSON](${url(paths.dump.ndjson)}): every game with its sources.`,
    `- [Data Package](${url(paths.dump.dataPackage)}): Frictionless descriptor with each file's size, sha256 and table schema.`,
    ...(latest === undefined
      ? []
      : [
          `- [Changes of data version ${latest}](${url(paths.dump.changes(latest))}): games added, removed and changed by a frozen version (one file per version: ${versions.join(', ')}).`,
        ]),
    `- [Removed games](${url(paths.removed)}): tombstones with the version that removed each.`,
    '',
    '## Pages',
    '',
    `- [A game's page](${url(paths.gamePage(slug))}): \`${keyedTemplate('page')}\`, the figures with their sources.`,
    `- [Embeddable widget](${url(paths.widget(slug))}): \`${keyedTemplate('widget')}\` for an iframe.`,
    '',
    '## Licence and citation',
    '',
    `The data is licensed under CC BY 4.0 (${meta.license_url}). Attribution: "${meta.attribution}". Cite a figure with its source and the registry's page for the game, for example:`,
    '',
    ...(example === undefined ? [] : [`> ${citation(example, site, meta.data_version)}`]),
    '',
  ];
  return lines.join('\n');
}
