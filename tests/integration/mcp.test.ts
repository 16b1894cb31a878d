// The MCP server over both transports with the SDK's own client: streamable HTTP (POST /mcp on the
// real server, rate limited like the list route, bodies bounded) and stdio (`npm run mcp`'s script).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BODY_BYTES } from '../../src/server/mcp-http.ts';
import { REPO_ROOT, type Server, startServer, testOutDir } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '12' } });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

type Result = { structuredContent?: Record<string, unknown>; isError?: boolean };

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['get_game', 'identify_build', 'list_providers', 'operator_build', 'registry_info', 'search_games']);
  const found = (await client.callTool({ name: 'search_games', arguments: { q: 'book of dead', sort: 'relevance', limit: 2 } })) as Result;
  const games = found.structuredContent as { games: Array<{ slug: string; source_url: string }>; data_version: string; license: string };
  expect(games.games[0]!.slug).toBe('book-of-dead');
  expect(games.license).toBe('CC-BY-4.0');
  const info = (await client.callTool({ name: 'registry_info', arguments: {} })) as Result;
  expect(info.structuredContent).toMatchObject({ name: 'RTP Registry', license: 'CC-BY-4.0' });
}

describe('MCP', () => {
  it('over streamable HTTP: POST /mcp answers the SDK client', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    await exercise(client);
    await client.close();
  });

  it('over stdio: the npm run mcp script answers the SDK client', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'scripts/mcp.ts')],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), RTP_OUT_DIR: testOutDir() },
      stderr: 'pipe',
    });
    await client.connect(transport);
    await exercise(client);
    await client.close();
  });

  it('bounds the body, rejects what is not JSON or not POST, with JSON-RPC errors, and counts requests', async () => {
    const post = (body: string | Buffer) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
    const big = await post(Buffer.alloc(MCP_BODY_BYTES + 1, 0x20));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: `request body larger than ${MCP_BODY_BYTES} bytes` }, id: null });
    const junk = await post('{"jsonrpc":');
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const get = await fetch(`${server.url}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    // The budget of 12 is spent by now (the HTTP client's calls and these): the next is a 429.
    let status = 0;
    for (let k = 0; k < 12 && status !== 429; k++) status = (await post('{}')).status;
    expect(status).toBe(429);
  });
});
