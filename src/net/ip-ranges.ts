import net from 'node:net';

/**
 * Which IP addresses an outbound fetch may connect to. Pure: no I/O.
 *
 * A link in a shop's feed is data from outside; followed blindly it would let anyone who
 * controls a feed make Patron read its own loopback services, the cloud metadata endpoint
 * (169.254.169.254) or the operator's private network. So every address that is not
 * plainly on the public internet is refused: loopback, private, link-local, CGNAT,
 * multicast, unspecified, reserved and documentation ranges, in IPv4 and IPv6, and the
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by
 * the IPv4 address they carry.
 */

interface Range {
  readonly bytes: readonly number[];
  readonly prefix: number;
}

function v4(cidr: string): Range {
  const [address = '', prefix = '32'] = cidr.split('/');
  return { bytes: parseIpv4(address) ?? [], prefix: Number(prefix) };
}

function v6(cidr: string): Range {
  const [address = '', prefix = '128'] = cidr.split('/');
  return { bytes: parseIpv6(address) ?? [], prefix: Number(prefix) };
}

const BLOCKED_V4: readonly Range[] = [
  v4('0.0.0.0/8'), // "this network", the unspecified address
  v4('10.0.0.0/8'), // private
  v4('100.64.0.0/10'), // carrier-grade NAT
  v4('127.0.0.0/8'), // loopback
  v4('169.254.0.0/16'), // link-local, cloud metadata
  v4('172.16.0.0/12'), // private
  v4('192.0.0.0/24'), // IETF protocol assignments
  v4('192.0.2.0/24'), // documentation
  v4('192.88.99.0/24'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16'), // private
  v4('198.18.0.0/15'), // benchmarking
  v4('198.51.100.0/24'), // documentation
  v4('203.0.113.0/24'), // documentation
  v4('224.0.0.0/4'), // multicast
  v4('240.0.0.0/4'), // reserved, and 255.255.255.255 broadcast
];

const BLOCKED_V6: readonly Range[] = [
  v6('::/128'), // unspecified
  v6('::1/128'), // loopback
  v6('100::/64'), // discard
  v6('2001::/32'), // Teredo: tunnels to an IPv4 address we cannot judge
  v6('2001:db8::/32'), // documentation
  v6('fc00::/7'), // unique local (private)
  v6('fe80::/10'), // link-local
  v6('fec0::/10'), // site-local (deprecated)
  v6('ff00::/8'), // multicast
];

/** IPv6 prefixes whose address carries an IPv4 address at `offset` (bytes). */
const EMBEDDING_V6: readonly (Range & { readonly offset: number })[] = [
  { ...v6('::ffff:0:0/96'), offset: 12 }, // IPv4-mapped
  { ...v6('::/96'), offset: 12 }, // IPv4-compatible (deprecated)
  { ...v6('::ffff:0:0:0/96'), offset: 12 }, // IPv4-translated
  { ...v6('64:ff9b::/96'), offset: 12 }, // NAT64 well-known prefix
  { ...v6('64:ff9b:1::/48'), offset: 12 }, // NAT64 local-use prefix
  { ...v6('2002::/16'), offset: 2 }, // 6to4
];

/** True when `address` (an IPv4 or IPv6 literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(stripZone(address));
  if (family === 4) {
    const bytes = parseIpv4(address);
    return bytes !== undefined && isPublicV4(bytes);
  }
  if (family === 6) {
    const bytes = parseIpv6(stripZone(address));
    return bytes !== undefined && isPublicV6(bytes);
  }
  return false;
}

/** An address range an operator allows (PATRON_FETCH_ALLOW_PRIVATE), e.g. `10.1.2.3` or `fd00::/8`. */
export interface AddressRange {
  readonly bytes: readonly number[];
  readonly prefix: number;
}

/** Parses `address` or `address/prefix` (IPv4 or IPv6); undefined when malformed. */
export function parseAddressRange(text: string): AddressRange | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const bytes = parseIpv4(address) ?? parseIpv6(address);
  if (!bytes) return undefined;
  const max = bytes.length * 8;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) return undefined;
  return { bytes, prefix };
}

/** True when `address` lies in one of `ranges`; an IPv4-mapped IPv6 address counts as its IPv4 address. */
export function inAnyRange(address: string, ranges: readonly AddressRange[]): boolean {
  const plain = stripZone(address);
  let bytes = parseIpv4(plain) ?? parseIpv6(plain);
  if (!bytes) return false;
  if (bytes.length === 16 && inRange(bytes, MAPPED_V4)) bytes = bytes.slice(12);
  const candidate = bytes;
  return ranges.some((range) => inRange(candidate, range));
}

const MAPPED_V4 = v6('::ffff:0:0/96');

function isPublicV4(bytes: readonly number[]): boolean {
  return !BLOCKED_V4.some((range) => inRange(bytes, range));
}

function isPublicV6(bytes: readonly number[]): boolean {
  for (const range of EMBEDDING_V6) {
    // :: and ::1 fall in ::/96 too; they carry 0.0.0.0 and 0.0.0.1, refused as "this network".
    if (inRange(bytes, range)) return isPublicV4(bytes.slice(range.offset, range.offset + 4));
  }
  return !BLOCKED_V6.some((range) => inRange(bytes, range));
}

function inRange(bytes: readonly number[], range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** Link-local IPv6 literals may carry a zone (`fe80::1%eth0`); the zone does not change the range. */
function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}

function parseIpv4(address: string): number[] | undefined {
  if (net.isIPv4(address) === false) return undefined;
  return address.split('.').map(Number);
}

function parseIpv6(address: string): number[] | undefined {
  if (net.isIPv6(address) === false) return undefined;
  let text = address.toLowerCase();
  // A trailing dotted IPv4 part (::ffff:127.0.0.1) stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const four = parseIpv4(tail);
    if (!four) return undefined;
    const hi = (((four[0] ?? 0) << 8) | (four[1] ?? 0)).toString(16);
    const lo = (((four[2] ?? 0) << 8) | (four[3] ?? 0)).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...restGroups];
  const bytes: number[] = [];
  for (const group of groups) {
    const value = Number.parseInt(group, 16);
    bytes.push((value >> 8) & 0xff, value & 0xff);
  }
  return bytes;
}
