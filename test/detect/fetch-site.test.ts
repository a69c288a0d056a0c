// fetchSite against a local fixture web server (127.0.0.2) and a local DNS server: redirects,
// cookies, DNS records, robots.txt, politeness, byte cap, timeout, retries — and the SSRF
// cases, run with an allow-list holding only the fixture server's address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fetchSite, CollectError, Politeness, type FetchSiteOptions } from '../../src/detect/collect/index.ts';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { html, localFetchOptions, redirect, startDnsStub, startFixtureServer, type DnsStub, type FixtureServer } from '../helpers/collect.ts';

let dns: DnsStub, web: FixtureServer, loopback: FixtureServer;
let flaky = 0;

const page = `<!doctype html><html><head><meta name="generator" content="WordPress 6.5.2">
<script src="https://js.stripe.com/v3/"></script></head><body><h1>Shop</h1></body></html>`;

before(async () => {
  dns = await startDnsStub({
    'shop.test': { A: ['127.0.0.2'], MX: [[1, 'aspmx.l.google.com']], TXT: ['v=spf1 include:_spf.google.com ~all'], NS: ['ada.ns.cloudflare.com'] },
    'www.shop.test': { CNAME: ['shop.test'], A: ['127.0.0.2'] },
    'k1._domainkey.shop.test': { CNAME: ['dkim.mcsv.net'] },
    'status.shop.test': { CNAME: ['shop.stspg-customer.com'] },
    'autodiscover.shop.test': { CNAME: ['autodiscover.outlook.com'] },
    '_dmarc.shop.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:a1b2@ag.dmarcian.com,mailto:dmarc@shop.test; ruf=mailto:f@fr.dmarcian.com'] },
    'robots.test': { A: ['127.0.0.2'] },
    'intranet.test': { A: ['10.1.2.3'] },
    'mixed.test': { A: ['127.0.0.2', '127.0.0.1'] },
    'six.test': { AAAA: ['::1'] },
    'mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
    'compat.test': { AAAA: ['::127.0.0.1'] },
    'nat64.test': { AAAA: ['64:ff9b::a01:203'] },
    'sixtofour.test': { AAAA: ['2002:a01:203::1'] },
  });
  loopback = await startFixtureServer({ '/': html('<p>internal admin</p>') }, '127.0.0.1');
  web = await startFixtureServer({
    'shop.test /': (_req, res) => {
      res.writeHead(302, { location: '/home', 'set-cookie': 'visited=1; Path=/' });
      res.end();
    },
    'shop.test /home': html(page, {
      server: 'nginx/1.25.3',
      'x-powered-by': 'PHP/8.2.1',
      'set-cookie': ['_ga=GA1.2.3.4; Path=/', 'wordpress_test_cookie=WP; Path=/'],
    }),
    'shop.test /careers': html('<p>We are hiring</p>'),
    'shop.test /loop': redirect('/loop'),
    'shop.test /big': html(`<html><body>${'x'.repeat(200_000)}</body></html>`),
    'shop.test /gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(`<html>${'y'.repeat(500_000)}</html>`));
    },
    'shop.test /hang': () => {
      /* never answers */
    },
    'shop.test /flaky': (_req, res) => {
      flaky++;
      if (flaky <= 2) {
        res.writeHead(503, { 'retry-after': '0' });
        res.end('busy');
      } else html('<p>ok at last</p>')(_req, res);
    },
    'shop.test /to-loopback': redirect(loopback.url('127.0.0.1')),
    'shop.test /to-decimal': redirect(`http://2130706433:${loopback.port}/`),
    'shop.test /to-v6': redirect(`http://[::1]:${loopback.port}/`),
    'shop.test /to-v4-compatible': redirect(`http://[::127.0.0.1]:${loopback.port}/`),
    'shop.test /to-file': redirect('file:///etc/passwd'),
    'shop.test /to-intranet': redirect('http://intranet.test/'),
    'robots.test /robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n\nUser-agent: Stacklens\nDisallow: /private\n');
    },
    'robots.test /': html('<p>public</p>'),
    'robots.test /private': html('<p>private</p>'),
  });
});

after(async () => {
  await Promise.all([dns.close(), web.close(), loopback.close()]);
});

