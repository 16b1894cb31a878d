// The names and bounds the edge's nginx.conf (src/emit/nginx.ts) shares with `npm run edge`
// (src/edge/) and its tests: the files written beside it, the pools, the passive health checks, and
// the JSON answers nginx gives itself.
import { EXPECTATION_FAILED } from '../routes/response-headers.ts';
import type { ErrorBody } from '../schemas/errors.ts';
/** Where the build writes the configuration: dist/edge/nginx.conf. */
export const EDGE_DIR = 'edge';
export const NGINX_CONF_FILE = 'nginx.conf';
/**
 * The two pools of instances (upstream groups) and the files `npm run edge` writes beside its link to
 * nginx.conf with one `server host:port;` line per instance of each. One pool serves; on a release
 * switch the other starts on the new release and takes over without a reload of nginx.
 */
export const POOLS = ['blue', 'green'] as const;
export type Pool = (typeof POOLS)[number];
export const poolServersFile = (pool: Pool) => `pool-${pool}.conf`;
export const poolUpstream = (pool: Pool) => `rtp_${pool}`;
/**
 * Passive health checks: an instance that fails a request (refused, reset, or silent past its
 * route's timeout) EDGE_MAX_FAILS time(s) is left out of its pool for EDGE_FAIL_TIMEOUT_S seconds,
 * then given requests again (one that fails again leaves it out again).
 */
export const EDGE_MAX_FAILS = 1;
export const EDGE_FAIL_TIMEOUT_S = 2;
/** The line of a pool file (poolServersFile) naming the instance on `port`. */
export const poolServerLine = (port: number) => `server 127.0.0.1:${port} max_fails=${EDGE_MAX_FAILS} fail_timeout=${EDGE_FAIL_TIMEOUT_S}s;\n`;
/** How long the edge waits on an instance (to connect, between two reads) for a route without a timeout of its own in the route table. */
export const EDGE_UPSTREAM_TIMEOUT_S = 30;
/**
 * Written by `npm run edge` beside its link to nginx.conf: the `listen` address, the `root` (the
 * client folder of the release serving), and EDGE_POOL_FILE included (as the nginx.conf of an
 * older release expects it to set the pool).
 */
export const EDGE_SITE_FILE = 'edge-site.conf';
/**
 * Written beside it: `$rtp_pool`, the upstream group serving (POOLS). Read at the server level and
 * again in the location the instances' own answers come from, which a request nginx refuses before
 * the server level runs (TRACE) reaches too.
 */
export const EDGE_POOL_FILE = 'edge-pool.conf';
/** Written beside it: the failure log's `access_log` (src/edge/failure-log.ts). */
export const EDGE_LOG_FILE = 'edge-log.conf';
/**
 * The log of requests an instance failed (refused, silent past its timeout, or a 5xx): its
 * log_format, defined in nginx.conf, and the variable that is 1 for such a request. `npm run edge`
 * writes the access_log directive using them into EDGE_LOG_FILE (src/edge/failure-log.ts).
 */
export const FAILURE_LOG_FORMAT = 'rtp_failed';
export const FAILURE_LOG_CONDITION = '$rtp_failed';

/** What a dynamic route answers when no instance does (every instance down or refusing). */
export const EDGE_UNAVAILABLE: ErrorBody = { statusCode: 503, statusMessage: 'service unavailable: no server instance answered; try again in a few seconds' };

/** The longest request line and header line nginx reads (one of its header buffers), and the longest body. */
export const EDGE_HEAD_LINE_BYTES = 16 * 1024;
export const EDGE_BODY_BYTES = 1024 * 1024;

/**
 * nginx's own error answers, by the status nginx gives them (494: its "request header too large"),
 * as the server's JSON error bodies, with the server's status where it has one (431 for a header
 * too large, as Node answers). An upstream that fails (502, 504) is EDGE_UNAVAILABLE. 404, 405 and
 * 412 are not here: the instances answer those requests, as without nginx.
 */
export const EDGE_ERRORS: ReadonlyMap<number, ErrorBody> = new Map<number, ErrorBody>([
  [400, { statusCode: 400, statusMessage: 'bad request' }],
  [408, { statusCode: 408, statusMessage: 'request timeout' }],
  [413, { statusCode: 413, statusMessage: `request body too large: at most ${EDGE_BODY_BYTES} bytes` }],
  [414, { statusCode: 414, statusMessage: `request line too long: at most ${EDGE_HEAD_LINE_BYTES} bytes` }],
  [417, EXPECTATION_FAILED],
  [494, { statusCode: 431, statusMessage: 'request header fields too large' }],
  [500, { statusCode: 500, statusMessage: 'internal server error' }],
  [501, { statusCode: 501, statusMessage: 'not implemented: a transfer coding this server does not support' }],
  [502, EDGE_UNAVAILABLE],
  [503, EDGE_UNAVAILABLE],
  [504, EDGE_UNAVAILABLE],
  [505, { statusCode: 505, statusMessage: 'HTTP version not supported' }],
]);
