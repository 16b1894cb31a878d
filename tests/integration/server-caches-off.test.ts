// The server with its caches set to 0 (STATIC_CACHE_MB, LIST_CACHE_MB, SEARCH_CACHE_MB): it starts,
// and answers the same bytes as with them on, request after request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../helpers/server.ts';

let off: Server;
let on: Server;
beforeAll(async () => {
  [off, on] = await Promise.all([
    startServer({ env: { STATIC_CACHE_MB: '0', LIST_CACHE_MB: '0', SEARCH_CACHE_MB: '0', RATE_LIMIT: '0' } }),
    startServer({ env: { RATE_LIMIT: '0' } }),
  ]);
});
afterAll(async () => {
  expect(await off.stop()).toBe(0);
  expect(await on.stop()).toBe(0);
});

const bytes = async (url: string) => {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('caches off', () => {
  it('answers list, search and static routes byte for byte like the server with caches on', async () => {
    for (const p of [
      '/api/rtp/list?q=book&limit=5',
      '/api/rtp/list?provider=pragmatic-play&sort=rtp_desc',
      '/api/rtp/list?limit=3&offset=2',
      '/',
      '/api/rtp/provider/avatarux',
      '/api/rtp/10-swords',
      '/api/rtp/history?slug=10-swords',
    ]) {
      const reference = await bytes(on.url + p);
      for (let k = 0; k < 3; k++) expect((await bytes(off.url + p)).equals(reference), p).toBe(true);
    }
  });
});
