// Loopback load for the hardening tests: many client addresses (127.0.0.N, each its own keep-alive
// agent), bounded request counts, and raw sockets for slow or malformed clients.
import http from 'node:http';
import net from 'node:net';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** One GET from `localAddress` (default 127.0.0.1); status 0 when the connection failed. */
export function get(url: string, options: { agent?: http.Agent; localAddress?: string; headers?: http.OutgoingHttpHeaders } = {}): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent: options.agent, localAddress: options.localAddress, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
      );
      res.on('error', () => resolve({ status: 0, headers: {}, body: '', ms: performance.now() - started }));
    });
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, headers: {}, body: '', ms: performance.now() - started }));
  });
}

/** Keep-alive agents bound to 127.0.0.`first` … 127.0.0.`first + count - 1`. */
export function agents(count: number, first = 2, perAgentSockets = 2): http.Agent[] {
  return Array.from(
    { length: count },
    (_, k) =>
      new http.Agent({ keepAlive: true, maxSockets: perAgentSockets, localAddress: `127.0.${Math.floor((first + k) / 250)}.${((first + k) % 250) + 1}` }),
  );
}

/**
 * Sends `total` requests, `concurrency` at a time, the k-th to `target(k)` through agent `k mod n`;
 * resolves with the count of each status.
 */
export async function blast(base: string, total: number, concurrency: number, pool: http.Agent[], target: (k: number) => string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const k = next++;
      const r = await get(base + target(k), { agent: pool[k % pool.length] });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/** Writes `bytes` on a fresh connection and collects everything the server sends until it closes. */
export function exchange(port: number, bytes: string, localAddress = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(30_000, () => socket.destroy());
  });
}
