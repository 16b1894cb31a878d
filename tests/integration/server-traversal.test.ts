// Path traversal and odd paths over raw HTTP (clients normalise `..` themselves, so the request
// lines are written by hand): every attempt is a 404 and never a file from outside dist/client.

import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE } from '../../src/schemas/dist.ts';
import { type Server, startServer, testOutDir } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '1000000' } });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** Sends one raw request line and returns status, headers and body. */
function raw(target: string, method = 'GET'): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: text.slice(split + 4) });
    });
  });
}

const bundleText = readFileSync(path.join(testOutDir(), 'server', BUNDLE_FILE), 'utf8').slice(0, 40);
const entryText = readFileSync(path.join(testOutDir(), 'server', 'entry.mjs'), 'utf8').slice(0, 40);

const ATTEMPTS = [
  '/../server/registry-bundle.json',
  '/api/rtp/../../server/registry-bundle.json',
  '/api/rtp/../../../../../../etc/passwd',
  '/api/rtp/%2e%2e/%2e%2e/server/registry-bundle.json',
  '/api/rtp/%2E%2E/%2E%2E/server/entry.mjs',
  '/%2e%2e/server/entry.mjs',
  '/api/rtp/..%2f..%2fserver%2fregistry-bundle.json',
  '/api/rtp/%2e%2e%2f%2e%2e%2fserver%2fregistry-bundle.json',
  '/widget/rtp/..%2F..%2F..%2Fserver%2Fentry.mjs',
  '/api/rtp/..%5c..%5cserver%5cregistry-bundle.json',
  '/api/rtp/..\\..\\server\\registry-bundle.json',
  '/api/rtp/book-of-dead%00',
  '/api/rtp/book-of-dead%00.json',
  '/widget/rtp/book-of-dead%00.html',
  '//server/registry-bundle.json',
  '/api//rtp/book-of-dead',
  '/api/rtp//book-of-dead',
  '///etc/passwd',
  '/./api/rtp/book-of-dead',
  '/api/rtp/%252e%252e/%252e%252e/server/registry-bundle.json',
  '/api/rtp/%',
  '/api/rtp/%zz',
  '/_headers',
  '/.%2e/server/entry.mjs',
];

describe('traversal attempts', () => {
  it('a path past 1,024 bytes gets 414 JSON, never a file', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await raw(`/api/rtp/${'a'.repeat(2000)}`, method);
      expect(r.status).toBe(414);
      expect(r.head).toMatch(/access-control-allow-origin: \*/i);
      if (method === 'GET') expect(r.body).toBe('{"statusCode":414,"statusMessage":"path too long: at most 1024 bytes"}');
    }
  });

  it.each(ATTEMPTS)('%s → 404, nothing from outside dist/client', async (target) => {
    for (const method of ['GET', 'HEAD']) {
      const r = await raw(target, method);
      expect(r.status).toBe(404);
      expect(r.head).toMatch(/access-control-allow-origin: \*/i);
      expect(r.body).not.toContain(bundleText);
      expect(r.body).not.toContain(entryText);
      expect(r.body).not.toContain('root:x:0');
      if (target.startsWith('/api/rtp/') && method === 'GET') expect(r.body).toBe('{"statusCode":404,"statusMessage":"slot not found in registry"}');
    }
  });

  it('still serves the real files by their clean paths', async () => {
    expect((await raw('/api/rtp/book-of-dead')).status).toBe(200);
    expect((await raw('/api/rtp/book%2Dof%2Ddead')).status).toBe(200);
  });
});
