// Descriptions of the operator record's fields (GET /api/rtp/operator/{operator}), merged into FIELD_DESCRIPTIONS.

const COUNTS: Record<string, string> = {
  games_observed: "Games the operator's catalogue lists.",
  at_top: 'Games it showed at the stated RTP (the top build).',
  at_lower: 'Games it showed at a lower build.',
  at_higher: 'Games it showed above the stated RTP.',
};

const BUILD: Record<string, string> = {
  rtp: "The RTP of the build the casino's catalogue showed, as a percentage.",
  build: '`top` (equals the stated RTP), `lower` (a lower build, named in `variant`), `higher` (above the stated RTP; `reason` says why the stated RTP stays).',
  variant: "For a `lower` or `higher` build: the record's variant at that RTP with its kind; otherwise null.",
  'variant.rtp': 'RTP of the variant, as a percentage.',
  'variant.kind': "The variant's kind (as in a game record's `variants[].kind`).",
  reason: "For a `higher` build: the record's reason why the stated RTP stays below it; otherwise null.",
  source: 'The pinned line the figure was read from.',
  'source.file': 'The pinned file under data/ (`sources/<file>`).',
  'source.line': 'Its 1-based line in that file.',
  'source.catalogue_file': "The casino catalogue's file the line was read from, or null where the pinned file is not at hand.",
  'source.index': "The element's index in that catalogue file's array, or null.",
  'source.url': 'The catalogue file at the pinned commit.',
  'source.pinned_at': 'When the source was pinned: the date of the observation.',
};

/** The operator record's descriptions (component `OperatorRecord`). */
export const OPERATOR_FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  OperatorRecord: {
    meta: 'The operator, as its pinned source states it (null where it does not say).',
    'meta.operator': 'Operator key; the `{operator}` of this route and of the list filter `operator=`.',
    'meta.display': "The operator's name.",
    'meta.market': 'The market it is licensed for (ISO 3166-1 alpha-2), or null.',
    'meta.licence': 'The licence as the source states it, or null.',
    'meta.licensing_authority': 'The licensing authority as the source names it, or null where it names none.',
    'meta.website': 'The website the source names, or null.',
    'meta.sources': 'The pinned files its observations come from.',
    'meta.sources[].file': 'The pinned file under data/ (`sources/<file>`).',
    'meta.sources[].pinned_at': 'When it was pinned: the date of its observations.',
    note: 'What every build here is: an observation of the date its source was pinned, not a live reading.',
    data_version: 'Dataset version.',
    frozen_at: 'ISO 8601 timestamp of the dataset freeze.',
    summary: 'Counts over its games (a game the catalogue lists at two builds counts under each) and the gap of its lower builds.',
    ...Object.fromEntries(Object.entries(COUNTS).map(([k, v]) => [`summary.${k}`, v])),
    'summary.observations': 'Builds observed (a game listed twice counts twice).',
    'summary.gap_mean': 'Mean of stated RTP minus build RTP over its lower builds, in percentage points (2 decimals); null without a lower build.',
    'summary.gap_max': 'The largest such gap, in percentage points; null without a lower build.',
    'summary.by_provider': 'The same counts per provider, by key.',
    'summary.by_provider[].provider': 'Provider key.',
    'summary.by_provider[].display': "Provider's display name.",
    ...Object.fromEntries(Object.entries(COUNTS).map(([k, v]) => [`summary.by_provider[].${k}`, v])),
    games: 'The games its catalogue lists, by slug, each with every build observed.',
    'games[].slug': 'Canonical slug.',
    'games[].name': 'Game name.',
    'games[].provider': 'Provider key.',
    'games[].stated_rtp': 'Stated RTP, as a percentage.',
    'games[].builds': 'Every build its catalogue showed for the game.',
    ...Object.fromEntries(Object.entries(BUILD).map(([k, v]) => [`games[].builds[].${k}`, v])),
    license: 'Licence of the data.',
  },
};
