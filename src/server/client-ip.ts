// The client address the rate limiter keys on: the socket's peer, or X-Forwarded-For when the
// operator says how many proxies in front of the server to trust (TRUST_PROXY=<n>).
import { isIP } from 'node:net';

/** `::ffff:203.0.113.9` and `203.0.113.9` are one client. */
export function normalizeIp(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * With `trustProxy` = 0 the socket address, always. With n > 0, each of the n trusted proxies
 * appended the address it received from, so the client is the n-th entry from the right of
 * X-Forwarded-For (or the leftmost when fewer are present). A missing header or an entry that is
 * not an IP address gives the socket address: spoofed values left of the trusted hops are never read.
 */
export function clientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: number): string {
  const socket = normalizeIp(socketAddress ?? 'unknown');
  if (trustProxy <= 0 || forwardedFor === undefined) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (hops.length === 0) return socket;
  const candidate = hops[Math.max(0, hops.length - trustProxy)]!;
  return isIP(candidate) === 0 ? socket : normalizeIp(candidate);
}
