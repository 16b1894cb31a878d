// Descriptions of every field of every public response, applied to the generated OpenAPI schemas.
// A unit test fails when a schema gains a field that is not described here.
//
// Keys are component names; paths are property names, with `a.b` for a property of an inline object
// and `a[].b` for a property of the inline objects in array `a`.

import { LIST_ITEM_FIELDS } from '../schemas/list-item.ts';
import { DUMP_FIELD_DESCRIPTIONS } from './fields-dump.ts';
import { OPERATOR_FIELD_DESCRIPTIONS } from './fields-operator.ts';

const GAME_RECORD: Record<string, string> = {
  canonical_slug: 'Unique slug of the game; the `{slug}` of the single-slot and widget routes.',
  canonical_name: 'Display name of the game.',
  provider: 'Provider key; the `{provider}` of the provider route.',
  provider_display: "Provider's display name.",
  stated_rtp: 'The RTP the provider declares for its highest default build, as a percentage. A theoretical figure, not a measured one.',
  rtp_variants: 'Every known RTP build as a percentage, ascending; includes the stated RTP.',
  rtp_min: 'Lowest known variant.',
  rtp_max: 'Highest known variant.',
  variants_count: 'Number of known variants.',
  volatility: "Provider's volatility grade, or null where the provider publishes none (or only an in-between grade).",
  max_win: 'Highest published win as a multiple of the stake, or null where no cap is published.',
  release_year: 'Four-digit release year, or null where unknown.',
  game_type: 'Kind of game.',
  last_verified:
    "ISO 8601 timestamp of the last check of the figures against the source that states them: the hand-checked date, or the day that source's extract was pinned.",
  snapshot_id: '`sha256:` and the hex SHA-256 of the canonical JSON of this record without `snapshot_id`: pins the exact facts cited.',
  source_url:
    "URL to cite: the provider's own game page where a source gives one, else the page the hand-checked row cites, else the page of the source that states the figure.",
  badges:
    '`verified_rtp`: the confidence is `verified` (a provider page read by the registry states the figure, or a licensed casino and a source of another origin state it and no source states a higher one). `variants_tracked`: more than one variant is known. `sources_disagree`: a source states a figure that is neither the stated RTP nor a known variant (each listed in `sources`).',
  variants: 'The variants with their kind, ascending by RTP.',
  'variants[].rtp': 'RTP of this build, as a percentage.',
  'variants[].kind':
    '`standard` (the provider default, the stated RTP), `operator_ladder` (a lower build an operator may choose), `operator` (the build a licensed casino’s own catalogue shows it runs), `bonus_buy` (a bought feature), `ante_bet` (an ante bet), `player_config` (a setting the player chooses), `feature` (one feature mode), `jurisdiction` (a build for one market), `unknown`.',
  'variants[].jurisdiction': 'ISO 3166-1 alpha-2 country code for `jurisdiction` variants, otherwise null.',
  source_kind:
    "`provider_page` only where the registry read the provider's page itself (a `provider` source cites `source_url`); a catalogue's citation of the provider's page is `third_party`, shown in `sources[].via` as \"as cited by\".",
  confidence:
    'How much evidence stands behind `stated_rtp`: `verified` (a provider page read by the registry states it; or a licensed casino states it, a source of another origin states the same figure, and no source states a higher one), `corroborated` (sources of two or more origins state it: two files copied from one site are one origin), `single_source` (otherwise). Filter with `confidence=` on the list route.',
  studio:
    'The studio that made the game, where a source names it apart from the provider that publishes it (Reel Kingdom, whose games Pragmatic Play publishes; data/provider-aliases.json); null otherwise. Search finds the game by it.',
  evidence_url: 'Page (or repository file at a fixed commit) where the published figure was read.',
  notes: 'Free-text notes on sources, cross-checks and fields left empty on purpose; may be empty.',
  sources:
    "Every source that states the game's figures: the one stating `stated_rtp` first, then in precedence order (provider page read by the registry, a licensed casino's catalogue, hand-checked, a catalogue citing the provider's page, catalogue, aggregator; within one rank the higher figure).",
  'sources[].kind':
    "`provider` (the provider's own page, read by the registry, with its check date), `operator` (a licensed casino's own catalogue: the build it runs), `hand_checked` (the registry's hand-checked seed), `catalogue` (a curated catalogue's data files), `aggregator` (a data API's examples or a scraped table).",
  'sources[].origin':
    'Where the source\'s figures come from in the end ("the Slotfolio catalogue", "scrapes of slot review sites", "a Dutch-licensed casino (711.nl)"): two files copied from one site share one origin; a hand-checked row\'s origin is the evidence it names.',
  'sources[].via':
    'How the source reached its figure when it is not what `kind` says: "provider page as cited by <catalogue>, not checked here" for a catalogue line that cites the provider\'s page; otherwise null.',
  'sources[].url': 'The page this source cites for its figures.',
  'sources[].checked_at': 'When the source says its figures were checked, or null where it does not say.',
  'sources[].stated_rtp': "The RTP this source states as the game's figure.",
  'sources[].rtp_variants': 'Every figure this source states, ascending.',
  operators:
    "What each licensed casino's own catalogue showed for the game on the date its source was pinned: an observation of that date, not a live reading. Empty when no operator's catalogue lists the game. On the list route: `include=operators`.",
  'operators[].operator': 'The operator key; the `{operator}` of the operator route.',
  'operators[].display': "The operator's name.",
  'operators[].market': 'The market the operator is licensed for (ISO 3166-1 alpha-2) as its source states it, or null.',
  'operators[].rtp': "The RTP of the build the casino's catalogue showed, as a percentage.",
  'operators[].build':
    '`top` (equals the stated RTP), `lower` (a lower build, named in `variant`), `higher` (above the stated RTP; `reason` says why the stated RTP stays).',
  'operators[].variant': "For a `lower` or `higher` build: the record's variant at that RTP with its kind; otherwise null.",
  'operators[].variant.rtp': 'RTP of the variant, as a percentage.',
  'operators[].variant.kind': "The variant's kind (as in `variants[].kind`).",
  'operators[].reason':
    "For a `higher` build: why the stated RTP stays below it (the sentence of `notes` that says so, else the record's variant kind at that figure); otherwise null.",
  'operators[].source': 'The pinned line the figure was read from.',
  'operators[].source.file': 'The pinned file under data/ (`sources/<file>`).',
  'operators[].source.line': 'Its 1-based line in that file.',
  'operators[].source.catalogue_file': "The casino catalogue's file the line was read from, or null where the pinned file is not at hand.",
  'operators[].source.index': "The element's index in that catalogue file's array, or null.",
  'operators[].source.url': 'The catalogue file at the pinned commit.',
  'operators[].source.pinned_at': 'When the source was pinned: the date of the observation.',
};

