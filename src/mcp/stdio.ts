// The MCP server over stdio (`npm run mcp`): one JSON-RPC message or batch per line (MCP stdio
// transport), each line answered through the same envelope as POST /mcp (src/mcp/rpc.ts), in the
// order the lines came. A line longer than MCP_MESSAGE_BYTES is dropped with a -32600, a line that
// is not JSON gets a -32700, and every answer owed is written before the input's end is honoured.

import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { MCP_MESSAGE_BYTES, RPC, rpcError } from '../schemas/rpc.ts';
import { parseMessage, type RpcDispatcher } from './rpc.ts';

/** Lines read ahead of their answers before the input is paused. */
export const STDIO_LINES_AHEAD = 32;

const LINE_TOO_LONG = JSON.stringify(
  rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: a line longer than ${MCP_MESSAGE_BYTES} bytes`, {
    code: 'ERR_MCP_LINE_TOO_LONG',
    max_bytes: MCP_MESSAGE_BYTES,
  }),
);

/**
 * Answers the lines of `input` on `output` until the input ends; resolves once every answer owed
 * has been written (the output is not ended: it may be the process's stdout).
 */
export async function serveStdio(dispatcher: RpcDispatcher, input: Readable, output: Writable): Promise<void> {
  const lines: Array<string | null> = [];
  let parts: Buffer[] = [];
  let size = 0;
  let overlong = false;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const push = (line: string | null) => {
    lines.push(line);
    if (lines.length >= STDIO_LINES_AHEAD) input.pause();
    notify();
  };
  const endLine = () => {
    if (overlong) push(null);
    else if (size > 0) push(Buffer.concat(parts, size).toString('utf8'));
    parts = [];
    size = 0;
    overlong = false;
  };
  input.on('data', (chunk: Buffer) => {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      // Past the cap the rest of the line is skipped, never kept.
      if (!overlong) {
        if (size + piece.length > MCP_MESSAGE_BYTES) {
          overlong = true;
          parts = [];
          size = 0;
        } else if (piece.length > 0) {
          parts.push(Buffer.from(piece));
          size += piece.length;
        }
      }
      if (nl < 0) break;
      endLine();
      from = nl + 1;
    }
  });
  input.once('end', () => {
    endLine();
    ended = true;
    notify();
  });

  const write = async (text: string) => {
    if (!output.write(`${text}\n`)) await once(output, 'drain');
  };

  for (;;) {
    const line = lines.shift();
    if (line === undefined) {
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    if (lines.length < STDIO_LINES_AHEAD / 2 && !ended) input.resume();
    if (line === null) {
      await write(LINE_TOO_LONG);
      continue;
    }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') continue;
    const parsed = parseMessage(text);
    if (!parsed.ok) {
      await write(parsed.answer);
      continue;
    }
    const answer = await dispatcher.answer(parsed.value);
    if (answer !== null) await write(answer.text);
  }
  // Everything written has left for the output before the caller exits.
  if (output.writableNeedDrain) await once(output, 'drain');
}
