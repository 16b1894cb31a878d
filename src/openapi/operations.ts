// The OpenAPI document's operations of the registry and widget routes, by operation id (the route
// table names each family's operations and their paths): texts, query parameters and answers.
import { API_PREFIX, keyedTemplate, paths } from '../routes/paths.ts';
import type { OperationId } from '../routes/routes.ts';
import { DEFAULT_SITE } from '../routes/urls.ts';
import { WIDGET_LANGS } from '../routes/widget-i18n.ts';
import { ROUTE_NOT_FOUND, SLOT_NOT_FOUND } from '../schemas/errors.ts';
import { HistoryQuerySchema } from '../schemas/history.ts';
import { IDENTIFY_TOLERANCE } from '../schemas/identify.ts';
import { OEMBED_FORMAT, OEMBED_HEIGHT, OEMBED_MIN_WIDTH, OEMBED_NOT_FOUND, OEMBED_WIDTH } from '../schemas/oembed.ts';
import { paramSchema, queryParam } from './components.ts';
import { listParameters } from './list-params.ts';
import { getOperation, MOVED_RESPONSE } from './responses.ts';
import { jsonError, jsonOk, type OperationSpec, okHeaders, ref, withCsv } from './shapes.ts';

/** Where every unknown path reads as a missing game: the slots' prefix. */
const SLOTS = paths.slot('');
const INVALID = 'invalid query parameters';

