// The rate limiter's client key: socket address, or X-Forwarded-For behind TRUST_PROXY proxies
// (a hop count or a list of addresses and blocks); IPv6 clients keyed by their /64.
import { describe, expect, it } from 'vitest';
import { clientIp, limiterKey, NO_PROXY, normalizeIp, parseTrustProxy, type TrustProxy } from '../../src/server/client-ip.ts';

const hops = (n: number): TrustProxy => (n === 0 ? NO_PROXY : parseTrustProxy(String(n), []));
const list = (text: string): TrustProxy => {
  const problems: string[] = [];
  const t = parseTrustProxy(text, problems);
  expect(problems).toEqual([]);
  return t;
};

describe('clientIp', () => {
  it('uses the socket address when no proxy is trusted, whatever the header says', () => {
    expect(clientIp('198.51.100.7', '1.2.3.4', hops(0))).toBe('198.51.100.7');
    expect(clientIp('::ffff:198.51.100.7', undefined, hops(0))).toBe('198.51.100.7');
    expect(clientIp('::1', '1.2.3.4', hops(0))).toBe('::1');
    expect(clientIp(undefined, undefined, hops(0))).toBe('unknown');
  });

  it('takes the n-th address from the right with n trusted proxies', () => {
    expect(clientIp('10.0.0.1', '203.0.113.5', hops(1))).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '6.6.6.6, 203.0.113.5', hops(1))).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '6.6.6.6, 203.0.113.5, 10.0.0.2', hops(2))).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', ['6.6.6.6, 203.0.113.5', '10.0.0.2'], hops(2))).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '2001:db8::1', hops(1))).toBe('2001:db8::1');
    expect(clientIp('10.0.0.1', '::ffff:203.0.113.5', hops(1))).toBe('203.0.113.5');
  });

  it('takes the leftmost address when fewer than n are present', () => {
    expect(clientIp('10.0.0.1', '203.0.113.5', hops(3))).toBe('203.0.113.5');
  });

  it('falls back to the socket address for a missing, empty or invalid header', () => {
    expect(clientIp('10.0.0.1', undefined, hops(1))).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '', hops(1))).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', ' , ', hops(1))).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', 'not-an-ip', hops(1))).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '203.0.113.5, garbage', hops(1))).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '203.0.113.5:4711', hops(1))).toBe('10.0.0.1');
  });

  it('normalises IPv4-mapped IPv6 addresses only', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:zzz')).toBe('::ffff:zzz');
    expect(normalizeIp('2001:db8::ffff:1')).toBe('2001:db8::ffff:1');
  });
});

