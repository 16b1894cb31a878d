// The client address the rate limiter keys on: the socket's peer, or an X-Forwarded-For entry when
// the operator trusts the proxies in front (TRUST_PROXY: a hop count, or a list of proxy addresses
// and CIDR blocks, docs/security.md), found by proxy-addr. IPv6 clients are keyed by their /64: one
// host owns a whole /64 (RFC 4291 §2.5.4, RFC 7421), so per-address keys would let it pick a fresh
// key per request. Every spelling of one address is one client: ipaddr.js parses them, and
// IPv4-mapped and IPv4-compatible IPv6 addresses stand for their IPv4 address.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/** Which proxies' X-Forwarded-For entries are believed. */
export interface TrustProxy {
  /** False: X-Forwarded-For is never read. */
  readonly active: boolean;
  /** Trust this many hops from the right of X-Forwarded-For, whoever connects (0 with a list). */
  readonly hops: number;
  /** Whether an address (the socket peer, then each entry from the right) is a trusted proxy. */
  readonly trusts: (address: string, hop: number) => boolean;
  /** The setting as configured, for the start-up line. */
  readonly text: string;
}

export const NO_PROXY: TrustProxy = { active: false, hops: 0, trusts: () => false, text: 'none' };

/** Names for common blocks in a TRUST_PROXY list, as proxy-addr names them. */
const NAMED_BLOCKS: Record<string, string> = { loopback: 'loopback', private: 'uniquelocal' };

/**
 * Parses TRUST_PROXY: empty or `0` (trust nobody), a hop count 1-100, or a comma-separated list of
 * addresses, CIDR blocks and the names `loopback`/`private`. Every bad entry is added to `problems`.
 */
export function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const text = (raw ?? '').trim();
  if (text === '' || text === '0') return NO_PROXY;
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) {
      problems.push(`TRUST_PROXY=${JSON.stringify(raw)}: a hop count must be from 0 to 100`);
      return NO_PROXY;
    }
    return { active: true, hops, trusts: (_address, hop) => hop < hops, text: `${hops} hop(s)` };
  }
  const entries: string[] = [];
  const bad: string[] = [];
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const named = NAMED_BLOCKS[entry];
    if (named !== undefined) {
      entries.push(named);
      continue;
    }
    // Checked here (Node's isIP, strict) so every bad entry is listed at once.
    const [address, prefixText, extra] = entry.split('/');
    const type = isIP(address ?? '');
    const max = type === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (type === 0 || extra !== undefined || !(prefix >= 0 && prefix <= max)) bad.push(entry);
    else entries.push(`${normalizeIp(address!)}/${prefix}`);
  }
  if (bad.length > 0) {
    problems.push(`TRUST_PROXY: not an address, a CIDR block, "loopback" or "private": ${bad.map((b) => JSON.stringify(b.slice(0, 64))).join(', ')}`);
    return NO_PROXY;
  }
  const compiled = proxyaddr.compile(entries);
  return { active: true, hops: 0, trusts: (address) => compiled(address, 0), text };
}

/**
 * One spelling per address: IPv4 dotted; IPv6 as RFC 5952 writes it (lowercase, zeros compressed,
 * no zone); an IPv4-mapped (`::ffff:9.9.9.1`, `::FFFF:909:901`, `0:0:0:0:0:ffff:9.9.9.1`) or
 * IPv4-compatible (`::9.9.9.1`) address as its IPv4 address. Text that is not an address (Node's
 * isIP, which refuses the octal and hex forms) is returned as it is.
 */
export function normalizeIp(address: string): string {
  const type = isIP(address);
  // A dotted IPv4 address as Node's isIP accepts it is canonical already (most requests).
  if (type === 4) return address;
  if (type !== 6) return address;
  // The kernel's own spelling of an IPv4 client on a dual-stack socket, the common case.
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) return address.slice(7);
  const zone = address.indexOf('%');
  const v6 = ipaddr.IPv6.parse(zone < 0 ? address : address.slice(0, zone));
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const p = v6.parts;
  // IPv4-compatible (RFC 4291 §2.5.5.1): 96 zero bits, then an IPv4 address (:: and ::1 excluded).
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 && p[6] !== 0)
    return `${p[6]! >> 8}.${p[6]! & 255}.${p[7]! >> 8}.${p[7]! & 255}`;
  return v6.toRFC5952String();
}

/** Whether connections from `address` come through a trusted proxy (any address, with a hop count). */
export function isTrustedProxy(trust: TrustProxy, address: string): boolean {
  return trust.active && trust.trusts(address, 0);
}

/**
 * The client's address, normalised. Untrusted: the socket peer, always. Otherwise proxy-addr walks
 * X-Forwarded-For from the right while each hop is trusted: with a hop count n, the n-th entry
 * from the right (or the leftmost when fewer are present); with a list, the first entry not in
 * it. An entry that is not an IP address (Node's isIP) ends the walk at the hop before it: values
 * left of the trusted hops are never read, so a client cannot spoof them.
 */
export function clientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustProxy): string {
  const socket = socketAddress ?? 'unknown';
  if (!trust.active || forwardedFor === undefined) return normalizeIp(socket);
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  // A list header longer than any real chain is cut; its left part is never trusted anyway.
  const request = { socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': header.slice(-4096) } };
  const chain = proxyaddr.all(request as unknown as Parameters<typeof proxyaddr.all>[0], trust.trusts);
  let client = socket;
  for (let k = 1; k < chain.length; k++) {
    const hop = chain[k]!.trim();
    if (isIP(hop) === 0) break;
    client = hop;
  }
  return normalizeIp(client);
}

/** The rate limiter's key for a client address (normalised): an IPv6 address stands for its /64. */
export function limiterKey(address: string): string {
  // Every IPv6 address has a colon; IPv4 addresses (most requests) skip the parse.
  if (!address.includes(':') || isIP(address) !== 6) return address;
  const zone = address.indexOf('%');
  const groups = ipaddr.IPv6.parse(zone < 0 ? address : address.slice(0, zone)).parts;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
