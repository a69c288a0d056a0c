// The client address that authentication throttles count by. An IPv4 address counts alone;
// an IPv6 address counts by its /64 (one subscriber or host usually holds a whole /64 and
// can pick any address in it, so a per-address count would be no limit at all). The
// address is request.ip: behind a trusted proxy (TRUST_PROXY) the client it names, never
// the socket's peer.
import { isIPv4, isIPv6 } from 'node:net';

const MAX_ADDRESS_LENGTH = 64;

/** The 8 groups of an IPv6 address, as numbers, or undefined when it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 ? groups : undefined;
}

/** The key a throttle counts `ip` under: the IPv4 address, or the IPv6 /64 (`2001:db8:0:1::/64`). */
export function addressGroup(ip: string): string {
  const bare = ip.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names an interface, not a host
  if (isIPv4(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare.slice(0, MAX_ADDRESS_LENGTH);
  // An IPv4-mapped address (::ffff:a.b.c.d, how a dual-stack socket shows an IPv4 peer) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}
