// The client address that authentication throttles count by. An IPv4 address counts alone;
// an IPv6 address counts by its /64 (one subscriber or host usually holds a whole /64 and
// can pick any address in it, so a per-address count would be no limit at all). The
// address is request.ip: behind a trusted proxy (TRUST_PROXY) the client it names, never
// the socket's peer.
import ipaddr from 'ipaddr.js';

const MAX_ADDRESS_LENGTH = 64;

/** The key a throttle counts `ip` under: the IPv4 address, or the IPv6 /64 (`2001:db8:0:1::/64`). */
export function addressGroup(ip: string): string {
  const bare = ip.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names an interface, not a host
  if (!ipaddr.isValid(bare)) return bare.slice(0, MAX_ADDRESS_LENGTH);
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  // An IPv4-mapped address (::ffff:a.b.c.d, how a dual-stack socket shows an IPv4 peer) is that IPv4 address.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
