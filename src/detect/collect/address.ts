// Which addresses a collector may connect to (SSRF safety). Only globally routable unicast
// addresses pass: private, loopback, link-local, unique-local, CGNAT, multicast, broadcast,
// unspecified, documentation/benchmark/reserved blocks, IPv6 outside the global unicast block
// 2000::/3, and the IPv6 forms that embed an IPv4 address (IPv4-compatible ::/96, IPv4-mapped,
// SIIT, NAT64, 6to4, Teredo), whatever IPv4 address they carry, are refused. ipaddr.js
// classifies the ranges; the checks run on resolved addresses, so a name pointing at 10.0.0.1
// is refused like the literal.
import ipaddr from 'ipaddr.js';

/** What the operator allows beyond the public internet. */
export interface NetworkPolicy {
  /** Every address is allowed (DETECT_ALLOW_PRIVATE_NETWORKS=true): for a crawler inside a private network. */
  allowPrivateNetworks?: boolean;
  /** CIDR blocks allowed although not public, e.g. `['127.0.0.2/32']` for a local fixture server. */
  allowNetworks?: string[];
  /** Ports a URL may name (default 80 and 443); `'any'` allows every port. */
  ports?: number[] | 'any';
}

const DEFAULT_PORTS: readonly number[] = [80, 443];

/** A refused target; `reason` is stable (the crawl's summary counts by it). */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  constructor(
    readonly reason: 'non_public_address' | 'ip_literal_form' | 'port' | 'scheme' | 'local_name',
    message: string,
  ) {
    super(message);
  }
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/** The parsed CIDR list of a policy, checked once; a bad entry names itself. */
export function compileAllowList(cidrs: readonly string[] = []): Array<[Parsed, number]> {
  return cidrs.map((c) => {
    const text = c.includes('/') ? c : `${c}/${c.includes(':') ? 128 : 32}`;
    if (!ipaddr.isValidCIDR(text)) throw new Error(`allowNetworks: '${c}' is not a CIDR block such as 127.0.0.1/32 or fd00::/8`);
    return ipaddr.parseCIDR(text);
  });
}

/**
 * IANA's global unicast block: every public IPv6 address is in it. ipaddr.js calls anything it
 * has no name for 'unicast', including the deprecated IPv4-compatible form `::a.b.c.d` (which
 * the URL parser writes as `[::7f00:1]` for `[::127.0.0.1]`) and unallocated space.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * The range name of an address: ipaddr.js's, with IPv4-mapped IPv6 judged by its IPv4 part,
 * and IPv6 'unicast' kept for the global unicast block (outside it: 'ipv4Compatible' or
 * 'unallocated'). Only 'unicast' is public.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    const v4 = v6.toIPv4Address().range();
    return v4 === 'unicast' ? 'ipv4Mapped' : v4;
  }
  const range = v6.range();
  if (range !== 'unicast' || v6.match(GLOBAL_UNICAST_V6)) return range;
  return v6.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'unallocated';
}

/** True when the policy lets a connection go to `address` (a canonical IPv4 or IPv6 string). */
export function isAllowedAddress(address: string, policy: NetworkPolicy = {}, allow = compileAllowList(policy.allowNetworks)): boolean {
  if (policy.allowPrivateNetworks) return true;
  let parsed: Parsed;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return false;
  }
  for (const [net, bits] of allow) {
    if (net.kind() === parsed.kind() && parsed.match(net, bits)) return true;
  }
  return addressRange(address) === 'unicast';
}

/**
 * Checks a URL before any name is resolved: http(s) only, an allowed port, no local names, and
 * an IP-literal host only in its canonical dotted-quad or bracketed IPv6 form. (The WHATWG URL
 * parser turns `http://2130706433/` and `http://0x7f.1/` into 127.0.0.1; the raw text is read
 * so such a form is refused as itself, whatever address it names.) Returns the parsed URL.
 */
export function checkUrl(raw: string, policy: NetworkPolicy = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('scheme', `'${raw.slice(0, 200)}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedAddressError('scheme', `only http and https URLs are fetched, not ${url.protocol}`);
  const rawHost = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(raw.trim())?.[1]?.toLowerCase() ?? url.hostname;
  const host = url.hostname;
  if (!host.startsWith('[') && ipaddr.IPv4.isValid(rawHost.replace(/\.$/, '')) && !ipaddr.IPv4.isValidFourPartDecimal(rawHost)) {
    throw new BlockedAddressError('ip_literal_form', `'${rawHost}' is an IPv4 address in decimal, octal or hex form; only dotted-quad literals are accepted`);
  }
  if (/^[0-9.]+$/.test(host) && !ipaddr.IPv4.isValidFourPartDecimal(host)) {
    throw new BlockedAddressError('ip_literal_form', `'${host}' is not a dotted-quad IPv4 address`);
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    throw new BlockedAddressError('local_name', `'${host}' is a local name`);
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const ports = policy.ports ?? DEFAULT_PORTS;
  if (ports !== 'any' && !ports.includes(port)) throw new BlockedAddressError('port', `port ${port} is not allowed (allowed: ${ports.join(', ')})`);
  const literal = host.startsWith('[') ? host.slice(1, -1) : ipaddr.IPv4.isValidFourPartDecimal(host) ? host : null;
  if (literal !== null && !isAllowedAddress(literal, policy)) {
    throw new BlockedAddressError('non_public_address', `${literal} is a ${addressRange(literal)} address; only public addresses are fetched`);
  }
  return url;
}
