// `npm run mcp`: the registry's MCP server over stdio (src/mcp/stdio.ts), for AI assistants that
// launch it as a local tool. Reads the build in RTP_OUT_DIR (default dist/; `npm run build` first).
// stdout carries the protocol only: every message of this script goes to stderr. It exits once
// its input has ended and every answer owed has been written.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadServices } from '../src/list/service.ts';
import { RpcDispatcher } from '../src/mcp/rpc.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { serveStdio } from '../src/mcp/stdio.ts';
import { DEFAULT_SITE } from '../src/routes/urls.ts';
import { BUILD_INFO_FILE } from '../src/schemas/dist.ts';

const serverDir = path.join(path.resolve(process.env.RTP_OUT_DIR || 'dist'), 'server');
try {
  const services = await loadServices(serverDir);
  const info = JSON.parse(await readFile(path.join(serverDir, BUILD_INFO_FILE), 'utf8')) as { site?: string };
  const dispatcher = new RpcDispatcher(createMcpServer(services, info.site ?? DEFAULT_SITE));
  console.error(`rtp-registry mcp: data ${services.dataVersion}, ${services.games} games, on stdio`);
  await serveStdio(dispatcher, process.stdin, process.stdout);
} catch (err) {
  console.error(`rtp-registry mcp: ${(err as Error).message}`);
  process.exitCode = 1;
}
