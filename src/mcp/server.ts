// The registry as an MCP server (Model Context Protocol, official TypeScript SDK), read-only, for
// AI assistants: tools search_games, get_game, identify_build, operator_build, list_providers and registry_info,
// each answering through the list route's own handlers, every result carrying the data version,
// the licence and, per game, the source to cite. Transports: stdio (scripts/mcp.ts) and POST /mcp
// on the server (src/server/mcp-http.ts).
//
//   results link {site}/rtp/{slug} (page_url) and name the API at {site}/api/...
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RegistryServices } from '../list/service.ts';
import { paths } from '../routes/paths.ts';
import { pageUrl, REGISTRY_NAME } from '../routes/urls.ts';
import { GAME_TYPES } from '../schemas/authoring.ts';
import type { BatchResponse } from '../schemas/batch.ts';
import { BADGES, CONFIDENCE_LEVELS, type GameRecord } from '../schemas/game-record.ts';
import { LIST_SORTS } from '../schemas/list.ts';

/** The server's name and version as MCP clients see them. */
export const MCP_NAME = 'rtp-registry';
export const MCP_VERSION = '1.0.0';
/** Most games one search_games call returns (a page of the list route). */
export const MCP_PAGE_MAX = 50;

type Json = Record<string, unknown>;

/**
 * Each tool's arguments (zod shapes): the SDK checks them, and so does the JSON-RPC envelope
 * (src/mcp/rpc.ts) first, to answer bad arguments with -32602 naming the parameter and the rule.
 */
export const TOOL_INPUTS = {
  search_games: {
    q: z.string().max(200).optional().describe('Free text over name, slug and provider.'),
    provider: z.string().max(200).optional().describe('Provider key, e.g. playngo.'),
    game_type: z.enum(GAME_TYPES).optional(),
    has_variants: z.boolean().optional().describe('Only games with more than one known RTP.'),
    badge: z.enum(BADGES).optional(),
    confidence: z
      .enum(CONFIDENCE_LEVELS)
      .optional()
      .describe(
        'How much evidence stands behind the stated RTP: verified (a provider page read here, or a licensed casino and another origin with no higher figure), corroborated (two or more origins), single_source.',
      ),
    sort: z.enum(LIST_SORTS).optional().describe('relevance needs q.'),
    limit: z.int().min(1).max(MCP_PAGE_MAX).optional(),
    offset: z.int().min(0).max(1_000_000).optional(),
  },
  get_game: { slug: z.string().min(1).max(200) },
  identify_build: {
    slug: z.string().max(200).optional(),
    name: z.string().max(200).optional(),
    rtp: z.number().gt(0).max(100).describe('The observed RTP in percent, e.g. 94.25.'),
  },
  operator_build: {
    operator: z.string().min(1).max(200).describe('Operator key (a licensed casino), e.g. 711nl.'),
    slug: z.string().max(200).optional(),
    name: z.string().max(200).optional().describe('The game by name (the best search match), when no slug is given.'),
  },
  list_providers: {},
  registry_info: {},
} as const satisfies Record<string, z.ZodRawShape>;

/** The tools' names. */
export type ToolName = keyof typeof TOOL_INPUTS;

/** The record fields `gameOf` reads: what search_games asks the list route for (`fields=`). */
const GAME_FIELDS = [
  'canonical_slug',
  'canonical_name',
  'provider',
  'provider_display',
  'stated_rtp',
  'volatility',
  'max_win',
  'game_type',
  'source_url',
  'badges',
  'variants',
  'confidence',
  'sources',
] as const satisfies ReadonlyArray<keyof GameRecord>;
type GameFields = Pick<GameRecord, (typeof GAME_FIELDS)[number]>;