/** Only the fixture server's address is allowed beyond the public internet. */
const opts = (extra: FetchSiteOptions = {}): FetchSiteOptions => localFetchOptions(dns, extra);

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CollectError, String(err));
    return err.reason;
  }
  assert.fail('expected the fetch to fail');
}

test('a site: redirects followed, headers and every Set-Cookie kept, DNS records collected (DKIM selectors, SaaS sub-domains, DMARC), extra paths, a clear User-Agent', async () => {
  const site = await fetchSite(web.url('shop.test'), opts({ paths: ['/careers', '/nope'] }));
  assert.equal(site.domain, 'shop.test');
  assert.equal(site.pages.length, 2, 'the 404 extra path is left out');
  const [home, careers] = site.pages;
  assert.equal(home!.url, web.url('shop.test', '/home'));
  assert.equal(home!.status, 200);
  assert.equal(home!.headers!.server, 'nginx/1.25.3');
  assert.deepEqual(home!.cookies, ['visited=1; Path=/', '_ga=GA1.2.3.4; Path=/', 'wordpress_test_cookie=WP; Path=/']);
  assert.match(home!.html!, /WordPress 6\.5\.2/);
  assert.match(careers!.html!, /hiring/);
  assert.deepEqual(site.dns, {
    MX: ['1 aspmx.l.google.com.'],
    TXT: ['v=spf1 include:_spf.google.com ~all', 'v=DMARC1; p=reject; rua=mailto:a1b2@ag.dmarcian.com,mailto:dmarc@shop.test; ruf=mailto:f@fr.dmarcian.com'],
    CNAME: ['shop.test.', 'dkim.mcsv.net.', 'shop.stspg-customer.com.', 'autodiscover.outlook.com.'],
    A: ['127.0.0.2'],
    NS: ['ada.ns.cloudflare.com.'],
  });
  const seen = web.requests.filter((r) => r.host === 'shop.test');
  assert.match(seen[0]!.userAgent, /^Stacklens\/\d+\.\d+\.\d+ \(/);
  const names = detect(site, loadCatalog()).map((d) => d.name);
  for (const n of [
    'WordPress',
    'PHP',
    'Nginx',
    'Stripe',
    'Google Workspace',
    'Google Analytics',
    'Mailchimp',
    'Atlassian Statuspage',
    'Microsoft 365',
    'dmarcian',
  ])
    assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
});

test('redirects beyond the limit fail the site with too_many_redirects; DNS records are still handed back', async () => {
  const err = await fetchSite(web.url('shop.test', '/loop'), opts({ maxRedirects: 3 })).catch((e: unknown) => e);
  assert.ok(err instanceof CollectError);
  assert.equal(err.reason, 'too_many_redirects');
  assert.deepEqual(err.site.dns?.MX, ['1 aspmx.l.google.com.']);
});

test('robots.txt: a path disallowed for our token is not fetched; one allowed is', async () => {
  assert.equal(await reasonOf(fetchSite(web.url('robots.test', '/private'), opts({ dns: { servers: [dns.server], records: false } }))), 'robots_disallowed');
  assert.equal(web.requests.filter((r) => r.host === 'robots.test' && r.path === '/private').length, 0);
  const site = await fetchSite(web.url('robots.test', '/'), opts({ dns: { servers: [dns.server], records: false } }));
  assert.match(site.pages[0]!.html!, /public/);
  assert.equal(
    web.requests.filter((r) => r.host === 'robots.test' && r.path === '/robots.txt').length,
    2,
    'one robots.txt per fetchSite without a shared cache',
  );
});

test('politeness: requests to one host start at least the delay apart', async () => {
  const from = web.requests.length;
  await fetchSite(web.url('shop.test', '/careers'), opts({ politeness: new Politeness(400), paths: ['/home', '/careers'], robots: false }));
  const times = web.requests
    .slice(from)
    .filter((r) => r.host === 'shop.test')
    .map((r) => r.at);
  assert.equal(times.length, 3);
  // Starts are spaced by 400 ms on our side; arrivals at the server carry the machine's jitter
  // (the first request may arrive late under load), so the bounds leave room for it. Without
  // the delay the three requests arrive within a few milliseconds.
  for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 200, `gap ${times[i]! - times[i - 1]!} ms`);
  assert.ok(times[2]! - times[0]! >= 700, `span ${times[2]! - times[0]!} ms`);
});

