// fetchSite against a local fixture web server (127.0.0.2) and a local DNS server: redirects,
// cookies, DNS records, robots.txt, politeness, byte cap, timeout, retries — and the SSRF
// cases, run with an allow-list holding only the fixture server's address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { fetchSite, CollectError, Politeness, type FetchSiteOptions } from '../../src/detect/collect/index.ts';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { html, redirect, startDnsStub, startFixtureServer, type DnsStub, type FixtureServer } from '../helpers/collect.ts';

let dns: DnsStub, web: FixtureServer, loopback: FixtureServer;
let flaky = 0;

const page = `<!doctype html><html><head><meta name="generator" content="WordPress 6.5.2">
<script src="https://js.stripe.com/v3/"></script></head><body><h1>Shop</h1></body></html>`;

before(async () => {
  dns = await startDnsStub({
    'shop.test': { A: ['127.0.0.2'], MX: [[1, 'aspmx.l.google.com']], TXT: ['v=spf1 include:_spf.google.com ~all'], NS: ['ada.ns.cloudflare.com'] },
    'www.shop.test': { CNAME: ['shop.test'], A: ['127.0.0.2'] },
    'robots.test': { A: ['127.0.0.2'] },
    'intranet.test': { A: ['10.1.2.3'] },
    'mixed.test': { A: ['127.0.0.2', '127.0.0.1'] },
    'six.test': { AAAA: ['::1'] },
    'mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
  });
  loopback = await startFixtureServer({ '/': html('<p>internal admin</p>') }, '127.0.0.1');
  web = await startFixtureServer({
    'shop.test /': (_req, res) => {
      res.writeHead(302, { location: '/home', 'set-cookie': 'visited=1; Path=/' });
      res.end();
    },
    'shop.test /home': html(page, { server: 'nginx/1.25.3', 'x-powered-by': 'PHP/8.2.1', 'set-cookie': ['_ga=GA1.2.3.4; Path=/', 'wordpress_test_cookie=WP; Path=/'] }),
    'shop.test /careers': html('<p>We are hiring</p>'),
    'shop.test /loop': redirect('/loop'),
    'shop.test /big': html(`<html><body>${'x'.repeat(200_000)}</body></html>`),
    'shop.test /gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(`<html>${'y'.repeat(500_000)}</html>`));
    },
    'shop.test /hang': () => { /* never answers */ },
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
const opts = (extra: FetchSiteOptions = {}): FetchSiteOptions => ({
  dns: { servers: [dns.server] },
  network: { allowNetworks: ['127.0.0.2/32'], ports: 'any' },
  politeness: new Politeness(0),
  retryDelayMs: 10,
  timeoutMs: 2000,
  ...extra,
});

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CollectError, String(err));
    return err.reason;
  }
  assert.fail('expected the fetch to fail');
}

test('a site: redirects followed, headers and every Set-Cookie kept, DNS records collected, extra paths, a clear User-Agent', async () => {
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
    MX: ['1 aspmx.l.google.com.'], TXT: ['v=spf1 include:_spf.google.com ~all'], CNAME: ['shop.test.'], A: ['127.0.0.2'], NS: ['ada.ns.cloudflare.com.'],
  });
  const seen = web.requests.filter((r) => r.host === 'shop.test');
  assert.match(seen[0]!.userAgent, /^Stacklens\/\d+\.\d+\.\d+ \(/);
  const names = detect(site, loadCatalog()).map((d) => d.name);
  for (const n of ['WordPress', 'PHP', 'Nginx', 'Stripe', 'Google Workspace', 'Google Analytics']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
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
  assert.equal(web.requests.filter((r) => r.host === 'robots.test' && r.path === '/robots.txt').length, 2, 'one robots.txt per fetchSite without a shared cache');
});

test('politeness: requests to one host start at least the delay apart', async () => {
  const from = web.requests.length;
  await fetchSite(web.url('shop.test', '/careers'), opts({ politeness: new Politeness(250), paths: ['/home', '/careers'], robots: false }));
  const times = web.requests.slice(from).filter((r) => r.host === 'shop.test').map((r) => r.at);
  assert.equal(times.length, 3);
  for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 240, `gap ${times[i]! - times[i - 1]!} ms`);
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

test('SSRF: loopback, private, IPv6 loopback, IPv4-mapped and decimal forms are refused, directly and after a redirect', async () => {
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
  assert.equal(await reasonOf(fetchSite(web.url('shop.test'), { dns: { servers: [dns.server] }, network: { ports: 'any' }, robots: false })), 'blocked_non_public_address');
  // Ports: only 80 and 443 unless the policy says otherwise.
  assert.equal(await reasonOf(fetchSite(web.url('shop.test'), { dns: { servers: [dns.server] }, network: { allowNetworks: ['127.0.0.2/32'] }, robots: false })), 'blocked_port');
});

test('the operator may allow private networks (DETECT_ALLOW_PRIVATE_NETWORKS)', async () => {
  const site = await fetchSite(loopback.url('127.0.0.1'), { dns: { servers: [dns.server], records: false }, network: { allowPrivateNetworks: true, ports: 'any' }, robots: false, politeness: new Politeness(0) });
  assert.match(site.pages[0]!.html!, /internal admin/);
  assert.equal(loopback.requests.length, 1);
});
