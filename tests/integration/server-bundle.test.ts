// The production server is a bundle (dist/server/runtime, src/emit/server-bundle.ts) that the e2e
// tests run; `npm start` runs the same server from src/. Both answer every kind of route with the
// same bytes, and `npm run serve` names the fix when the bundle is missing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type Server, startServer } from '../helpers/server.ts';

let bundled: Server;
let sources: Server;
beforeAll(async () => {
  const env = { RATE_LIMIT: '0', ACCESS_LOG: 'off' };
  [bundled, sources] = await Promise.all([startServer({ env }), startServer({ env, entry: path.join(REPO_ROOT, 'src/server/main.ts') })]);
});
afterAll(async () => {
  expect(await bundled.stop()).toBe(0);
  expect(await sources.stop()).toBe(0);
});

async function answer(base: string, p: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(base + p, init);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

const MCP_INIT: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  }),
};

describe('the bundled server', () => {
  it('answers list, search, history, identify, static, error and MCP requests with the same bytes as the sources', async () => {
    const cases: Array<[string, RequestInit?]> = [
      ['/api/rtp/list?q=bok+of+ded&sort=relevance&limit=3'],
      ['/api/rtp/list?provider=playngo&sort=rtp_desc&limit=100'],
      ['/api/rtp/list?slugs=book-of-dead,starburst'],
      ['/api/rtp/list?limit=0'],
      ['/api/rtp/history?slug=book-of-dead'],
      ['/api/rtp/identify?name=Book+of+Dead'],
      ['/api/rtp/book-of-dead'],
      ['/widget/rtp/book-of-dead'],
      ['/rtp/book-of-dead'],
      ['/api/rtp/no-such-game'],
      ['/mcp', MCP_INIT],
    ];
    for (const [p, init] of cases) {
      const [a, b] = await Promise.all([answer(bundled.url, p, init), answer(sources.url, p, init)]);
      expect(a.status, p).toBe(b.status);
      expect(a.type, p).toBe(b.type);
      expect(a.body.equals(b.body), p).toBe(true);
    }
    expect((await answer(bundled.url, '/mcp', MCP_INIT)).body.toString('utf8')).toContain('"serverInfo":{"name":"rtp-registry"');
  });

  it('npm run serve names the fix when the build has no bundled server', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'rtp-serve-'));
    try {
      const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/serve.mjs')], {
        env: { ...process.env, RTP_OUT_DIR: empty },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(
        `serve: ${path.join(empty, 'server/runtime/server.mjs')} is missing: build first with \`npm run build\` (or run \`npm start\`, which builds when needed).`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
