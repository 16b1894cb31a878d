// Setup shared by the list route's integration files: the real server (rate limit out of the way) for the
// file's tests, and a GET of the list route that expects 200 and a schema-valid body.
import { afterAll, beforeAll, expect } from 'vitest';
import { type ListResponse, ListResponseSchema } from '../../src/schemas/list.ts';
import { type Server, startServer } from './server.ts';

export interface ListServer {
  /** The server's base URL (once started). */
  readonly url: string;
  /** GET /api/rtp/list?`query` (no `?` when empty): expects 200 and parses the body. */
  list(query: string): Promise<ListResponse>;
  /**
   * Every match of `query` (which sets no limit or offset), paged at the largest limit: the first
   * page's meta and facets, and all items in order. The last page says has_more false.
   */
  listAll(query: string): Promise<ListResponse>;
}

/** Starts the server before this file's tests and stops it after (expecting exit code 0). */
export function useListServer(): ListServer {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });
  const list = async (query: string): Promise<ListResponse> => {
    const res = await fetch(`${server.url}/api/rtp/list${query === '' ? '' : `?${query}`}`);
    expect(res.status).toBe(200);
    return ListResponseSchema.parse(await res.json());
  };
  return {
    get url() {
      return server.url;
    },
    list,
    async listAll(query) {
      const sep = query === '' ? '' : '&';
      const first = await list(`${query}${sep}limit=200`);
      const items = [...first.items];
      let last = first;
      while (last.meta.has_more) {
        last = await list(`${query}${sep}limit=200&offset=${items.length}`);
        items.push(...last.items);
      }
      expect(items).toHaveLength(first.meta.filtered);
      return { ...first, items };
    },
  };
}
