import net from 'node:net';

/**
 * The key a client address is limited under. An IPv4 address is its own key (an
 * IPv4-mapped IPv6 address counts as the IPv4 address it carries). An IPv6 address is
 * keyed by its /64 prefix: one subscriber is usually given a whole /64, so keying by
 * the full address would hand anyone 2^64 fresh buckets.
 */
export function clientKey(address: string): string {
  const plain = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv6(plain)) return `${ipv6Groups(plain).slice(0, 4).join(':')}::/64`;
  return plain;
}

/** The eight groups of an IPv6 address, expanded, lower-case, without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16).toString(16));
}
