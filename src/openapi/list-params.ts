// The query parameters of GET /api/rtp/list in the OpenAPI document: the list schema's own
// (src/schemas/list.ts), the filters, the answer format, the batch lookup and the delta sync.

import { paths } from '../routes/paths.ts';
import { VOLATILITIES } from '../schemas/authoring.ts';
import { BATCH_MAX } from '../schemas/batch.ts';
import { LIST_FORMATS, ListQuerySchema, MAX_WIN_PARAM_MAX, NAMES_PARAM_MAX, YEAR_PARAM_MAX, YEAR_PARAM_MIN } from '../schemas/list.ts';
import { INCLUDE_ALL, LIST_INCLUDES, LIST_ITEM_FIELDS, RECORD_FIELDS } from '../schemas/list-item.ts';
import { type Json, paramSchema, queryParam } from './components.ts';

/** The list route's parameters, in the order its 400 answers report them. */
export function listParameters(): Json[] {
  const list = ListQuerySchema.shape;
  return [
    queryParam(
      'q',
      'Free text over name, slug and provider (key, display name, group and every label the sources write for it): prefix matching, case and accent insensitive, a little typo tolerance for longer words. At most 10 words.',
      paramSchema(list.q),
      'book',
    ),
    queryParam('provider', 'Provider key.', paramSchema(list.provider), 'playngo'),
    queryParam('game_type', 'Game type.', paramSchema(list.game_type)),
    queryParam('has_variants', 'When `1`, only games with more than one known RTP variant.', { type: 'string', enum: ['1'] }),
    queryParam(
      'badge',
      'Only games carrying this badge (`verified_rtp`, `variants_tracked`, `sources_disagree`).',
      paramSchema(list.badge),
      'sources_disagree',
    ),
    queryParam(
      'confidence',
      "Only games whose stated RTP has this much evidence behind it: `verified`, `corroborated` or `single_source` (the record's `confidence`). Counted in `facets.confidence`.",
      paramSchema(list.confidence),
      'verified',
    ),
    queryParam('sort', 'Order of results; `relevance` needs `q` (otherwise `name`). Ties are broken by name, then slug.', {
      ...paramSchema(list.sort),
      default: 'name',
    }),
    queryParam('limit', 'Page size.', { ...paramSchema(list.limit), default: 50 }),
    queryParam('offset', 'Records to skip.', { ...paramSchema(list.offset), default: 0 }),
    queryParam(
      'rtp_min',
      'Only games whose stated RTP is at least this (percent, inclusive; at most two decimals).',
      { type: 'number', minimum: 0, maximum: 100 },
      96,
    ),
    queryParam(
      'rtp_max',
      'Only games whose stated RTP is at most this (percent, inclusive; at most two decimals; not below `rtp_min`).',
      { type: 'number', minimum: 0, maximum: 100 },
      97.5,
    ),
    queryParam(
      'volatility',
      `Only games of these volatility levels, separated by commas (any of them matches): ${VOLATILITIES.join(', ')}. Games of unknown volatility never match.`,
      { type: 'string', pattern: `^(${VOLATILITIES.join('|')})(,(${VOLATILITIES.join('|')}))*$` },
      'high,very-high',
    ),
    queryParam(
      'max_win_min',
      'Only games whose max win (a multiple of the stake) is at least this (inclusive; at most two decimals). Games with no known max win never match.',
      { type: 'number', minimum: 0, maximum: MAX_WIN_PARAM_MAX },
      5000,
    ),
    queryParam(
      'released_after',
      'Only games released in this year or later. Games with no known year never match.',
      { type: 'integer', minimum: YEAR_PARAM_MIN, maximum: YEAR_PARAM_MAX },
      2020,
    ),
    queryParam(
      'released_before',
      'Only games released in this year or earlier (not before `released_after`). Games with no known year never match.',
      { type: 'integer', minimum: YEAR_PARAM_MIN, maximum: YEAR_PARAM_MAX },
      2024,
    ),
    queryParam(
      'operator',
      "Only games this licensed casino's catalogue listed when its source was pinned (an operator key; an unknown key matches nothing). Not a live reading.",
      { type: 'string', maxLength: 200, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      '711nl',
    ),
    queryParam(
      'operator_build',
      'Only games observed at this build: `top` (the stated RTP), `lower`, `higher`; by `operator` when given, else by any operator.',
      { type: 'string', enum: ['top', 'lower', 'higher'] },
      'lower',
    ),
    queryParam(
      'include',
      `Adds parts of the full record to each item, separated by commas: ${LIST_INCLUDES.join(', ')}, or \`${INCLUDE_ALL}\` for every one (the full GameRecord, the items before 2.0.0). The default item is ${LIST_ITEM_FIELDS.map((f) => `\`${f}\``).join(', ')}. Unknown names are a 400 naming them; not with \`fields\`. No effect on \`format=csv\` (its rows always have the CSV columns).`,
      {
        type: 'string',
        maxLength: NAMES_PARAM_MAX,
        pattern: `^(${[...LIST_INCLUDES, INCLUDE_ALL].join('|')})(,(${[...LIST_INCLUDES, INCLUDE_ALL].join('|')}))*$`,
      },
      'sources,variants',
    ),
    queryParam(
      'fields',
      `Only these fields in each item (in the record's order), separated by commas: any of ${RECORD_FIELDS.join(', ')}. Unknown names are a 400 naming them. With \`format=csv\`, the CSV columns to return instead (the columns of \`${paths.dump.csv}\`).`,
      { type: 'string', maxLength: NAMES_PARAM_MAX },
      'canonical_slug,stated_rtp',
    ),
    queryParam(
      'format',
      `\`csv\` for the same records as RFC 4180 CSV (UTF-8, a header row, the columns of \`${paths.dump.csv}\`, one row per item of the page; no meta or facets), with \`slugs\` and \`updated_since\` too; for a spreadsheet: \`=IMPORTDATA("{base}${paths.list}?provider=playngo&limit=200&format=csv")\`. Counted as one request.`,
      { type: 'string', enum: [...LIST_FORMATS], default: 'json' },
      'csv',
    ),
    queryParam(
      'slugs',
      `Batch lookup: up to ${BATCH_MAX} canonical slugs separated by commas. Answers those records in the order given (repeats dropped), unknown slugs named in \`meta.missing\`; a slug merged into the record of the same game is answered with that record and named in \`meta.moved\` (a BatchResponse). Cannot be combined with the other parameters (a 400 that says so). Its query string may be up to 14,336 bytes (2,048 for other queries).`,
      { type: 'string' },
      'book-of-dead,gates-of-olympus',
    ),
    queryParam(
      'updated_since',
      `Delta sync: only the records whose published figures changed after this ISO 8601 date or timestamp (a SyncResponse: each record with \`updated_at\`, oldest change first, paged by \`limit\` and \`offset\`). With \`GET ${paths.removed}\` a mirror stays exact. Takes no other parameter but \`limit\` and \`offset\`.`,
      { type: 'string' },
      '2026-11-22T00:00:00Z',
    ),
  ];
}
