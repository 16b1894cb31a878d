// `npm run edge` answering as an instance answers what nginx would otherwise answer its own way
// (real nginx, real instances, a real redis-server): preconditions on files, TRACE and other
// methods, an Expect other than 100-continue, each compared byte for byte with an instance's answer;
// HTTP/0.9 refused unanswered; a head that never ends closed. The rest of the header parity: edge.test.ts.

import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/routes/paths.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { removeTemp, tempDir } from '../helpers/browser.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { comparable, NOT_COMPARED, parseAnswer, type RunningEdge, startEdge, VALIDATORS } from '../helpers/edge.ts';
import { exchange } from '../helpers/load.ts';
import { familySamples } from '../helpers/route-samples.ts';
import { testDataDir, testOutDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const game = data.games.find((g) => g.provider === data.providers[0]!.provider)!;
const SAMPLES = familySamples({
  slug: game.canonical_slug,
  provider: game.provider,
  version: data.meta.data_version,
  asset: `/_astro/${readdirSync(path.join(testOutDir(), 'client/_astro')).sort()[0]!}`,
});

describe('npm run edge: what nginx would answer its own way, answered as an instance does', () => {
  let dir: string;
  let edge: RunningEdge;

  beforeAll(async () => {
    dir = await tempDir('rtp-edge-parity-');
    edge = await startEdge(dir, 2, { RATE_LIMIT: '0' });
  });

  afterAll(async () => {
    if (edge !== undefined) {
      expect(await edge.stop()).toBe(0);
      expect(edge.running()).toEqual([]);
    }
    await removeTemp(dir);
  });

  it('answers as an instance does what nginx would answer otherwise: preconditions on files, TRACE and other methods, Expect; refuses HTTP/0.9', async () => {
    const node = edge.state.instances[0]!.port;
    // From an address of its own: the instances count some of these, and the budget of the others stays whole.
    const from = '127.0.0.6';
    const [provider, asset] = [SAMPLES.provider[0]!, SAMPLES.asset[0]!];
    const cases: Array<[string, string, number, ReadonlySet<string>]> = [
      // nginx would fail these preconditions on its files (412); the instances read none but If-None-Match.
      ['If-Match on a file', `GET ${provider} HTTP/1.1\r\nHost: x\r\nIf-Match: "x"\r\n`, 200, NOT_COMPARED],
      ['an old If-Unmodified-Since on a file', `GET ${asset} HTTP/1.1\r\nHost: x\r\nIf-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n`, 200, NOT_COMPARED],
      // nginx refuses TRACE before anything else; its static files refuse other methods.
      ['TRACE on a page', 'TRACE / HTTP/1.1\r\nHost: x\r\n', 405, NOT_COMPARED],
      ['TRACE on a dynamic route', `TRACE ${paths.list}?limit=1 HTTP/1.1\r\nHost: x\r\n`, 405, NOT_COMPARED],
      ['TRACE on a file', `TRACE ${provider} HTTP/1.1\r\nHost: x\r\n`, 405, NOT_COMPARED],
      ['PROPFIND on a page', 'PROPFIND / HTTP/1.1\r\nHost: x\r\n', 405, NOT_COMPARED],
      ['DELETE on a file', `DELETE ${provider} HTTP/1.1\r\nHost: x\r\n`, 405, NOT_COMPARED],
      ['PUT on a dynamic route', `PUT ${paths.list} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n`, 405, NOT_COMPARED],
      ['a method no parser knows', 'FOO / HTTP/1.1\r\nHost: x\r\n', 400, NOT_COMPARED],
      // nginx meets only 100-continue and drops Expect on the way to the instances, which answer any other 417.
      ['Expect: 200-ok on a page', 'GET / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n', 417, NOT_COMPARED],
      ['Expect: 200-ok on a dynamic route', `GET ${paths.list}?limit=1 HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n`, 417, NOT_COMPARED],
      ['Expect: 200-ok on a file', `GET ${provider} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n`, 417, NOT_COMPARED],
      ['Expect: 100-continue on a file', `GET ${provider} HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\n`, 200, new Set([...NOT_COMPARED, ...VALIDATORS])],
      ['Expect: 200-ok in HTTP/1.0', `GET ${provider} HTTP/1.0\r\nExpect: 200-ok\r\n`, 200, new Set([...NOT_COMPARED, ...VALIDATORS])],
    ];
    for (const [what, head, status, leaveOut] of cases) {
      const request = `${head}Connection: close\r\n\r\n`;
      const [viaEdge, direct] = [parseAnswer(await exchange(edge.state.nginx.port, request, from)), parseAnswer(await exchange(node, request, from))];
      expect([direct.status, viaEdge.status], what).toEqual([status, status]);
      expect(viaEdge.body, what).toBe(direct.body);
      expect(comparable(viaEdge.headers, leaveOut), what).toEqual(comparable(direct.headers, leaveOut));
      if (status >= 400) expect(ErrorBodySchema.parse(JSON.parse(viaEdge.body)).statusCode, what).toBe(status);
    }
    // HTTP/0.9 (no version): nginx would answer a bare body, without status or headers; it closes the connection unanswered.
    expect(await exchange(edge.state.nginx.port, 'GET /\r\n', from)).toBe('');
    // A head that never ends: nginx closes the connection after its 10 s, as an instance does; it
    // cannot send the instances' 408 there (docs/security.md), so it sends nothing.
    const slow = await new Promise<{ got: string; closedByServer: boolean }>((resolve, reject) => {
      let got = '';
      const socket = net.connect({ port: edge.state.nginx.port, host: '127.0.0.1', localAddress: from }, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
      socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
      socket.on('end', () => resolve({ got, closedByServer: true }));
      socket.on('error', reject);
      socket.setTimeout(30_000, () => {
        socket.destroy();
        resolve({ got, closedByServer: false });
      });
    });
    expect(slow).toEqual({ got: '', closedByServer: true });
  });
});
