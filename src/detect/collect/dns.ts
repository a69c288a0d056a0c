// DNS for the collectors: one resolver (node:dns/promises, or an injected one with the same
// methods) answers both the site's records (MX, TXT, CNAME, A, AAAA, NS) and the addresses a
// fetch connects to. Its servers can be set, so tests point it at a local stub and nothing
// leaves the machine; the system's /etc/hosts is never consulted (dns.lookup is not used).
import { Resolver } from 'node:dns/promises';
import type { DnsRecords } from '../types.ts';

/** The methods of node:dns/promises' Resolver the collectors use. */
export interface DnsResolver {
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveMx(name: string): Promise<Array<{ priority: number; exchange: string }>>;
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
  resolveNs(name: string): Promise<string[]>;
}

export interface DnsOptions {
  /** A resolver to use as is (tests; a caching resolver). */
  resolver?: DnsResolver;
  /** Name servers (`'127.0.0.1:5353'`, `'[::1]:53'`); default the system's. */
  servers?: string[];
  /** Per query attempt (default 3000 ms) and attempts (default 2). */
  timeoutMs?: number;
  tries?: number;
}

export function makeResolver(opts: DnsOptions = {}): DnsResolver {
  if (opts.resolver) return opts.resolver;
  const r = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: opts.tries ?? 2 });
  if (opts.servers?.length) r.setServers(opts.servers);
  return r;
}

/** Codes meaning "no such record": an empty answer, not a failure. */
const NO_DATA = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

/** A DNS failure of a fetch: the name does not exist, or the servers did not answer. */
export class DnsError extends Error {
  override name = 'DnsError';
  constructor(
    readonly reason: 'dns_not_found' | 'dns_failed',
    message: string,
  ) {
    super(message);
  }
}

/** The IPv4 and IPv6 addresses of `host`; throws DnsError when it has none. */
export async function resolveAddresses(resolver: DnsResolver, host: string): Promise<string[]> {
  const settle = async (f: () => Promise<string[]>) => {
    try {
      return { ok: true as const, list: await f() };
    } catch (err) {
      return { ok: false as const, code: (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN' };
    }
  };
  const [v4, v6] = await Promise.all([settle(() => resolver.resolve4(host)), settle(() => resolver.resolve6(host))]);
  const list = [...(v4.ok ? v4.list : []), ...(v6.ok ? v6.list : [])];
  if (list.length) return list;
  const codes = [v4, v6].flatMap((r) => (r.ok ? [] : [r.code]));
  if (codes.every((c) => NO_DATA.has(c))) throw new DnsError('dns_not_found', `${host} has no A or AAAA record`);
  throw new DnsError('dns_failed', `${host}: DNS lookup failed (${[...new Set(codes)].join(', ')})`);
}

async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch {
    return [];
  }
}

const dot = (name: string) => (name.endsWith('.') ? name : `${name}.`);

/**
 * DKIM selectors whose CNAME names the sending service (`k1` Mailchimp, `mandrill` Mandrill,
 * `s1`/`s2` SendGrid, `selector1` Microsoft 365): the second trace that turns a stale-looking
 * SPF include into a claim. Random per-customer selectors (Amazon SES) cannot be guessed.
 */
const DEFAULT_DKIM_SELECTORS: readonly string[] = ['k1', 'mandrill', 's1', 's2', 'selector1'];

/**
 * Sub-domains companies point at a SaaS vendor with a CNAME: a status page, a help centre or
 * docs site, a careers board, marketing landing pages, a shop; `autodiscover` and the device
 * enrolment names of Microsoft 365 and Intune; `mta-sts`, where a hosted MTA-STS policy is
 * served. Their CNAMEs join the domain's own: `dns.CNAME` rules read them all.
 */
const SAAS_SUBDOMAINS: readonly string[] = [
  'status',
  'help',
  'support',
  'docs',
  'careers',
  'jobs',
  'go',
  'info',
  'email',
  'shop',
  'autodiscover',
  'enterpriseenrollment',
  'enterpriseregistration',
  'mta-sts',
];

/**
 * TXT records at names of their own read with the domain's TXT: the DMARC policy, whose report
 * addresses name the service that reads the reports (`dns.DMARC` rules), and the BIMI record,
 * whose logo and certificate URLs name where they are hosted.
 */
const POLICY_TXT_NAMES: readonly string[] = ['_dmarc', 'default._bimi'];

/**
 * The records the detector reads for a domain: MX (`"10 aspmx.l.google.com."`), TXT (strings
 * of one record joined: the domain's own, its DMARC and BIMI records), CNAME of the domain, of
 * its www host, of its DKIM selectors and of the SaaS sub-domains, A, AAAA and NS. Missing
 * records and failed queries leave a type empty; they never fail the site.
 */
export async function collectDns(resolver: DnsResolver, domain: string, dkimSelectors: readonly string[] = DEFAULT_DKIM_SELECTORS): Promise<DnsRecords> {
  const cnameHosts = [
    domain,
    `www.${domain}`,
    ...dkimSelectors.slice(0, 20).map((sel) => `${sel}._domainkey.${domain}`),
    ...SAAS_SUBDOMAINS.map((sub) => `${sub}.${domain}`),
  ];
  const txtHosts = [domain, ...POLICY_TXT_NAMES.map((name) => `${name}.${domain}`)];
  const [mx, a, aaaa, ns, txt, cnames] = await Promise.all([
    orEmpty(resolver.resolveMx(domain)),
    orEmpty(resolver.resolve4(domain)),
    orEmpty(resolver.resolve6(domain)),
    orEmpty(resolver.resolveNs(domain)),
    Promise.all(txtHosts.map((host) => orEmpty(resolver.resolveTxt(host)))),
    Promise.all(cnameHosts.map((host) => orEmpty(resolver.resolveCname(host)))),
  ]);
  const out: DnsRecords = {};
  const put = (type: keyof DnsRecords, list: string[]) => {
    if (list.length) out[type] = [...new Set(list)].slice(0, 50);
  };
  put(
    'MX',
    mx.sort((x, y) => x.priority - y.priority).map((m) => `${m.priority} ${dot(m.exchange)}`),
  );
  put(
    'TXT',
    txt.flat().map((chunks) => chunks.join('')),
  );
  put('CNAME', cnames.flat().map(dot));
  put('A', a);
  put('AAAA', aaaa);
  put('NS', ns.map(dot));
  return out;
}
