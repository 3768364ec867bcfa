import { describe, expect, it } from 'vitest';
import { inAnyRange, isPublicAddress, parseAddressRange } from '../../src/net/ip-ranges.js';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['100.63.255.255'], // just below CGNAT
    ['172.32.0.1'], // just above 172.16/12
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'], // mapped public IPv4
    ['64:ff9b::808:808'], // NAT64 of 8.8.8.8
    ['2002:808:808::1'], // 6to4 of 8.8.8.8
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12:3456:789a::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2001::1', 'Teredo'],
    ['not an address', 'not an address'],
    ['', 'empty'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('address ranges an operator allows', () => {
  it('matches single addresses and CIDR ranges of both families', () => {
    const ranges = ['10.1.2.3', '192.168.0.0/16', 'fd00::/8'].map((text) => parseAddressRange(text)!);
    expect(inAnyRange('10.1.2.3', ranges)).toBe(true);
    expect(inAnyRange('10.1.2.4', ranges)).toBe(false);
    expect(inAnyRange('192.168.44.5', ranges)).toBe(true);
    expect(inAnyRange('fd12::1', ranges)).toBe(true);
    expect(inAnyRange('fe80::1', ranges)).toBe(false);
  });

  it('judges an IPv4-mapped IPv6 address by its IPv4 address', () => {
    expect(inAnyRange('::ffff:10.1.2.3', [parseAddressRange('10.1.2.3')!])).toBe(true);
  });

  it.each([['10.0.0.0/33'], ['::/129'], ['10.0.0.0/'], ['10.0.0/8'], ['example.com'], ['10.0.0.0/8/1'], ['10.0.0.0/-1']])(
    'rejects the malformed range %s',
    (text) => {
      expect(parseAddressRange(text)).toBeUndefined();
    },
  );
});