test('byte cap: a large body is cut at maxBytes, also after gzip decompression', async () => {
  const big = await fetchSite(web.url('shop.test', '/big'), opts({ maxBytes: 10_000 }));
  assert.equal(Buffer.byteLength(big.pages[0]!.html!), 10_000);
  const gz = await fetchSite(web.url('shop.test', '/gz'), opts({ maxBytes: 20_000 }));
  assert.equal(Buffer.byteLength(gz.pages[0]!.html!), 20_000);
  assert.ok(gz.pages[0]!.html!.startsWith('<html>yyyy'));
});

test('timeout: a server that never answers fails the site with timeout, after the retries', async () => {
  const from = web.requests.length;
  assert.equal(await reasonOf(fetchSite(web.url('shop.test', '/hang'), opts({ timeoutMs: 300, retries: 1, robots: false }))), 'timeout');
  assert.equal(web.requests.slice(from).filter((r) => r.path === '/hang').length, 2, 'tried twice');
});

test('retries: 503 twice, then 200 — the site is fetched on the third try', async () => {
  flaky = 0;
  const site = await fetchSite(web.url('shop.test', '/flaky'), opts({ retries: 2, robots: false }));
  assert.equal(site.pages[0]!.status, 200);
  assert.equal(flaky, 3);
  flaky = 0;
  assert.equal(await reasonOf(fetchSite(web.url('shop.test', '/flaky'), opts({ retries: 1, robots: false }))), 'http_503');
});

test('a name without records fails with dns_not_found', async () => {
  assert.equal(await reasonOf(fetchSite('http://nowhere.test/', opts())), 'dns_not_found');
});

test('SSRF: loopback, private, IPv6 loopback, IPv6 forms embedding an IPv4 address and decimal forms are refused, directly and after a redirect', async () => {
  const cases: Array<[string, string]> = [
    [web.url('shop.test', '/to-loopback'), 'blocked_non_public_address'],
    [web.url('shop.test', '/to-decimal'), 'blocked_ip_literal_form'],
    [web.url('shop.test', '/to-v6'), 'blocked_non_public_address'],
    [web.url('shop.test', '/to-file'), 'blocked_scheme'],
    [web.url('shop.test', '/to-intranet'), 'blocked_non_public_address'],
    ['http://intranet.test/', 'blocked_non_public_address'],
    [web.url('mixed.test'), 'blocked_non_public_address'],
    [web.url('six.test'), 'blocked_non_public_address'],
    [web.url('mapped.test'), 'blocked_non_public_address'],
    [web.url('compat.test'), 'blocked_non_public_address'],
    [web.url('nat64.test'), 'blocked_non_public_address'],
    [web.url('sixtofour.test'), 'blocked_non_public_address'],
    [web.url('shop.test', '/to-v4-compatible'), 'blocked_non_public_address'],
    [`http://[::127.0.0.1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://[::7f00:1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://[::ffff:0:127.0.0.1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://[64:ff9b::127.0.0.1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://[2002:7f00:1::1]:${loopback.port}/`, 'blocked_non_public_address'],
    [loopback.url('127.0.0.1'), 'blocked_non_public_address'],
    [`http://[::1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://[::ffff:127.0.0.1]:${loopback.port}/`, 'blocked_non_public_address'],
    [`http://2130706433:${loopback.port}/`, 'blocked_ip_literal_form'],
    [`http://0x7f.0.0.1:${loopback.port}/`, 'blocked_ip_literal_form'],
    [`http://017700000001:${loopback.port}/`, 'blocked_ip_literal_form'],
    [`http://0.0.0.0:${loopback.port}/`, 'blocked_non_public_address'],
    ['http://localhost/', 'blocked_local_name'],
  ];
  for (const [url, reason] of cases) assert.equal(await reasonOf(fetchSite(url, opts({ robots: false }))), reason, url);
  assert.equal(loopback.requests.length, 0, 'nothing reached the server on 127.0.0.1');
  // The default policy (public addresses only) refuses the fixture server itself.
  assert.equal(
    await reasonOf(fetchSite(web.url('shop.test'), { dns: { servers: [dns.server] }, network: { ports: 'any' }, robots: false })),
    'blocked_non_public_address',
  );
  // Ports: only 80 and 443 unless the policy says otherwise.
  assert.equal(
    await reasonOf(fetchSite(web.url('shop.test'), { dns: { servers: [dns.server] }, network: { allowNetworks: ['127.0.0.2/32'] }, robots: false })),
    'blocked_port',
  );
});