/** A game as the tools return it: the figures, the source to cite and the registry's page. */
function gameOf(r: GameFields, site: string): Json {
  return {
    slug: r.canonical_slug,
    name: r.canonical_name,
    provider: r.provider,
    provider_display: r.provider_display,
    stated_rtp: r.stated_rtp,
    rtp_variants: r.variants.map((v) => ({ rtp: v.rtp, kind: v.kind })),
    volatility: r.volatility,
    max_win: r.max_win,
    game_type: r.game_type,
    badges: r.badges,
    confidence: r.confidence,
    source_url: r.source_url,
    sources: r.sources.map((s) => s.url),
    page_url: pageUrl(site, r.canonical_slug),
  };
}

/** Creates the MCP server over `services`; `site` is the registry's public base URL. */
export function createMcpServer(services: RegistryServices, site: string): McpServer {
  const { meta } = services;
  const license = { license: meta.license, license_url: meta.license_url, attribution: meta.attribution };
  const stamp = { data_version: meta.data_version, frozen_at: meta.frozen_at, ...license };
  const server = new McpServer(
    { name: MCP_NAME, version: MCP_VERSION },
    {
      instructions: `${REGISTRY_NAME}: provider-stated RTP of ${services.games} casino games. Cite source_url and page_url with the figures; the data is CC BY 4.0.`,
    },
  );

  const ok = (data: Json) => ({ content: [{ type: 'text' as const, text: JSON.stringify(data) }], structuredContent: data });
  const fail = (message: string) => ({ content: [{ type: 'text' as const, text: message }], isError: true });
  /** Calls a handler with query parameters; the parsed body, or the error text of a 4xx. */
  const call = (handler: (q: URLSearchParams) => { status: number; body: Uint8Array }, params: Record<string, string | number | boolean | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== false) q.set(k, v === true ? '1' : String(v));
    const r = handler(q);
    const body = JSON.parse(Buffer.from(r.body).toString('utf8')) as Json;
    return r.status === 200
      ? { body }
      : {
          error: `${String(body.statusMessage)}${Array.isArray(body.errors) ? `: ${(body.errors as Array<{ param: string; message: string }>).map((e) => `${e.param} ${e.message}`).join('; ')}` : ''}`,
        };
  };
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'search_games',
    {
      title: 'Search games',
      description: `Search, filter and sort the registry (the list route's semantics). Returns up to ${MCP_PAGE_MAX} games with their stated RTP, variants and source.`,
      inputSchema: TOOL_INPUTS.search_games,
      annotations: readOnly,
    },
    (args) => {
      const r = call((q) => services.list(q), { ...args, limit: args.limit ?? 10, fields: GAME_FIELDS.join(',') });
      if (r.error !== undefined) return fail(r.error);
      const body = r.body as { meta: Json; items: GameFields[] };
      return ok({
        ...stamp,
        total: body.meta.total,
        filtered: body.meta.filtered,
        has_more: body.meta.has_more,
        games: body.items.map((g) => gameOf(g, site)),
      });
    },
  );

  server.registerTool(
    'get_game',
    {
      title: 'Get one game',
      description: "A game's full record by slug: stated RTP, every variant with its kind, sources, and the page to cite.",
      inputSchema: TOOL_INPUTS.get_game,
      annotations: readOnly,
    },
    ({ slug }) => {
      const r = call((q) => services.list(q), { slugs: slug.toLowerCase() });
      const batch = r.body as BatchResponse | undefined;
      const found = batch?.items[0];
      // The slug is not repeated: a client's text never comes back in an answer.
      if (found === undefined) return fail('no game with this slug in the registry: search_games finds slugs');
      // A slug merged into another record is answered with the survivor's, and says so.
      return ok({
        ...stamp,
        ...(batch!.meta.moved.length > 0 ? { note: `this slug was merged into ${found.canonical_slug}, the record of the same game` } : {}),
        game: gameOf(found, site),
        record: found,
      });
    },
  );

  server.registerTool(
    'identify_build',
    {
      title: 'Which build is this RTP?',
      description:
        'Whether an observed RTP figure is the stated default, a known variant (with its kind) or unknown, within 0.005 points, and which licensed casinos are known to run that build (as their catalogue showed on the date its source was pinned); give slug, or name to pick the game by search.',
      inputSchema: TOOL_INPUTS.identify_build,
      annotations: readOnly,
    },
    ({ slug, name, rtp }) => {
      const r = call((q) => services.identify(q), { slug, name, rtp });
      if (r.error !== undefined) return fail(r.error);
      const body = r.body as { game: Json; verdict: string; match: Json | null; nearest: Json[]; operators: Json[] };
      return ok({
        ...stamp,
        game: { ...body.game, page_url: pageUrl(site, String(body.game.canonical_slug)) },
        source_url: body.game.source_url,
        verdict: body.verdict,
        match: body.match,
        nearest: body.nearest,
        operators: body.operators,
      });
    },
  );

  server.registerTool(
    'operator_build',
    {
      title: 'Which build does this casino run?',
      description:
        "The build of a game a licensed casino's own catalogue showed (top: the stated RTP; lower: a lower variant; higher: above it, with why the stated RTP stays), on the date its source was pinned: an observation, not a live reading. Give slug, or name to pick the game by search.",
      inputSchema: TOOL_INPUTS.operator_build,
      annotations: readOnly,
    },
    ({ operator, slug, name }) => {
      if ((slug === undefined) === (name === undefined)) return fail('give exactly one of slug and name');
      const r =
        slug !== undefined
          ? call((q) => services.list(q), { slugs: slug.toLowerCase() })
          : call((q) => services.list(q), {
              q: name,
              sort: 'relevance',
              limit: 1,
              fields: [...GAME_FIELDS, 'canonical_slug', 'operators'].filter((f, i, a) => a.indexOf(f) === i).join(','),
            });
      if (r.error !== undefined) return fail(r.error);
      const found = (r.body as { items: GameRecord[] } | undefined)?.items[0];
      if (found === undefined) return fail('no game matches in the registry: search_games finds slugs');
      const key = operator.toLowerCase();
      const builds = found.operators.filter((o) => o.operator === key);
      return ok({
        ...stamp,
        game: gameOf(found, site),
        operator: key,
        builds,
        note:
          builds.length === 0
            ? "No observation: this operator's catalogue, as pinned, does not list this game (or the registry has no operator by this key)."
            : "What this casino's own catalogue showed on the date its source was pinned (source.pinned_at), not a live reading.",
        source_url: `${site}${paths.operator(key)}`,
      });
    },
  );

  server.registerTool(
    'list_providers',
    { title: 'List providers', description: 'Every provider with its number of games.', inputSchema: TOOL_INPUTS.list_providers, annotations: readOnly },
    () => {
      const r = call((q) => services.list(q), { limit: 1 });
      const providers = (r.body!.facets as { providers: Array<{ provider: string; display: string; count: number }> }).providers;
      return ok({
        ...stamp,
        source_url: `${site}${paths.list}`,
        providers: providers.map((p) => ({ provider: p.provider, display: p.display, games: p.count, page_url: `${site}${paths.providerPage(p.provider)}` })),
      });
    },
  );

  server.registerTool(
    'registry_info',
    {
      title: 'About the registry',
      description: 'Data version, size, licence and how to cite, and where the API and bulk downloads are.',
      inputSchema: TOOL_INPUTS.registry_info,
      annotations: readOnly,
    },
    () =>
      ok({
        ...stamp,
        name: REGISTRY_NAME,
        games: services.games,
        site: `${site}/`,
        source_url: `${site}${paths.llms}`,
        api: {
          openapi: `${site}${paths.openapi}`,
          list: `${site}${paths.list}`,
          dump: `${site}${paths.dump.json}`,
          data_package: `${site}${paths.dump.dataPackage}`,
        },
        cite: `${REGISTRY_NAME}, data version ${meta.data_version}, ${site}/, ${meta.license}. Cite each figure with its source_url.`,
      }),
  );
  return server;
}
