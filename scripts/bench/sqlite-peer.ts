// The SQLite FTS5 peer: the list route's semantics (q, filters, sorts, paging, facets) on SQLite, as a small reference server.
// Usage: node scripts/bench/sqlite-peer.ts <registry-bundle.json> <port>   (listens on 127.0.0.1; answers GET /api/rtp/list)
// Shares the route's parameter parsing and tokenizer, so only the evaluation differs. Uses better-sqlite3; falls back to Node's built-in node:sqlite (DatabaseSync) when the native module cannot load.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseListQuery } from '../../src/list/query.ts';
import { fold, queryTerms, tokenize } from '../../src/schemas/text.ts';
import type { ListQuery } from '../../src/schemas/list.ts';
import { LIST_ITEM_FIELDS } from '../../src/schemas/list-item.ts';

/** The public record fields the peer indexes (the rest is carried as JSON text). */
export interface PeerRecord {
  canonical_slug: string;
  canonical_name: string;
  provider: string;
  provider_display: string;
  stated_rtp: number;
  variants_count: number;
  release_year: number | null;
  game_type: string;
  last_verified: string;
  confidence: string;
  [k: string]: unknown;
}

/** The operator build facet of a registry without operators: every build, counted 0. */
const NO_OPERATOR_BUILDS = [{ operator_build: 'top', count: 0 }, { operator_build: 'lower', count: 0 }, { operator_build: 'higher', count: 0 }];

export interface PeerBundle {
  meta: { data_version: string; frozen_at: string };
  providers: Array<{ provider: string; display: string; group?: string | null | undefined; aliases?: string[] | undefined }>;
  records: PeerRecord[];
  /** The registry's operators: the peer answers only registries without any. */
  operators?: unknown[];
}

/** The smallest common surface of better-sqlite3 and node:sqlite. */
interface Db {
  exec(sql: string): void;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; run(...params: unknown[]): unknown };
  close(): void;
}

/** Which SQLite binding the peer runs on. */
export type Driver = 'better-sqlite3' | 'node:sqlite';

/** Opens an in-memory database with better-sqlite3, or node:sqlite when better-sqlite3 is unavailable (or `prefer` says so). */
export async function openDb(prefer?: Driver): Promise<{ db: Db; driver: Driver; version: string }> {
  if (prefer !== 'node:sqlite') {
    try {
      const mod = (await import('better-sqlite3')) as { default: new (f: string) => Db };
      const db = new mod.default(':memory:');
      const version = (db.prepare('select sqlite_version() as v').all()[0] as { v: string }).v;
      return { db, driver: 'better-sqlite3', version };
    } catch (err) {
      if (prefer === 'better-sqlite3') throw err;
    }
  }
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(':memory:') as unknown as Db;
  const version = (db.prepare('select sqlite_version() as v').all()[0] as { v: string }).v;
  return { db, driver: 'node:sqlite', version };
}

/** An FTS5 MATCH expression: every term as a quoted prefix term, all required (the route's prefix matching and AND). */
export function ftsExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' AND ');
}

/** The route's tokens of a text, joined by spaces: what the FTS5 table stores, so both sides split words alike. */
function ftsText(value: string): string {
  return tokenize(value).join(' ');
}

/** ORDER BY per sort: the orders of src/list/memory-engine.ts (ties by folded name, then slug); each has an index. */
const ORDER: Record<ListQuery['sort'], string> = {
  name: 'g.name_key, g.slug',
  provider: 'g.display_key, g.name_key, g.slug',
  rtp_desc: 'g.stated_rtp DESC, g.name_key, g.slug',
  rtp_asc: 'g.stated_rtp, g.name_key, g.slug',
  variants_desc: 'g.variants_count DESC, g.name_key, g.slug',
  // SQLite sorts NULL first ascending, so last descending: unknown years come last, as in the route.
  recent: 'g.release_year DESC, g.verified DESC, g.name_key, g.slug',
  relevance: 'f.rank, g.slug',
};

/** One row of a facet cube: games per provider, game type, whether they have variants, confidence level and volatility. */
interface CubeRow {
  provider: string;
  game_type: string;
  multi: number;
  confidence: string;
  volatility: string | null;
  n: number;
}

const CUBE = 'SELECT g.provider AS provider, g.game_type AS game_type, g.variants_count > 1 AS multi, g.confidence AS confidence, g.volatility AS volatility, count(*) AS n FROM g';

