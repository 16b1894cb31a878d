// The SQLite FTS5 peer: the list route's semantics (q, filters, sorts, paging, facets) on SQLite, as a small reference server.
// Usage: node scripts/bench/sqlite-peer.ts <registry-bundle.json> <port>   (listens on 127.0.0.1; answers GET /api/rtp/list)
// Shares the route's parameter parsing and tokenizer, so only the evaluation differs. Uses better-sqlite3; falls back to Node's built-in node:sqlite (DatabaseSync) when the native module cannot load.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseListQuery } from '../../src/list/query.ts';
import { fold, queryTerms, tokenize } from '../../src/schemas/text.ts';
import type { ListQuery } from '../../src/schemas/list.ts';

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
  [k: string]: unknown;
}

export interface PeerBundle {
  meta: { data_version: string; frozen_at: string };
  providers: Array<{ provider: string; display: string }>;
  records: PeerRecord[];
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

/** An FTS5 MATCH expression: every term as a quoted prefix term, all required (MiniSearch's prefix + AND). */
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

/** The list semantics on SQLite: an indexed table of games plus an FTS5 table over name, slug and provider. */
export class SqliteList {
  readonly db: Db;
  readonly total: number;
  private readonly meta: PeerBundle['meta'];
  private readonly providerKeys: Set<string>;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly docStatement: ReturnType<Db['prepare']>;

