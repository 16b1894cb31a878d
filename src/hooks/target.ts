// Where a webhook may be sent: only to public unicast addresses, unless its subscriber was added with
// --allow-private (a receiver on this machine or network, for testing). The URL's host is checked
// as WHATWG URL parsing normalises it (2130706433, 0x7f000001, 0177.1 and 127.1 are all 127.0.0.1),
// and a name is checked again on every delivery as it resolves, on the very address connected to.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The stable code of a refused target, in `hooks add`'s message and the deliveries log. */
export const ERR_HOOK_TARGET_PRIVATE = 'ERR_HOOK_TARGET_PRIVATE';

/** What to do about a refused target, named in every refusal. */
const FIX = 'a subscriber must be reachable on the public internet; for a receiver on this machine or network while testing, add it with --allow-private';

// IPv4-compatible IPv6 (::a.b.c.d, deprecated) falls in no ipaddr.js range but embeds an IPv4 address.
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** A target refused because it is not a public address; `code` is ERR_HOOK_TARGET_PRIVATE. */
export class HookTargetError extends Error {
  readonly code = ERR_HOOK_TARGET_PRIVATE;
  constructor(message: string) {
    super(`${ERR_HOOK_TARGET_PRIVATE}: ${message}; ${FIX}`);
    this.name = 'HookTargetError';
  }
}

/**
 * The special range an IP address falls in (`loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `multicast`, `unspecified`, …; an IPv4-mapped IPv6 address as its IPv4 address), or null for a
 * public unicast address. Anything that is not an IP address is not public either.
 */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : null;
}

/** The URL's host as WHATWG URL parsing writes it, without an IPv6 literal's brackets. */
function hostOf(url: string): string {
  const host = new URL(url).hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/** Whether a host name is reserved for this machine (RFC 6761: localhost and *.localhost). */
function isLocalhostName(host: string): boolean {
  const name = host.replace(/\.$/, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Throws a HookTargetError when `url`'s host (an absolute http(s) URL) is an IP address outside public
 * unicast, in any spelling the URL parser accepts; a no-op when `allowPrivate`. A name is left to
 * guardedLookup, which checks what it resolves to.
 */
export function checkHookAddress(url: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = hostOf(url);
  if (!ipaddr.isValid(host)) return;
  const range = nonPublicRange(host);
  if (range !== null) throw new HookTargetError(`the URL's host ${host} is not a public address (${range})`);
}

/** checkHookAddress, and localhost refused by name as well (what `hooks add` checks). */
export function checkHookTarget(url: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = hostOf(url);
  if (isLocalhostName(host)) throw new HookTargetError(`the URL's host ${host} is this machine`);
  checkHookAddress(url, allowPrivate);
}

/**
 * A `lookup` for http(s).request that resolves with dns.lookup and fails with a HookTargetError when
 * any address the name resolves to is not public (unless `allowPrivate`): the socket connects to an
 * address this function returned, so a name that changes its answer between check and connect
 * (DNS rebinding) cannot reach a private address.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, '', 0);
      const bad = allowPrivate ? undefined : addresses.find((a) => nonPublicRange(a.address) !== null);
      if (bad !== undefined)
        return callback(
          new HookTargetError(`${hostname} resolves to ${bad.address}, not a public address (${nonPublicRange(bad.address)})`) as NodeJS.ErrnoException,
          '',
          0,
        );
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all === true) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