/** Confidence levels in facet order (ties by count). */
const LEVELS = ['verified', 'corroborated', 'single_source'];

/**
 * The list semantics on SQLite, as a SQLite user would write them: an indexed table of games with
 * their JSON, an FTS5 table over name, slug and provider, and per request at most three statements,
 * each prepared once: the FTS match run once into a temporary table (with its rank), one GROUP BY
 * over the matches for the facets (without q, the counts are precounted at load), and one query for
 * the page with its records' JSON.
 */
export class SqliteList {
  readonly db: Db;
  readonly total: number;
  private readonly meta: PeerBundle['meta'];
  private readonly display = new Map<string, string>();
  private readonly providerKeys: Set<string>;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  /** Facet counts of the whole registry, counted once at load. */
  private readonly allCube: CubeRow[];

  constructor(db: Db, bundle: PeerBundle) {
    // The operator facets are modelled for registries without operators only (the bench's synthetic ones).
    if ((bundle.operators ?? []).length > 0) throw new Error('the SQLite peer models registries without operators (the synthetic registries of the benchmark)');
    this.db = db;
    this.meta = bundle.meta;
    this.total = bundle.records.length;
    this.providerKeys = new Set(bundle.records.map((r) => r.provider));
    for (const p of bundle.providers) this.display.set(p.provider, p.display);
    for (const r of bundle.records) if (!this.display.has(r.provider)) this.display.set(r.provider, r.provider_display);
    db.exec(`
      CREATE TABLE g (
        id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, name_key TEXT NOT NULL, provider TEXT NOT NULL,
        display_key TEXT NOT NULL, game_type TEXT NOT NULL, stated_rtp REAL NOT NULL,
        variants_count INTEGER NOT NULL, release_year INTEGER, verified INTEGER NOT NULL, confidence TEXT NOT NULL,
        volatility TEXT, max_win REAL);
      CREATE TABLE doc (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
      CREATE VIRTUAL TABLE f USING fts5(name, slug, provider, display, also, tokenize = 'unicode61');
      CREATE TEMP TABLE m (id INTEGER PRIMARY KEY, rank REAL NOT NULL);
    `);
    const insG = db.prepare('INSERT INTO g VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const insD = db.prepare('INSERT INTO doc VALUES (?, ?)');
    const insF = db.prepare('INSERT INTO f (rowid, name, slug, provider, display, also) VALUES (?, ?, ?, ?, ?, ?)');
    // A provider's group and source labels are searched too (as the route's index does).
    const also = new Map(bundle.providers.map((p) => [p.provider, [p.group ?? '', ...(p.aliases ?? [])].join(' ')]));
    db.exec('BEGIN');
    bundle.records.forEach((r, i) => {
      const shown = this.display.get(r.provider)!;
      insG.run(i + 1, r.canonical_slug, fold(r.canonical_name), r.provider, fold(shown), r.game_type, r.stated_rtp, r.variants_count, r.release_year, Date.parse(r.last_verified), r.confidence, r.volatility, r.max_win);
      // The route's default item (its answers without include= or fields=).
      insD.run(i + 1, JSON.stringify(Object.fromEntries(LIST_ITEM_FIELDS.map((f) => [f, r[f]]))));
      insF.run(i + 1, ftsText(r.canonical_name), ftsText(r.canonical_slug), ftsText(r.provider), ftsText(r.provider_display), ftsText(also.get(r.provider) ?? ''));
    });
    db.exec('COMMIT');
    db.exec(`
      CREATE INDEX g_name ON g (name_key, slug);
      CREATE INDEX g_by_provider ON g (display_key, name_key, slug);
      CREATE INDEX g_rtp_desc ON g (stated_rtp DESC, name_key, slug);
      CREATE INDEX g_rtp_asc ON g (stated_rtp, name_key, slug);
      CREATE INDEX g_variants ON g (variants_count DESC, name_key, slug);
      CREATE INDEX g_recent ON g (release_year DESC, verified DESC, name_key, slug);
      CREATE INDEX g_provider ON g (provider, game_type, variants_count);
      CREATE INDEX g_type ON g (game_type, variants_count);
      ANALYZE;
    `);
    this.allCube = this.all<CubeRow>(`${CUBE} GROUP BY 1, 2, 3, 4, 5`, []);
  }

  private statement(sql: string): ReturnType<Db['prepare']> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private all<T>(sql: string, params: unknown[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /** WHERE conditions on g and their parameters for the query's filters. */
  private static filters(query: ListQuery): { conds: string[]; params: unknown[] } {
    const conds: string[] = [];
    const params: unknown[] = [];
    if (query.provider !== null) {
      conds.push('g.provider = ?');
      params.push(query.provider);
    }
    if (query.game_type !== null) {
      conds.push('g.game_type = ?');
      params.push(query.game_type);
    }
    if (query.has_variants) conds.push('g.variants_count > 1');
    if (query.confidence !== null) {
      conds.push('g.confidence = ?');
      params.push(query.confidence);
    }
    if (query.volatility !== null) conds.push(`g.volatility IN (${query.volatility.map((v) => `'${v}'`).join(', ')})`);
    const ranges = SqliteList.ranges(query);
    return { conds: [...conds, ...ranges.conds], params: [...params, ...ranges.params] };
  }

  /** WHERE conditions for the range filters (a NULL figure fails every comparison, as in the route). */
  private static ranges(query: ListQuery): { conds: string[]; params: unknown[] } {
    const conds: string[] = [];
    const params: unknown[] = [];
    const add = (cond: string, value: number | null) => {
      if (value === null) return;
      conds.push(cond);
      params.push(value);
    };
    add('g.stated_rtp >= ?', query.rtp_min);
    add('g.stated_rtp <= ?', query.rtp_max);
    add('g.max_win >= ?', query.max_win_min);
    add('g.release_year >= ?', query.released_after);
    add('g.release_year <= ?', query.released_before);
    return { conds, params };
  }

  /** Runs the FTS match once into the temporary table m (rowid, and bm25 rank when the sort needs it); false when q has no terms. */
  private match(q: string, ranked: boolean): boolean {
    const terms = queryTerms(q);
    this.statement('DELETE FROM m').run();
    if (terms.length === 0) return false;
    this.statement(`INSERT INTO m (id, rank) SELECT rowid, ${ranked ? 'rank' : '0'} FROM f WHERE f MATCH ?`).run(ftsExpression(terms));
    return true;
  }

  /**
   * The page's records (JSON texts) in the query's order, in one statement: the ids of the page from
   * the narrow table (so deep offsets skip small rows), each record's JSON looked up by id.
   */
  private page(query: ListQuery, matched: boolean): string[] {
    const w = SqliteList.filters(query);
    const sort = query.sort === 'relevance' && !matched ? 'name' : query.sort;
    const order = sort === 'relevance' ? 'm.rank, g.slug' : ORDER[sort];
    // Under relevance the page walks the matches by rank; otherwise a sort index, keeping matches.
    if (matched && sort !== 'relevance') w.conds.unshift('g.id IN (SELECT id FROM m)');
    const from = matched && sort === 'relevance' ? 'm JOIN g ON g.id = m.id' : 'g';
    const where = w.conds.length > 0 ? `WHERE ${w.conds.join(' AND ')}` : '';
    const ids = `SELECT g.id AS id FROM ${from} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`;
    return this.all<{ json: string }>(`SELECT (SELECT json FROM doc WHERE doc.id = p.id) AS json FROM (${ids}) AS p`, [...w.params, query.limit, query.offset]).map((r) => r.json);
  }

  /** Answers one validated, normalised list query with the list response as JSON text. */
  answer(query: ListQuery): string {
    let cube = this.allCube;
    let matched = false;
    const ranges = SqliteList.ranges(query);
    if (query.q !== null) matched = this.match(query.q, query.sort === 'relevance');
    if (query.q !== null && !matched) cube = [];
    else if (matched || ranges.conds.length > 0) {
      const conds = [...(matched ? ['g.id IN (SELECT id FROM m)'] : []), ...ranges.conds];
      cube = this.all<CubeRow>(`${CUBE} WHERE ${conds.join(' AND ')} GROUP BY 1, 2, 3, 4, 5`, ranges.params);
    }
    const items = query.q !== null && !matched ? [] : this.page(query, matched);
    const hv = (r: CubeRow) => !query.has_variants || r.multi === 1;
    const byProvider = new Map<string, number>();
    const byType = new Map<string, number>();
    const byConfidence = new Map<string, number>();
    const byLevel = new Map<string, number>();
    let filtered = 0;
    for (const r of cube) {
      if (!hv(r)) continue;
      const providerOk = query.provider === null || r.provider === query.provider;
      const typeOk = query.game_type === null || r.game_type === query.game_type;
      const confOk = query.confidence === null || r.confidence === query.confidence;
      const levelOk = query.volatility === null || (r.volatility !== null && (query.volatility as string[]).includes(r.volatility));
      if (typeOk && confOk && levelOk) byProvider.set(r.provider, (byProvider.get(r.provider) ?? 0) + r.n);
      if (providerOk && confOk && levelOk) byType.set(r.game_type, (byType.get(r.game_type) ?? 0) + r.n);
      if (providerOk && typeOk && levelOk) byConfidence.set(r.confidence, (byConfidence.get(r.confidence) ?? 0) + r.n);
      if (providerOk && typeOk && confOk && r.volatility !== null) byLevel.set(r.volatility, (byLevel.get(r.volatility) ?? 0) + r.n);
      if (providerOk && typeOk && confOk && levelOk) filtered += r.n;
    }
    if (query.confidence !== null && !byConfidence.has(query.confidence)) byConfidence.set(query.confidence, 0);
    if (query.provider !== null && this.providerKeys.has(query.provider) && !byProvider.has(query.provider)) byProvider.set(query.provider, 0);
    if (query.game_type !== null && !byType.has(query.game_type)) byType.set(query.game_type, 0);
    for (const level of query.volatility ?? []) if (!byLevel.has(level)) byLevel.set(level, 0);
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const providers = [...byProvider].map(([provider, count]) => ({ provider, display: this.display.get(provider)!, count })).sort((a, b) => b.count - a.count || cmp(a.provider, b.provider));
    const gameTypes = [...byType].map(([game_type, count]) => ({ game_type, count })).sort((a, b) => b.count - a.count || cmp(a.game_type, b.game_type));
    const confidence = [...byConfidence].map(([level, count]) => ({ confidence: level, count })).sort((a, b) => b.count - a.count || LEVELS.indexOf(a.confidence) - LEVELS.indexOf(b.confidence));
    const volatilities = [...byLevel].map(([volatility, count]) => ({ volatility, count })).sort((a, b) => b.count - a.count || cmp(a.volatility, b.volatility));
    const meta = {
      data_version: this.meta.data_version,
      frozen_at: this.meta.frozen_at,
      total: this.total,
      filtered,
      has_more: query.offset + items.length < filtered,
      query,
    };
    return `{"meta":${JSON.stringify(meta)},"facets":${JSON.stringify({ providers, game_types: gameTypes, confidence, volatilities, operators: [], operator_builds: NO_OPERATOR_BUILDS })},"items":[${items.join(',')}]}`;
  }
}

/** Status and JSON body for a list request's query string (parameters read by the route's own parser). */
export function handleList(list: SqliteList, search: string): { status: number; body: string } {
  const parsed = parseListQuery(search);
  if (!parsed.ok) return { status: 400, body: JSON.stringify({ statusCode: 400, statusMessage: 'invalid query parameters', errors: parsed.errors }) };
  return { status: 200, body: list.answer(parsed.query) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [bundleFile, portArg] = process.argv.slice(2);
  if (!bundleFile || !portArg) {
    console.error('usage: node scripts/bench/sqlite-peer.ts <registry-bundle.json> <port>');
    process.exit(2);
  }
  const { db, driver, version } = await openDb(process.env.PEER_DRIVER === 'node:sqlite' ? 'node:sqlite' : undefined);
  // The parsed bundle is dropped once loaded into SQLite (only SQLite holds the records from then on).
  const list = new SqliteList(db, JSON.parse(readFileSync(bundleFile, 'utf8')) as PeerBundle);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=0, s-maxage=300',
    'access-control-allow-origin': '*',
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const pathname = qi === -1 ? url : url.slice(0, qi);
    if (pathname !== '/api/rtp/list') {
      res.writeHead(404, headers);
      res.end('{"statusCode":404,"statusMessage":"not found"}');
      return;
    }
    try {
      const { status, body } = handleList(list, qi === -1 ? '' : url.slice(qi + 1));
      res.writeHead(status, headers);
      res.end(body);
    } catch {
      res.writeHead(500, headers);
      res.end('{"statusCode":500,"statusMessage":"peer error"}');
    }
  });
  server.listen(Number(portArg), '127.0.0.1', () => console.log(`sqlite peer ready on 127.0.0.1:${portArg} (${driver}, SQLite ${version}, ${list.total} games)`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
