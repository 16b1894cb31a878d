// One POST of a delivery over node:http(s): its URL's host checked (target.ts), a name resolved
// through the guarded lookup so the socket connects only to an address that passed the check, no
// redirect followed, no connection reused, the whole try (connection to answer) bounded in time.
import http from 'node:http';
import https from 'node:https';
import { checkHookAddress, guardedLookup } from './target.ts';

export interface PostOptions {
  body: string;
  headers: Record<string, string>;
  /** Time allowed for the try, connection to answer. */
  timeoutMs: number;
  /** Let the URL name or resolve to a loopback, private or link-local address. */
  allowPrivate: boolean;
}

/** The outcome of one POST: the answer's status (0: none) and an error text for anything but 2xx. */
export interface PostOutcome {
  status: number;
  error: string | null;
}

/**
 * POSTs `body` to `url` and settles with the answer's status once its head has come (the answer's
 * body is not used: the connection is closed), or status 0 with the reason: the target refused
 * (ERR_HOOK_TARGET_PRIVATE…), a network error's code, or no answer within `timeoutMs`.
 */
export function postOnce(url: string, o: PostOptions): Promise<PostOutcome> {
  try {
    checkHookAddress(url, o.allowPrivate);
  } catch (err) {
    return Promise.resolve({ status: 0, error: (err as Error).message });
  }
  const target = new URL(url);
  const signal = AbortSignal.timeout(o.timeoutMs);
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) },
        agent: false,
        lookup: guardedLookup(o.allowPrivate),
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.destroy();
        resolve({ status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) resolve({ status: 0, error: `no answer within ${o.timeoutMs} ms` });
      else if (err.code === 'ERR_HOOK_TARGET_PRIVATE') resolve({ status: 0, error: err.message });
      else resolve({ status: 0, error: err.code ?? err.message });
    });
    req.end(o.body);
  });
}