describe('TRUST_PROXY as a list of proxies', () => {
  const trust = list('10.0.0.0/8, 192.0.2.10, 2001:db8:ffff::/48');

  it('ignores X-Forwarded-For from a peer that is not a listed proxy', () => {
    expect(clientIp('203.0.113.9', '1.2.3.4', trust)).toBe('203.0.113.9');
    expect(clientIp('192.0.2.11', '1.2.3.4', trust)).toBe('192.0.2.11');
  });

  it('walks from the right past every trusted hop; the first untrusted entry is the client', () => {
    expect(clientIp('10.1.2.3', '203.0.113.5', trust)).toBe('203.0.113.5');
    expect(clientIp('10.1.2.3', '6.6.6.6, 203.0.113.5, 192.0.2.10', trust)).toBe('203.0.113.5');
    expect(clientIp('::ffff:192.0.2.10', '2001:db8:1::7, 10.9.9.9', trust)).toBe('2001:db8:1::7');
    expect(clientIp('2001:db8:ffff:1::2', '198.51.100.4', trust)).toBe('198.51.100.4');
  });

  it('a spoofed entry left of the client is never read', () => {
    expect(clientIp('10.1.2.3', '10.0.0.1, 6.6.6.6, 203.0.113.5', trust)).toBe('203.0.113.5');
  });

  it('all hops trusted: the leftmost; a garbage entry ends the walk at the last trusted hop', () => {
    expect(clientIp('10.1.2.3', '10.0.0.7, 10.0.0.8', trust)).toBe('10.0.0.7');
    expect(clientIp('10.1.2.3', 'garbage', trust)).toBe('10.1.2.3');
    expect(clientIp('10.1.2.3', 'garbage, 10.0.0.8', trust)).toBe('10.0.0.8');
  });

  it('knows the names loopback and private', () => {
    const named = list('loopback,private');
    expect(clientIp('127.0.0.1', '203.0.113.5', named)).toBe('203.0.113.5');
    expect(clientIp('::1', '203.0.113.5', named)).toBe('203.0.113.5');
    expect(clientIp('172.20.0.1', '203.0.113.5', named)).toBe('203.0.113.5');
    expect(clientIp('198.51.100.1', '203.0.113.5', named)).toBe('198.51.100.1');
  });

  it('lists every bad entry and trusts nobody then', () => {
    const problems: string[] = [];
    expect(parseTrustProxy('10.0.0.0/8, 10.0.0.0/33, proxy.example, 1.2.3.4/8/9', problems)).toBe(NO_PROXY);
    expect(problems).toEqual(['TRUST_PROXY: not an address, a CIDR block, "loopback" or "private": "10.0.0.0/33", "proxy.example", "1.2.3.4/8/9"']);
    expect(parseTrustProxy('101', problems)).toBe(NO_PROXY);
    expect(problems[1]).toBe('TRUST_PROXY="101": a hop count must be from 0 to 100');
    expect(parseTrustProxy('', [])).toBe(NO_PROXY);
    expect(parseTrustProxy('0', [])).toBe(NO_PROXY);
  });
});

describe('limiterKey', () => {
  it('keys an IPv6 client by its /64, whatever the notation', () => {
    expect(limiterKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:0db8:0001:0002:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limiterKey('::1')).toBe('0:0:0:0::/64');
    expect(limiterKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limiterKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves IPv4 addresses and non-addresses alone', () => {
    expect(limiterKey('203.0.113.9')).toBe('203.0.113.9');
    expect(limiterKey('unknown')).toBe('unknown');
  });
});

describe('every spelling of one address is one client', () => {
  it.each([
    ['9.9.9.1', '9.9.9.1'],
    ['::ffff:9.9.9.1', '9.9.9.1'],
    ['::FFFF:9.9.9.1', '9.9.9.1'],
    ['0:0:0:0:0:ffff:9.9.9.1', '9.9.9.1'],
    ['0000:0000:0000:0000:0000:FFFF:0909:0901', '9.9.9.1'],
    ['::ffff:909:901', '9.9.9.1'],
    ['::9.9.9.1', '9.9.9.1'],
    ['::909:901', '9.9.9.1'],
    ['::1.2.3.4', '1.2.3.4'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['::', '::'],
  ])('%s is keyed as %s', (spelling, key) => {
    expect(limiterKey(normalizeIp(spelling))).toBe(limiterKey(key));
    expect(normalizeIp(spelling)).toBe(key);
  });

  it('a forwarded spelling counts as the same client as the socket address', () => {
    const trust = parseTrustProxy('loopback', []);
    for (const spelling of ['::FFFF:9.9.9.1', '0:0:0:0:0:ffff:9.9.9.1', '::ffff:909:901', '::9.9.9.1']) {
      expect(clientIp('127.0.0.1', spelling, trust)).toBe('9.9.9.1');
    }
  });

  it('text that is not an address (octal, hex, junk) is not read as one', () => {
    expect(normalizeIp('011.9.9.1')).toBe('011.9.9.1');
    expect(normalizeIp('0x9.9.9.1')).toBe('0x9.9.9.1');
    expect(clientIp('127.0.0.1', '011.9.9.1', parseTrustProxy('loopback', []))).toBe('127.0.0.1');
  });
});