/** The operations of the registry's and the widget's routes. */
export const REGISTRY_OPERATIONS = {
  listGames: (policy) =>
    getOperation({
      summary: 'Search, filter, sort and page through the registry',
      description:
        'All parameters are optional and combinable. Unknown parameters are ignored; an empty value counts as absent. ' +
        'Each bad parameter (including a repeated one) is listed in a 400 answer; nothing is clamped. ' +
        'An unknown provider or a query without matches is a 200 with `filtered: 0`. Ordering is total (ties by slug), so paging never repeats or skips a record. Cached 5 minutes at the edge.',
      tags: ['registry'],
      parameters: listParameters(),
      responses: {
        '200': withCsv(
          jsonOk(
            policy,
            'A page of results with totals and facets (its items ListItems; with `include=` or `fields=`, a ListShapedResponse); with `slugs`, the named full records; with `updated_since`, the changed full records; with `format=csv`, those records as CSV.',
            { anyOf: [ref('ListResponse'), ref('ListShapedResponse'), ref('BatchResponse'), ref('SyncResponse')] },
          ),
        ),
        '400': jsonError('One or more query parameters are invalid.', {
          statusCode: 400,
          statusMessage: INVALID,
          errors: [{ param: 'limit', message: 'must be an integer from 1 to 200' }],
        }),
      },
    }),
  listHistory: (policy) => {
    const hist = HistoryQuerySchema.shape;
    return getOperation({
      summary: 'Time series of RTP changes, newest first',
      description: 'Changes of stated RTP and variants between frozen data versions, from the history log. Not rate limited.',
      tags: ['registry'],
      parameters: [
        queryParam('slug', 'Only this game.', paramSchema(hist.slug), 'book-of-dead'),
        queryParam('provider', 'Only games of this provider.', paramSchema(hist.provider)),
        queryParam(
          'since',
          'Only changes frozen at or after this time: an ISO 8601 date (midnight UTC) or timestamp with a time zone.',
          { type: 'string' },
          '2026-01-01',
        ),
        queryParam('limit', 'Page size.', { ...paramSchema(hist.limit), default: 50 }),
        queryParam('offset', 'Entries to skip.', { ...paramSchema(hist.offset), default: 0 }),
      ],
      responses: {
        '200': jsonOk(policy, 'A page of history entries.', 'HistoryResponse'),
        '400': jsonError('One or more query parameters are invalid.', {
          statusCode: 400,
          statusMessage: INVALID,
          errors: [{ param: 'since', message: 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)' }],
        }),
      },
    });
  },
  getGame: (policy) =>
    getOperation({
      summary: 'One game: the single-slot record',
      description: 'The public game record plus provider figures, derived fields, its RTP history, widget URL, embed code and citation. Cached 1 hour.',
      tags: ['registry'],
      responses: {
        '200': jsonOk(policy, 'The single-slot record.', 'SlotRecord'),
        ...MOVED_RESPONSE,
        '404': jsonError('The slug is not in the registry (also with a trailing slash).', SLOT_NOT_FOUND),
      },
    }),
  getProvider: (policy) =>
    getOperation({
      summary: "A provider's figures and games",
      description: 'Provider meta, counts per game type, stated-RTP statistics and its games. Not rate limited. Cached 1 hour.',
      tags: ['registry'],
      responses: {
        '200': jsonOk(policy, 'The provider record.', 'ProviderRecord'),
        '404': jsonError(`The provider is not in the registry (the answer of every unknown path under ${SLOTS}).`, SLOT_NOT_FOUND),
      },
    }),
  getOperator: (policy) =>
    getOperation({
      summary: 'Which builds a licensed casino runs',
      description:
        "The operator's meta, a summary of the builds its catalogue showed (games observed, at the top build, at a lower build, above the stated RTP, the mean and largest gap below it in points, by provider) and its games with their builds. Each build is what that casino's catalogue showed on the date its source was pinned, not a live reading. Not rate limited. Cached 1 hour.",
      tags: ['registry'],
      responses: {
        '200': jsonOk(policy, 'The operator record.', 'OperatorRecord'),
        '404': jsonError(`The operator is not in the registry (the answer of every unknown path under ${SLOTS}).`, SLOT_NOT_FOUND),
      },
    }),
  getWidgetData: (policy) =>
    getOperation({
      summary: 'What the widget shows, as JSON',
      description: 'For sites that render their own widget. Not rate limited. Cached 1 hour.',
      tags: ['widget'],
      responses: {
        '200': jsonOk(policy, 'The widget data.', 'WidgetData'),
        ...MOVED_RESPONSE,
        '404': jsonError(`The slug is not in the registry (the answer of every unknown path under ${API_PREFIX} outside ${SLOTS}).`, ROUTE_NOT_FOUND),
      },
    }),
  getWidget: (policy) =>
    getOperation({
      summary: 'The embeddable HTML widget',
      description:
        "A self-contained HTML page for an iframe (width 100%, height 220, frameborder 0, loading lazy), with a short attribution link to the game's registry page. " +
        'Options are applied in the browser; invalid values fall back to the defaults. No external requests; a Content-Security-Policy allows only its own inline style and script. Cached 1 hour.',
      tags: ['widget'],
      parameters: [
        queryParam('theme', '`dark` for the dark theme; anything else is light.', { type: 'string', enum: ['light', 'dark'], default: 'light' }, 'dark'),
        queryParam(
          'border',
          'Border colour: 3 or 6 hex digits with or without `#` (URL-encode `#` as `%23`), or `none` for no border.',
          { type: 'string', pattern: '^(none|#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6}))$' },
          'none',
        ),
        queryParam('radius', 'Corner radius in CSS pixels.', { type: 'integer', minimum: 0, maximum: 32, default: 12 }, 0),
        queryParam(
          'lang',
          'Language of the labels, and number format of the figures (`96,21 %` in German). Applied in the browser from labels inside the page: no further request. Anything else is English.',
          { type: 'string', enum: [...WIDGET_LANGS], default: 'en' },
          'de',
        ),
        queryParam(
          'operator',
          `An operator key (as in \`${keyedTemplate('operator')}\`): adds that casino's line, e.g. \`711.nl: 96.21% (top build) · catalogue as pinned 2026-11-28\`, in the chosen language: what its catalogue showed on the date its source was pinned, not a live reading. A key the page holds no observation for (unknown, or a game that catalogue does not list) adds nothing.`,
          { type: 'string' },
          '711nl',
        ),
        queryParam('v', 'Data version as a cache-busting hint; ignored by the widget, so older embeds keep working.', { type: 'string' }, '1.0.0'),
      ],
      responses: {
        '200': {
          description: 'The widget page.',
          headers: okHeaders(policy, { 'Content-Security-Policy': ref('Content-Security-Policy', 'headers') }),
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        ...MOVED_RESPONSE,
        '404': { description: 'The slug is not in the registry (an HTML page).', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    }),
  identifyBuild: (policy) =>
    getOperation({
      summary: 'Which build of a game is an observed RTP figure?',
      description:
        `For a figure seen at a casino: is it the provider's stated default, a known variant (with its kind: operator rung, bonus buy, ante bet…) or unknown? A figure within ${IDENTIFY_TOLERANCE} percentage points of a known one is that one. ` +
        'The nearest known figures come with their difference and the sources that state them. Give `slug` (a slug merged into the record of the same game names that game), or `name` to pick the game by search (the answer says which it chose, and the next candidates). Rate limited like the list route; cached 5 minutes at the edge.',
      tags: ['registry'],
      parameters: [
        queryParam('slug', 'Canonical slug of the game.', { type: 'string', maxLength: 200 }, 'book-of-dead'),
        queryParam('name', "The game's name, instead of `slug`: the best search match is used.", { type: 'string', maxLength: 200 }, 'Book of Dead'),
        {
          ...queryParam(
            'rtp',
            'The observed RTP in percent: `96.21`, `96,21` or `96.21%`, above 0 and at most 100, up to 4 decimals.',
            { type: 'string', pattern: '^[0-9]{1,3}([.,][0-9]{1,4})?%?$' },
            '94.25',
          ),
          required: true,
        },
      ],
      responses: {
        '200': jsonOk(policy, 'The game, the verdict, the matching figure and the nearest ones.', 'IdentifyResponse'),
        '400': jsonError('A parameter is missing or invalid.', {
          statusCode: 400,
          statusMessage: INVALID,
          errors: [{ param: 'rtp', message: 'must be a percentage above 0 and at most 100, such as 96.21' }],
        }),
        '404': jsonError('No such slug, or no game matches the name.', SLOT_NOT_FOUND),
      },
    }),
  getOembed: (policy) =>
    getOperation({
      summary: 'oEmbed: the widget for a game page or widget URL',
      description:
        `An oEmbed 1.0 provider (https://oembed.com/) for link previews in editors and chat apps: for the URL of a game page (\`{site}${keyedTemplate('page')}\`) or widget (\`{site}${keyedTemplate('widget')}\`, whose \`theme\`, \`border\`, \`radius\`, \`lang\` and \`operator\` carry over) of this registry, a \`rich\` answer whose \`html\` is the widget iframe (for a slug merged into the record of the same game, that record's widget), ` +
        `${OEMBED_WIDTH} px wide (or \`maxwidth\`, at least ${OEMBED_MIN_WIDTH}) and ${OEMBED_HEIGHT} px high. As the spec has it: 404 for any other URL or a size the widget cannot fit, 501 for a format other than json. Game pages and widgets name it in a \`<link rel="alternate" type="application/json+oembed">\`. Not rate limited; cached 1 hour.`,
      tags: ['widget'],
      parameters: [
        {
          ...queryParam(
            'url',
            'The URL of a game page or widget of this registry.',
            { type: 'string', maxLength: 1024 },
            `${DEFAULT_SITE}${paths.gamePage('book-of-dead')}`,
          ),
          required: true,
        },
        queryParam('format', 'Only `json` (the default) is implemented; anything else is a 501.', { type: 'string', default: 'json' }, 'json'),
        queryParam('maxwidth', 'Widest the consumer can show, in pixels.', { type: 'integer', minimum: 1, maximum: 100000 }, 400),
        queryParam('maxheight', 'Highest the consumer can show, in pixels.', { type: 'integer', minimum: 1, maximum: 100000 }, 300),
      ],
      responses: {
        '200': jsonOk(policy, 'The oEmbed answer.', 'OembedResponse'),
        '400': jsonError('`url` is missing, or a size is not a whole number of pixels.', {
          statusCode: 400,
          statusMessage: INVALID,
          errors: [{ param: 'url', message: 'is required: the URL of a game page or widget of this registry' }],
        }),
        '404': jsonError('The URL is no game page or widget of this registry, or the widget cannot fit the size asked for.', OEMBED_NOT_FOUND),
        '501': jsonError('A format other than json.', OEMBED_FORMAT),
      },
    }),
  getBadge: (policy) =>
    getOperation({
      summary: "A game's RTP badge",
      description:
        'A small SVG ("RTP | 96.21%", the provider-stated figure with two decimals) for forum posts and READMEs, with a `<title>` naming the game. Static; not rate limited; cached 1 hour.',
      tags: ['widget'],
      responses: {
        '200': { description: 'The badge.', headers: okHeaders(policy), content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        ...MOVED_RESPONSE,
        '404': jsonError(`The slug is not in the registry (the answer of every unknown path under ${API_PREFIX} outside ${SLOTS}).`, ROUTE_NOT_FOUND),
      },
    }),
  getOgImage: (policy) =>
    getOperation({
      summary: "A game's link-preview card",
      description:
        "The game's card for link previews (its page's `og:image` and `twitter:image`): a 1200 × 630 PNG with the game's name, its provider, the stated RTP, the data version and the RTP ladder. Drawn by the server once per game and data version, then kept on disk; not rate limited; cached 1 hour.",
      tags: ['widget'],
      responses: {
        '200': {
          description: 'The card.',
          headers: okHeaders(policy),
          content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
        },
        ...MOVED_RESPONSE,
        '404': jsonError('The slug is not in the registry.', SLOT_NOT_FOUND),
      },
    }),
  getOpenApi: (policy) =>
    getOperation({
      summary: 'The API contract, as OpenAPI 3.1',
      description: 'The OpenAPI 3.1 document of the API. Cached 1 hour.',
      tags: ['meta'],
      responses: { '200': jsonOk(policy, 'The OpenAPI document.', { type: 'object' }) },
    }),
} satisfies Partial<Record<OperationId, OperationSpec>>;
