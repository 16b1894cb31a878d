// The rate limiter's client key: socket address, or X-Forwarded-For behind TRUST_PROXY proxies.
import { describe, expect, it } from 'vitest';
import { clientIp, normalizeIp } from '../../src/server/client-ip.ts';

describe('clientIp', () => {
  it('uses the socket address when no proxy is trusted, whatever the header says', () => {
    expect(clientIp('198.51.100.7', '1.2.3.4', 0)).toBe('198.51.100.7');
    expect(clientIp('::ffff:198.51.100.7', undefined, 0)).toBe('198.51.100.7');
    expect(clientIp('::1', '1.2.3.4', 0)).toBe('::1');
    expect(clientIp(undefined, undefined, 0)).toBe('unknown');
  });

  it('takes the n-th address from the right with n trusted proxies', () => {
    expect(clientIp('10.0.0.1', '203.0.113.5', 1)).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '6.6.6.6, 203.0.113.5', 1)).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '6.6.6.6, 203.0.113.5, 10.0.0.2', 2)).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', ['6.6.6.6, 203.0.113.5', '10.0.0.2'], 2)).toBe('203.0.113.5');
    expect(clientIp('10.0.0.1', '2001:db8::1', 1)).toBe('2001:db8::1');
    expect(clientIp('10.0.0.1', '::ffff:203.0.113.5', 1)).toBe('203.0.113.5');
  });

  it('takes the leftmost address when fewer than n are present', () => {
    expect(clientIp('10.0.0.1', '203.0.113.5', 3)).toBe('203.0.113.5');
  });

  it('falls back to the socket address for a missing, empty or invalid header', () => {
    expect(clientIp('10.0.0.1', undefined, 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '', 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', ' , ', 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', 'not-an-ip', 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '203.0.113.5, garbage', 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '203.0.113.5:4711', 1)).toBe('10.0.0.1');
  });

  it('normalises IPv4-mapped IPv6 addresses only', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:zzz')).toBe('::ffff:zzz');
    expect(normalizeIp('2001:db8::ffff:1')).toBe('2001:db8::ffff:1');
  });
});
