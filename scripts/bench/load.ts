// HTTP load runs with autocannon (programmatic), on loopback only; latencies recorded per response at sub-millisecond precision.
import http from 'node:http';
import autocannon from 'autocannon';
import { percentileOfSorted } from './stats.ts';

/**
 * The clients the load stands for, one per connection (203.0.113.1 to .32, RFC 5737), sent as
 * X-Forwarded-For: the server under test trusts 127.0.0.1 as a proxy, as behind the edge's nginx
 * (src/emit/nginx.ts), so its rate limiter and access log see many clients.
 */
export const CLIENT_ADDRESSES = Array.from({ length: 32 }, (_, k) => `203.0.113.${k + 1}`);
let nextAddress = 0;

/** What a scenario sends: one fixed path, a fixed list cycled in order across all connections, or a generator. */
export type Target = { kind: 'fixed'; path: string } | { kind: 'cycle'; paths: readonly string[] } | { kind: 'stream'; next: () => string };

/** One timed load run. */
export interface LoadRun {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** A path source with a cursor shared by all connections (so a cycle or stream is walked once, in order, overall). */
export function pathSource(target: Target): () => string {
  if (target.kind === 'fixed') return () => target.path;
  if (target.kind === 'stream') return target.next;
  const paths = target.paths;
  if (paths.length === 0) throw new Error('load: empty path cycle');
  let i = 0;
  return () => paths[i++ % paths.length]!;
}

/**
 * Runs autocannon against `baseUrl` (must be http://127.0.0.1:<port>) for `durationS` seconds with
 * `connections` connections. Latency percentiles come from every response's own time (ms, float);
 * req/s is completed responses over the measured duration.
 */
export async function runLoad(opts: { baseUrl: string; connections: number; durationS: number; next: () => string; fixedPath?: string }): Promise<LoadRun> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(opts.baseUrl)) throw new Error(`load: loopback only, got ${opts.baseUrl}`);
  const requests: autocannon.Request[] =
    opts.fixedPath !== undefined
      ? [{ method: 'GET', path: opts.fixedPath }]
      : [
          {
            method: 'GET',
            setupRequest: (req) => {
              req.path = opts.next();
              return req;
            },
          },
        ];
  const lat: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const setupClient = (client: autocannon.Client) => client.setHeaders({ 'x-forwarded-for': CLIENT_ADDRESSES[nextAddress++ % CLIENT_ADDRESSES.length]! });
    const options = { url: opts.baseUrl, connections: opts.connections, duration: opts.durationS, timeout: 10, requests, setupClient };
    const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, _status, _bytes, ms) => lat.push(ms));
  });
  const n = lat.length;
  const sortedLat = Float64Array.from(lat).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = s.count ?? 0;
  const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const durationS = result.duration > 0 ? result.duration : opts.durationS;
  return {
    reqPerSec: completed / durationS,
    p50: n > 0 ? percentileOfSorted(sortedLat, 50) : Number.NaN,
    p99: n > 0 ? percentileOfSorted(sortedLat, 99) : Number.NaN,
    requests: completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/**
 * GETs one loopback URL with node:http (no Accept-Encoding, like the load generator) and returns
 * status, headers (hop-by-hop ones dropped) and body bytes.
 */
export function fetchRaw(url: string, timeoutMs = 30_000): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        const drop = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
        for (const [k, v] of Object.entries(res.headers)) if (!drop.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        headers['content-length'] = String(body.length);
        resolve({ status: res.statusCode ?? 0, headers, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', reject);
  });
}