export const FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  ...DUMP_FIELD_DESCRIPTIONS,
  ...OPERATOR_FIELD_DESCRIPTIONS,
  GameRecord: GAME_RECORD,
  // The default list item: the record's descriptions of its own fields.
  ListItem: Object.fromEntries(Object.entries(GAME_RECORD).filter(([path]) => (LIST_ITEM_FIELDS as readonly string[]).includes(path.split(/[.[]/)[0]!))),
  PartialGameRecord: GAME_RECORD,
  SyncRecord: {
    ...GAME_RECORD,
    updated_at: 'When the published figures of the game last changed: the last freeze that recorded a change of it (ISO 8601, UTC).',
  },
  SlotRecord: {
    ...GAME_RECORD,
    provider_meta: 'The provider with figures over all of its games.',
    house_edge: '100 minus the stated RTP, in percentage points (2 decimals).',
    rtp_spread: 'rtp_max minus rtp_min, in percentage points (2 decimals).',
    history: "This game's entries of the history log, newest first.",
    widget_url: 'Absolute URL of the embeddable widget page.',
    embed_html: 'Ready embed code: the widget iframe (width 100%, height 220) and the attribution link.',
    page_url: "Absolute URL of the registry's page for the game (the attribution target).",
    citation: 'One-line citation: game, provider, stated RTP, source, registry, data version, licence.',
    license: 'Licence of the data.',
    data_version: 'Dataset version (dotted three-part).',
    frozen_at: 'ISO 8601 timestamp of the dataset freeze.',
  },
  ProviderMeta: {
    provider: 'Provider key.',
    display: 'Display name.',
    website: "Provider's website, or null where no source states it.",
    games_count: "Number of the provider's games in the registry.",
    rtp_min: "Lowest stated RTP among the provider's games.",
    rtp_max: "Highest stated RTP among the provider's games.",
  },
  SlotHistoryEntry: {
    data_version: 'Version in which the change was frozen.',
    frozen_at: 'ISO 8601 timestamp of that freeze.',
    field: 'Which figure changed.',
    from: 'Value before the change (null when the game first appeared).',
    to: 'Value after the change (null when the game was removed).',
  },
  License: {
    id: 'SPDX identifier of the licence.',
    url: 'Licence text.',
    attribution: 'Attribution line to show on reuse.',
  },
  WidgetData: {
    slug: 'Canonical slug.',
    name: 'Game name.',
    provider: 'Provider key.',
    provider_display: 'Provider display name.',
    stated_rtp: 'Stated RTP, as a percentage.',
    rtp_min: 'Lowest known variant.',
    rtp_max: 'Highest known variant.',
    rtp_variants: 'Every known variant, ascending.',
    confidence: 'How much evidence stands behind the stated RTP (`verified`, `corroborated`, `single_source`); the widget says it in words.',
    operators:
      "The operator builds the widget shows one of when asked (`operator=<key>`): what each casino's catalogue showed on the date its source was pinned, not a live reading. Empty when none is known.",
    last_verified: 'ISO 8601 timestamp of the last check.',
    source_url: 'URL to cite.',
    page_url: "Registry's page for the game.",
    widget_url: 'The widget page.',
    attribution: 'The attribution link the widget shows.',
    data_version: 'Dataset version.',
  },
  WidgetOperator: {
    operator: "Operator key (the widget's `operator=` value).",
    display: "Operator's display name.",
    rtp: "The RTP the operator's catalogue showed, as a percentage.",
    build: '`top` (equals the stated RTP), `lower` (a lower build) or `higher` (above the stated RTP).',
    pinned_at: 'ISO 8601 time the operator catalogue was pinned: the date the figure was seen, not a live reading.',
  },
  WidgetAttribution: {
    text: 'Short link text.',
    url: "Link target: the registry's page for the game.",
    license: 'SPDX identifier of the licence.',
    license_url: 'Licence text.',
  },
  ProviderRecord: {
    meta: 'The provider.',
    'meta.provider': 'Provider key.',
    'meta.display': 'Display name.',
    'meta.website': "Provider's website, or null where no source states it.",
    data_version: 'Dataset version.',
    frozen_at: 'ISO 8601 timestamp of the dataset freeze.',
    games_count: "Number of the provider's games.",
    game_types: 'Games per game type, every type listed (zeros included).',
    'game_types[].game_type': 'Game type.',
    'game_types[].count': 'Number of games of that type.',
    rtp_stats: "Statistics over the stated RTP of the provider's games (2 decimals).",
    'rtp_stats.min': 'Lowest stated RTP.',
    'rtp_stats.max': 'Highest stated RTP.',
    'rtp_stats.mean': 'Mean stated RTP.',
    'rtp_stats.median': 'Median stated RTP.',
    multi_variant_count: 'Games with more than one known variant.',
    games: "The provider's games, sorted by slug.",
    'games[].slug': 'Canonical slug.',
    'games[].name': 'Game name.',
    'games[].stated_rtp': 'Stated RTP, as a percentage.',
    license: 'Licence of the data.',
  },
  ListResponse: {
    meta: 'The dataset and this query.',
    facets: 'Counts for filtering.',
    items: 'The page of results: each a ListItem (the spec fields and `confidence`; `include=` or `fields=` for other shapes).',
  },
  ListShapedResponse: {
    meta: 'The dataset and this query.',
    facets: 'Counts for filtering.',
    items:
      'The page of results: each the ListItem with the parts `include=` names (with `include=all`, the full GameRecord), or exactly the fields `fields=` names.',
  },
  ListMeta: {
    data_version: 'Dataset version (dotted three-part).',
    frozen_at: 'ISO 8601 timestamp of the dataset freeze.',
    total: 'Records in the whole registry.',
    filtered: 'Records matching the query.',
    has_more: 'True when more results exist beyond this page (offset + returned < filtered).',
    query: 'The normalised query actually applied, defaults included.',
  },
  ListQuery: {
    q: 'Free text as applied (trimmed, spaces collapsed), or null.',
    provider: 'Provider filter, or null.',
    game_type: 'Game type filter, or null.',
    has_variants: 'True when only games with more than one variant are returned.',
    badge: 'Badge filter, or null.',
    confidence: 'Confidence filter (`verified`, `corroborated`, `single_source`), or null.',
    sort: 'Order applied (`relevance` without `q` becomes `name`).',
    limit: 'Page size.',
    offset: 'Records skipped.',
    rtp_min: 'Lowest stated RTP (percent, inclusive), or null.',
    rtp_max: 'Highest stated RTP (percent, inclusive), or null.',
    volatility: "The volatility levels asked for (any of them matches), in the registry's order, or null.",
    max_win_min: 'Lowest max win (a multiple of the stake, inclusive), or null. Games with no known max win never match it.',
    released_after: 'Earliest release year (inclusive), or null. Games with no known year never match it.',
    released_before: 'Latest release year (inclusive), or null. Games with no known year never match it.',
    operator: 'The operator filter (`operator=`, an operator key), or null.',
    operator_build: 'The build filter (`operator_build=`: `top`, `lower`, `higher`), or null.',
    include: 'The parts of the full record added to each item (`include=`), each once in record order, `all` spelled out; or null.',
    fields:
      'The only fields of each item (`fields=`), each once in record order; or null. With `format=csv` the parameter names columns and is not echoed (CSV has no meta).',
  },
  ListFacets: {
    providers: 'Matches per provider. Each facet counts the records matching every other filter, ignoring its own, so a client can offer alternatives.',
    game_types: 'Matches per game type, counted the same way.',
    confidence: 'Matches per confidence level, counted the same way.',
    volatilities: 'Matches per volatility level, counted the same way (games of unknown volatility are in no entry).',
    operators:
      'Matches per operator (every operator, key order, zeros included): games its catalogue listed when its source was pinned (at `operator_build` when given), counted the same way.',
    'operators[].operator': 'Operator key.',
    'operators[].display': "The operator's name.",
    'operators[].count': 'Matching records this operator observed.',
    operator_builds:
      'Matches per build (`top`, `lower`, `higher`, zeros included): games observed at that build (by `operator` when given, else by any), counted the same way.',
    'operator_builds[].operator_build': 'The build.',
    'operator_builds[].count': 'Matching records observed at it.',
  },
  ConfidenceFacet: {
    confidence: 'Confidence level (`verified`, `corroborated`, `single_source`).',
    count: 'Matching records of this level.',
  },
  VolatilityFacet: {
    volatility: 'Volatility level.',
    count: 'Matching records of this level.',
  },
  ProviderFacet: {
    provider: 'Provider key.',
    display: 'Provider display name.',
    count: 'Matching records of this provider.',
  },
  GameTypeFacet: {
    game_type: 'Game type.',
    count: 'Matching records of this type.',
  },
  HistoryResponse: {
    meta: 'The dataset and this query.',
    items: 'The page of changes, newest first.',
  },
  HistoryMeta: {
    data_version: 'Dataset version.',
    frozen_at: 'ISO 8601 timestamp of the dataset freeze.',
    total: 'Entries in the whole history log.',
    filtered: 'Entries matching the query.',
    has_more: 'True when more entries exist beyond this page.',
    query: 'The normalised query actually applied.',
  },
  HistoryQuery: {
    slug: 'Slug filter, or null.',
    provider: 'Provider filter, or null.',
    since: 'Only changes frozen at or after this UTC timestamp, or null.',
    limit: 'Page size.',
    offset: 'Entries skipped.',
  },
  HistoryItem: {
    data_version: 'Version in which the change was frozen.',
    frozen_at: 'ISO 8601 timestamp of that freeze.',
    slug: 'Canonical slug of the game.',
    provider: 'Provider key of the game.',
    field: 'Which figure changed.',
    from: 'Value before (null when the game first appeared).',
    to: 'Value after (null when the game was removed).',
    merged_into:
      "On the entries of a game removed because it is the same game as another record: that record's slug (the old slug's routes redirect there with a 301); else null.",
  },
  ErrorBody: {
    statusCode: 'HTTP status code.',
    statusMessage: 'Stable error text.',
    errors: 'On 400: one entry per rejected query parameter.',
    'errors[].param': 'Name of the parameter.',
    'errors[].message': 'What is wrong with it.',
  },
  RateLimitedBody: {
    statusCode: '429.',
    statusMessage: 'Stable error text.',
    limit: 'Requests allowed per window.',
    remaining: 'Requests left (0).',
    reset: 'Unix time in seconds at which the window resets.',
  },
};
