// The throughput ceiling: a bare node:http server answering fixed paths with recorded responses (same bytes, same headers).
// Usage: node scripts/bench/ceiling.ts <fixtures.json> <port>   (fixtures: {path: {status, headers, body_base64}}); listens on 127.0.0.1.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [fixturesFile, portArg] = process.argv.slice(2) as [string, string];
const raw = JSON.parse(readFileSync(fixturesFile, 'utf8')) as Record<string, { status: number; headers: Record<string, string>; body_base64: string }>;
const table = new Map(Object.entries(raw).map(([p, f]) => [p, { status: f.status, headers: f.headers, body: Buffer.from(f.body_base64, 'base64') }]));

const server = createServer((req, res) => {
  const hit = table.get(req.url ?? '');
  if (!hit) {
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"statusCode":404,"statusMessage":"not a fixture"}');
    return;
  }
  res.writeHead(hit.status, hit.headers);
  res.end(hit.body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log(`ceiling ready on 127.0.0.1:${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
