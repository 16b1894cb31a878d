// GET /api/rtp/identify?slug=<slug>&rtp=<observed>: which build of a game an observed RTP figure is
// (the stated default, a known variant with its kind, or unknown), with the nearest known figures
// and the sources that state each; `name=` instead of `slug=` picks the game by search and says so.
import { CACHE_LIST } from '../routes/response-headers.ts';
import { SLOT_NOT_FOUND } from '../schemas/errors.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { IDENTIFY_NEAREST, IDENTIFY_TOLERANCE, type IdentifyResponse } from '../schemas/identify.ts';
import type { ListEngine } from './engine.ts';
import { type HandlerResult, invalidQuery, jsonError, jsonOk } from './handler-result.ts';
import { collectParams, type ParamError, type QueryInput, single, text } from './params.ts';
import { parseListQuery } from './query.ts';

export const MSG_RTP = 'must be a percentage above 0 and at most 100, such as 96.21';
export const MSG_RTP_REQUIRED = 'is required: the RTP figure observed, in percent';
export const MSG_GAME_REQUIRED = 'slug or name is required';
export const MSG_SLUG_AND_NAME = 'cannot be combined with slug';
export const NAME_NOT_FOUND = { statusCode: 404, statusMessage: 'no game matches the name' };
/** Games a name search considers: the one chosen and the alternatives named beside it. */
const NAME_CANDIDATES = 3;

/** `96.21`, `96,21` or `96.21%`: up to three digits, up to four decimals. */
const PERCENT = /^([0-9]{1,3})(?:[.,]([0-9]{1,4}))?%?$/;

export type IdentifyHandler = (input: QueryInput) => HandlerResult;

interface IdentifyQuery {
  slug: string | null;
  name: string | null;
  rtp: number;
}

/** Reads slug or name and rtp; every problem at once. */
export function parseIdentifyQuery(input: QueryInput): { ok: true; query: IdentifyQuery } | { ok: false; errors: ParamError[] } {
  const values = collectParams(input, ['slug', 'name', 'rtp']);
  const errors: ParamError[] = [];
  const slug = text(values, 'slug', errors);
  const name = text(values, 'name', errors);
  if (slug !== null && name !== null) errors.push({ param: 'name', message: MSG_SLUG_AND_NAME });
  if (slug === null && name === null && !errors.some((e) => e.param === 'slug' || e.param === 'name'))
    errors.push({ param: 'slug', message: MSG_GAME_REQUIRED });
  const raw = single(values, 'rtp', errors);
  let rtp = Number.NaN;
  if (raw === null) {
    if (!errors.some((e) => e.param === 'rtp')) errors.push({ param: 'rtp', message: MSG_RTP_REQUIRED });
  } else {
    const m = PERCENT.exec(raw.trim());
    rtp = m === null ? Number.NaN : Number(`${m[1]}.${m[2] ?? '0'}`);
    if (!(rtp > 0 && rtp <= 100)) errors.push({ param: 'rtp', message: MSG_RTP });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, query: { slug, name, rtp } };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The answer for one resolved game (pure: the record, the observed figure, how it was chosen). */
export function identify(
  record: GameRecord,
  query: IdentifyQuery,
  meta: { data_version: string; frozen_at: string },
  chosenBy: 'slug' | 'name',
  alternatives: IdentifyResponse['game']['alternatives'],
): IdentifyResponse {
  const figures = record.variants.map((v) => ({
    rtp: v.rtp,
    kind: v.kind,
    difference: round4(query.rtp - v.rtp),
    sources: record.sources.filter((s) => s.stated_rtp === v.rtp || s.rtp_variants.includes(v.rtp)).map((s) => s.url),
  }));
  // Nearest first; between two as near, the higher figure (the default build is the highest).
  const nearest = [...figures].sort((a, b) => Math.abs(a.difference) - Math.abs(b.difference) || b.rtp - a.rtp);
  const best = nearest[0];
  // 1e-9 absorbs the binary rounding of decimal figures (96.215 - 96.21 is 0.00499999…).
  const match = best !== undefined && Math.abs(query.rtp - best.rtp) <= IDENTIFY_TOLERANCE + 1e-9 ? best : null;
  return {
    meta: { data_version: meta.data_version, frozen_at: meta.frozen_at, tolerance: IDENTIFY_TOLERANCE, query },
    game: {
      canonical_slug: record.canonical_slug,
      canonical_name: record.canonical_name,
      provider: record.provider,
      provider_display: record.provider_display,
      stated_rtp: record.stated_rtp,
      source_url: record.source_url,
      chosen_by: chosenBy,
      alternatives,
    },
    verdict: match === null ? 'unknown' : match.rtp === record.stated_rtp ? 'default' : 'variant',
    match,
    nearest: nearest.slice(0, IDENTIFY_NEAREST),
    operators:
      match === null
        ? []
        : record.operators
            .filter((o) => o.rtp === match.rtp)
            .map((o) => ({
              operator: o.operator,
              display: o.display,
              market: o.market,
              rtp: o.rtp,
              build: o.build,
              pinned_at: o.source.pinned_at,
              url: o.source.url,
            })),
  };
}

/** A record's public JSON, parsed from the engine's bytes. */
function recordAt(engine: ListEngine, index: number): GameRecord {
  const buf = Buffer.allocUnsafe(engine.recordLength(index));
  engine.copyRecord(index, buf, 0);
  return JSON.parse(buf.toString('utf8')) as GameRecord;
}

/** Creates the identify route's handler over an engine; a slug merged into another record (`survivors`) names the survivor's game. */
export function createIdentifyHandler(engine: ListEngine, survivors: ReadonlyMap<string, string> = new Map()): IdentifyHandler {
  const meta = { data_version: engine.dataVersion, frozen_at: engine.frozenAt };
  return (input) => {
    const parsed = parseIdentifyQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const { query } = parsed;
    let index: number;
    let alternatives: IdentifyResponse['game']['alternatives'] = [];
    if (query.slug !== null) {
      index = engine.indexOfSlug(survivors.get(query.slug) ?? query.slug);
      if (index < 0) return jsonError(404, SLOT_NOT_FOUND);
    } else {
      // The list route's own search, best match first.
      const search = parseListQuery(new URLSearchParams({ q: query.name!, sort: 'relevance', limit: String(NAME_CANDIDATES) }));
      const found = search.ok ? engine.run(search.query).items : [];
      if (found.length === 0) return jsonError(404, NAME_NOT_FOUND);
      index = found[0]!;
      alternatives = Array.from(found)
        .slice(1)
        .map((i) => {
          const r = recordAt(engine, i);
          return { canonical_slug: r.canonical_slug, canonical_name: r.canonical_name };
        });
    }
    const body = identify(recordAt(engine, index), query, meta, query.slug !== null ? 'slug' : 'name', alternatives);
    return jsonOk(Buffer.from(JSON.stringify(body)), CACHE_LIST);
  };
}