test('a name refused for its addresses: the message says only that it does not resolve to a public address, never which address', async () => {
  for (const name of ['intranet.test', 'mixed.test', 'six.test', 'mapped.test', 'compat.test', 'nat64.test', 'sixtofour.test']) {
    const err = await fetchSite(web.url(name), opts({ robots: false, dns: { servers: [dns.server], records: false } })).catch((e: unknown) => e);
    assert.ok(err instanceof CollectError, String(err));
    assert.equal(err.reason, 'blocked_non_public_address');
    assert.equal(err.message, `${name} does not resolve to a public address; only public addresses are fetched`);
  }
});

test('the operator may allow private networks (DETECT_ALLOW_PRIVATE_NETWORKS)', async () => {
  const site = await fetchSite(loopback.url('127.0.0.1'), {
    dns: { servers: [dns.server], records: false },
    network: { allowPrivateNetworks: true, ports: 'any' },
    robots: false,
    politeness: new Politeness(0),
  });
  assert.match(site.pages[0]!.html!, /internal admin/);
  assert.equal(loopback.requests.length, 1);
});

test('DNS rebinding: a name whose answer flips between a allowed and a loopback address never reaches loopback', async () => {
  let calls = 0;
  // Each resolve4 answers the other address: the check and the connection must use one answer.
  const flipping = {
    resolve4: async () => [calls++ % 2 === 0 ? '127.0.0.2' : '127.0.0.1'],
    resolve6: async () => [],
    resolveMx: async () => [],
    resolveTxt: async () => [],
    resolveCname: async () => [],
    resolveNs: async () => [],
  };
  const reasons: string[] = [];
  const before = loopback.requests.length;
  for (let i = 0; i < 6; i++) {
    try {
      const site = await fetchSite(`http://shop.test:${loopback.port}/`, opts({ dns: { resolver: flipping, records: false }, robots: false, retries: 0 }));
      reasons.push(`ok ${site.pages[0]!.status}`);
    } catch (err) {
      reasons.push((err as CollectError).reason);
    }
  }
  assert.ok(reasons.includes('blocked_non_public_address'), reasons.join(', '));
  assert.ok(
    reasons.some((r) => r !== 'blocked_non_public_address'),
    'the allowed answer was used for its own connection',
  );
  assert.equal(loopback.requests.length, before, 'no connection reached 127.0.0.1');
});

test('a bare domain without HTTPS is fetched over HTTP', async (t) => {
  const plain = await startFixtureServer({ 'shop.test /': html('<p>plain http</p>') }, '127.0.0.2', 80).catch(() => null);
  if (!plain) return t.skip('port 80 of 127.0.0.2 is not free here');
  try {
    const site = await fetchSite('shop.test', opts({ network: { allowNetworks: ['127.0.0.2/32'] }, robots: false, retries: 0 }));
    assert.equal(site.pages[0]!.url, 'http://shop.test/');
    assert.match(site.pages[0]!.html!, /plain http/);
  } finally {
    await plain.close();
  }
});

/** A self-signed certificate for shop.test made with the openssl CLI, or null where it is missing. */
function selfSigned(): { key: Buffer; cert: Buffer } | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'stacklens-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=shop.test',
        '-addext',
        'subjectAltName=DNS:shop.test',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  } catch {
    return null;
  }
}

test('HTTPS: the connection goes to the checked address while the certificate is verified against the name (SNI)', async (t) => {
  const pair = selfSigned();
  if (!pair) return t.skip('no openssl CLI to make a test certificate');
  const server = https.createServer(pair, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<p>tls ok for ${req.headers.host}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const site = await fetchSite(`https://shop.test:${port}/`, opts({ ca: pair.cert, robots: false, retries: 0 }));
    assert.match(site.pages[0]!.html!, new RegExp(`tls ok for shop\\.test:${port}`));
    // Not trusted without the CA; another name on the same address fails verification.
    assert.equal(await reasonOf(fetchSite(`https://shop.test:${port}/`, opts({ robots: false, retries: 0 }))), 'tls');
    assert.equal(await reasonOf(fetchSite(`https://robots.test:${port}/`, opts({ ca: pair.cert, robots: false, retries: 0 }))), 'tls');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
