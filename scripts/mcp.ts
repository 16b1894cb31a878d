// `npm run mcp`: the registry's MCP server over stdio (src/mcp/stdio.ts), for AI assistants that
// launch it as a local tool. Reads the build in RTP_OUT_DIR (default dist/; `npm run build` first).
// stdout carries the protocol only: every message of this script goes to stderr. It exits once
// its input has ended and every answer owed has been written.
import path from 'node:path';
import { loadServices } from '../src/list/service.ts';
import { RpcDispatcher } from '../src/mcp/rpc.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { serveStdio } from '../src/mcp/stdio.ts';
import { readBuildInfo } from '../src/routes/build-info.ts';

const serverDir = path.join(path.resolve(process.env.RTP_OUT_DIR || 'dist'), 'server');
try {
  const services = await loadServices(serverDir);
  const { site } = await readBuildInfo(serverDir);
  const dispatcher = new RpcDispatcher(createMcpServer(services, site));
  console.error(`rtp-registry mcp: data ${services.dataVersion}, ${services.games} games, on stdio`);
  await serveStdio(dispatcher, process.stdin, process.stdout);
} catch (err) {
  console.error(`rtp-registry mcp: ${(err as Error).message}`);
  process.exitCode = 1;
}