  constructor(db: Db, bundle: PeerBundle) {
    this.db = db;
    this.meta = bundle.meta;
    this.total = bundle.records.length;
    this.providerKeys = new Set(bundle.records.map((r) => r.provider));
    const display = new Map(bundle.providers.map((p) => [p.provider, p.display]));
    for (const r of bundle.records) if (!display.has(r.provider)) display.set(r.provider, r.provider_display);
    // A narrow table of the columns queries filter and sort on (so scans stay cheap), the records'
    // JSON apart (fetched by id for the page only), providers apart, and the FTS5 index.
    db.exec(`
      CREATE TABLE g (
        id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, name_key TEXT NOT NULL, provider TEXT NOT NULL,
        display_key TEXT NOT NULL, game_type TEXT NOT NULL, stated_rtp REAL NOT NULL,
        variants_count INTEGER NOT NULL, release_year INTEGER, verified INTEGER NOT NULL);
      CREATE TABLE doc (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
      CREATE TABLE p (provider TEXT PRIMARY KEY, display TEXT NOT NULL) WITHOUT ROWID;
      CREATE VIRTUAL TABLE f USING fts5(name, slug, provider, display, tokenize = 'unicode61');
    `);
    const insG = db.prepare('INSERT INTO g VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const insD = db.prepare('INSERT INTO doc VALUES (?, ?)');
    const insP = db.prepare('INSERT INTO p VALUES (?, ?)');
    const insF = db.prepare('INSERT INTO f (rowid, name, slug, provider, display) VALUES (?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (const [key, shown] of display) insP.run(key, shown);
    bundle.records.forEach((r, i) => {
      const shown = display.get(r.provider)!;
      insG.run(i + 1, r.canonical_slug, fold(r.canonical_name), r.provider, fold(shown), r.game_type, r.stated_rtp, r.variants_count, r.release_year, Date.parse(r.last_verified));
      insD.run(i + 1, JSON.stringify(r));
      insF.run(i + 1, ftsText(r.canonical_name), ftsText(r.canonical_slug), ftsText(r.provider), ftsText(r.provider_display));
    });
    db.exec('COMMIT');
    db.exec(`
      CREATE INDEX g_name ON g (name_key, slug);
      CREATE INDEX g_by_provider ON g (display_key, name_key, slug);
      CREATE INDEX g_rtp_desc ON g (stated_rtp DESC, name_key, slug);
      CREATE INDEX g_rtp_asc ON g (stated_rtp, name_key, slug);
      CREATE INDEX g_variants ON g (variants_count DESC, name_key, slug);
      CREATE INDEX g_recent ON g (release_year DESC, verified DESC, name_key, slug);
      CREATE INDEX g_provider_facet ON g (provider, game_type, variants_count);
      CREATE INDEX g_type_facet ON g (game_type, variants_count, provider);
      ANALYZE;
    `);
    this.docStatement = db.prepare('SELECT json FROM doc WHERE id = ?');
  }

  private all<T>(sql: string, params: unknown[]): T[] {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st.all(...params) as T[];
  }

  /** WHERE conditions and parameters, leaving out one filter (for that filter's facet) and optionally q. */
  private where(query: ListQuery, omit: { provider?: boolean; game_type?: boolean; q?: boolean } = {}): { conds: string[]; params: unknown[] } {
    const conds: string[] = [];
    const params: unknown[] = [];
    if (query.q !== null && !omit.q) {
      const terms = queryTerms(query.q);
      if (terms.length === 0) conds.push('0');
      else {
        conds.push('g.id IN (SELECT rowid FROM f WHERE f MATCH ?)');
        params.push(ftsExpression(terms));
      }
    }
    if (query.provider !== null && !omit.provider) {
      conds.push('g.provider = ?');
      params.push(query.provider);
    }
    if (query.game_type !== null && !omit.game_type) {
      conds.push('g.game_type = ?');
      params.push(query.game_type);
    }
    if (query.has_variants) conds.push('g.variants_count > 1');
    return { conds, params };
  }

  private static clause(conds: readonly string[]): string {
    return conds.length > 0 ? `WHERE ${conds.join(' AND ')}` : '';
  }

  /** The page of records (JSON texts) in the query's order: ids from the ordered query, then each record by id. */
  private page(query: ListQuery): string[] {
    const terms = query.q === null ? [] : queryTerms(query.q);
    let ids: Array<{ id: number }>;
    if (query.sort === 'relevance' && terms.length > 0) {
      const w = this.where(query, { q: true });
      ids = this.all<{ id: number }>(
        `SELECT g.id AS id FROM f JOIN g ON g.id = f.rowid WHERE f MATCH ?${w.conds.map((c) => ` AND ${c}`).join('')} ORDER BY ${ORDER.relevance} LIMIT ? OFFSET ?`,
        [ftsExpression(terms), ...w.params, query.limit, query.offset],
      );
    } else {
      const w = this.where(query);
      const sort = query.sort === 'relevance' ? 'name' : query.sort;
      ids = this.all<{ id: number }>(`SELECT g.id AS id FROM g ${SqliteList.clause(w.conds)} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`, [...w.params, query.limit, query.offset]);
    }
    return ids.map((r) => (this.docStatement.all(r.id)[0] as { json: string }).json);
  }

  /** Answers one validated, normalised list query with the list response as JSON text. */
  answer(query: ListQuery): string {
    const items = this.page(query);
    const w = this.where(query);
    const filtered = this.all<{ n: number }>(`SELECT count(*) AS n FROM g ${SqliteList.clause(w.conds)}`, w.params)[0]!.n;
    const wp = this.where(query, { provider: true });
    const providers = this.all<{ provider: string; display: string; count: number }>(
      `SELECT c.provider AS provider, p.display AS display, c.n AS count FROM (SELECT g.provider AS provider, count(*) AS n FROM g ${SqliteList.clause(wp.conds)} GROUP BY g.provider) c JOIN p ON p.provider = c.provider`,
      wp.params,
    ).map((r) => ({ provider: r.provider, display: r.display, count: r.count }));
    if (query.provider !== null && this.providerKeys.has(query.provider) && !providers.some((p) => p.provider === query.provider)) {
      const display = this.all<{ d: string }>('SELECT display AS d FROM p WHERE provider = ?', [query.provider])[0]!.d;
      providers.push({ provider: query.provider, display, count: 0 });
    }
    providers.sort((a, b) => b.count - a.count || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
    const wt = this.where(query, { game_type: true });
    const gameTypes = this.all<{ game_type: string; count: number }>(
      `SELECT g.game_type AS game_type, count(*) AS count FROM g ${SqliteList.clause(wt.conds)} GROUP BY g.game_type`,
      wt.params,
    ).map((r) => ({ game_type: r.game_type, count: r.count }));
    if (query.game_type !== null && !gameTypes.some((t) => t.game_type === query.game_type)) gameTypes.push({ game_type: query.game_type, count: 0 });
    gameTypes.sort((a, b) => b.count - a.count || (a.game_type < b.game_type ? -1 : a.game_type > b.game_type ? 1 : 0));
    const meta = {
      data_version: this.meta.data_version,
      frozen_at: this.meta.frozen_at,
      total: this.total,
      filtered,
      has_more: query.offset + items.length < filtered,
      query,
    };
    return `{"meta":${JSON.stringify(meta)},"facets":${JSON.stringify({ providers, game_types: gameTypes })},"items":[${items.join(',')}]}`;
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
