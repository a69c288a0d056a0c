// `stacklens detect --domains` as a process against a local web server and DNS server: the
// output lines, the summary by failure reason, the one-domain report, and resuming after a
// crash (SIGKILL) and after Ctrl-C (SIGINT) with no site written twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { html, startDnsStub, startFixtureServer, type DnsStub, type FixtureServer, type Route } from '../helpers/collect.ts';
import { builtInCatalog } from '../../src/detect/catalog.ts';
import { adversarialHtml, PAGE_BYTES } from '../helpers/adversarial-page.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'stacklens-crawl-cli-'));
const SITES = 40;
let dns: DnsStub, web: FixtureServer;

const slow =
  (ms: number, route: Route): Route =>
  (req, res) =>
    void setTimeout(() => route(req, res), ms);

before(async () => {
  const zone: Parameters<typeof startDnsStub>[0] = {
    'intranet.test': { A: ['10.0.0.5'] },
    'private.test': { A: ['127.0.0.2'] },
    'hostile.test': { A: ['127.0.0.2'] },
  };
  const routes: Record<string, Route> = {
    'private.test /robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /\n');
    },
  };
  for (let i = 0; i < SITES; i++) {
    zone[`site${i}.test`] = { A: ['127.0.0.2'], MX: [[1, 'aspmx.l.google.com']] };
    routes[`site${i}.test /`] = slow(
      120,
      html(`<html><head><meta name="generator" content="WordPress 6.${i % 10}"></head><body>site ${i}</body></html>`, { server: 'nginx' }),
    );
  }
  // site7's applicant-tracking tool is only on its careers page, which the default paths reach.
  routes['site7.test /careers'] = html(
    '<html><body><h1>Jobs</h1><div id="grnhse_app"></div><script src="https://boards.greenhouse.io/embed/job_board/js?for=site7"></script></body></html>',
  );
  // Every page of hostile.test is built to make a backtracking matcher quadratic on every html rule.
  const trace = '<form data-drupal-selector="x">';
  routes['hostile.test /'] = html(trace + adversarialHtml(builtInCatalog(), PAGE_BYTES - trace.length));
  for (const page of ['/careers', '/contact', '/pricing']) routes[`hostile.test ${page}`] = routes['hostile.test /'];
  dns = await startDnsStub(zone);
  web = await startFixtureServer(routes);
});

after(async () => {
  await Promise.all([dns.close(), web.close()]);
});

const env = { ...process.env, DATA_DIR: path.join(dir, 'no-data'), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DETECT_ALLOW_PRIVATE_NETWORKS: 'false' };
const crawlFlags = () => [
  '--dns-server',
  dns.server,
  '--allow-network',
  '127.0.0.2/32',
  '--ports',
  'any',
  '--delay',
  '0',
  '--concurrency',
  '3',
  '--timeout',
  '3000',
  '--retries',
  '0',
];
const siteUrl = (i: number) => web.url(`site${i}.test`);

function stacklens(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return stacklensWith(env, ...args);
}

function stacklensWith(environment: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: ROOT, env: environment, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function writeList(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('--domains --json: one line per site in the --artifacts shape; failures counted by reason in the summary; bad lines named', async () => {
  const list = writeList('mixed.txt', [
    'domain',
    '# a comment',
    siteUrl(0),
    siteUrl(1),
    siteUrl(1),
    'http://intranet.test/',
    'http://nowhere.test/',
    web.url('private.test'),
    'not a domain!',
    `http://2130706433:${web.port}/`,
  ]);
  const { code, stdout, stderr } = await stacklens('detect', '--domains', list, '--json', ...crawlFlags());
  assert.equal(code, 1, stderr);
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const byDomain = new Map(lines.map((l) => [l.domain, l]));
  for (const d of ['site0.test', 'site1.test']) {
    const names = byDomain.get(d).technologies.map((t: { name: string }) => t.name);
    assert.ok(names.includes('WordPress') && names.includes('Nginx') && names.includes('Google Workspace'), `${d}: ${names.join(', ')}`);
    assert.deepEqual(Object.keys(byDomain.get(d)), ['domain', 'technologies', 'visit']);
    assert.ok(['ok', 'partial', 'failed'].includes(byDomain.get(d).visit.outcome));
  }
  assert.equal(lines.filter((l) => l.domain === 'site1.test').length, 1, 'a duplicate line is fetched once');
  assert.match(stderr, /mixed\.txt:9: domain: 'not a domain!'/);
  assert.match(stderr, /6 domains: 2 fetched, 4 failed \(.*\); 8 detections on 2 sites; 1 bad line skipped/);
  for (const r of ['blocked_non_public_address 1', 'dns_not_found 1', 'robots_disallowed 1', 'blocked_ip_literal_form 1'])
    assert.ok(stderr.includes(r), `${r} in ${stderr}`);
  assert.equal(web.requests.filter((r) => r.host === 'private.test' && r.path === '/').length, 0, 'robots.txt obeyed');
  assert.equal(existsSync(path.join(dir, 'no-data')), false, 'no database opened');
});

test('--domain: a readable report of one site with where its page and DNS records came from', async () => {
  const { code, stdout, stderr } = await stacklens('detect', '--domain', siteUrl(3), ...crawlFlags());
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^site3\.test: \d+ technologies/);
  assert.match(stdout, /WordPress 6\.3 +Web Content Management/);
  assert.match(stdout, new RegExp(`page   ${siteUrl(3).replace(/[.]/g, '\\.')} \\(200, \\d+ bytes\\)`));
  assert.match(stdout, /dns    MX 1, A 1/);
  const blocked = await stacklens('detect', '--domain', 'http://intranet.test/', ...crawlFlags());
  assert.equal(blocked.code, 1);
  // Its DNS records were still read (and detected on); the page was not fetched.
  // The message says the name is not public, not what it resolves to.
  assert.match(
    blocked.stdout,
    /^intranet\.test: 0 technologies\n {2}dns {4}A 1\n {2}failed blocked_non_public_address: intranet\.test does not resolve to a public address; only public addresses are fetched\n/,
  );
  assert.doesNotMatch(blocked.stdout, /10\.0\.0\.5/);
});

test("the crawl also fetches a few common paths by default (careers, contact, pricing); --paths '' keeps to the home page", async () => {
  const careers = () => web.requests.filter((r) => r.host === 'site7.test' && r.path !== '/' && r.path !== '/robots.txt').map((r) => r.path);
  const before = careers().length;
  const { code, stdout, stderr } = await stacklens('detect', '--domain', siteUrl(7), '--json', ...crawlFlags());
  assert.equal(code, 0, stderr);
  const [site] = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const greenhouse = site.technologies.find((t: { name: string }) => t.name === 'Greenhouse');
  assert.ok(greenhouse, `Greenhouse found on the careers page: ${stdout}`);
  assert.ok(
    greenhouse.evidence.some((e: { url?: string }) => e.url?.endsWith('/careers')),
    'its evidence names the careers page',
  );
  assert.deepEqual(careers().slice(before).sort(), ['/careers', '/contact', '/pricing']);

  const homeOnly = await stacklens('detect', '--domain', siteUrl(7), '--json', '--paths', '', ...crawlFlags());
  assert.equal(homeOnly.code, 0, homeOnly.stderr);
  assert.ok(!homeOnly.stdout.includes('Greenhouse'), 'without the careers page, no Greenhouse');
  assert.equal(careers().length, before + 3, "--paths '' fetched no extra path");
});

function lineCount(file: string): number {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length
    : 0;
}

/** Starts the crawl and sends `signal` once the output file has at least `atLeast` lines. */
function runUntil(args: string[], out: string, atLeast: number, signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setInterval(() => {
      if (lineCount(out) >= atLeast) {
        clearInterval(timer);
        child.kill(signal);
      }
    }, 10);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, stderr });
    });
  });
}

test('resumable: killed mid-run (SIGKILL), then interrupted (SIGINT), then finished — every site once, none twice', async () => {
  const list = writeList(
    'many.txt',
    Array.from({ length: SITES }, (_, i) => siteUrl(i)),
  );
  const out = path.join(dir, 'many.jsonl');
  const args = ['detect', '--domains', list, '--out', out, ...crawlFlags()];

  const crash = await runUntil(args, out, 5, 'SIGKILL');
  assert.equal(crash.code, null, 'killed');
  const afterCrash = lineCount(out);
  assert.ok(afterCrash >= 5 && afterCrash < SITES, `${afterCrash} sites before the crash`);

  const stop = await runUntil(args, out, afterCrash + 5, 'SIGINT');
  assert.equal(stop.code, 130, stop.stderr);
  assert.match(stop.stderr, new RegExp(`${afterCrash} skipped \\(finished in an earlier run\\)`));
  assert.match(stop.stderr, /interrupted with \d+ left: run the same command again to resume/);
  const afterStop = lineCount(out);
  assert.ok(afterStop > afterCrash && afterStop < SITES, `${afterStop} sites after Ctrl-C`);

  const last = await stacklens(...args);
  assert.equal(last.code, 0, last.stderr);
  assert.match(last.stderr, new RegExp(`${SITES} domains: ${SITES - afterStop} fetched, 0 failed, ${afterStop} skipped`));
  const domains = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).domain as string);
  assert.equal(domains.length, SITES, 'no site written twice');
  assert.equal(new Set(domains).size, SITES);
  assert.deepEqual(
    new Set(
      readFileSync(`${out}.state`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).domain),
    ),
    new Set(domains),
  );

  const again = await stacklens(...args);
  assert.match(again.stderr, new RegExp(`${SITES} domains: 0 fetched, 0 failed, ${SITES} skipped`));
  assert.equal(lineCount(out), SITES);
});

test('bad options are refused with exit 2 and the option named', async () => {
  const list = writeList('one.txt', [siteUrl(0)]);
  for (const [flag, value, message] of [
    ['--concurrency', '0', /--concurrency: must be an integer 1-1000, got '0'/],
    ['--allow-network', '10.0.0.0/99', /--allow-network: '10\.0\.0\.0\/99' is not a CIDR block/],
    ['--paths', 'about', /--paths: each path must start with \//],
  ] as const) {
    const r = await stacklens('detect', '--domains', list, ...crawlFlags(), flag, value);
    assert.equal(r.code, 2, `${flag}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const two = await stacklens('detect', '--domains', list, '--har', 'x.har');
  assert.equal(two.code, 2);
  assert.match(two.stderr, /give one input, not --domains and --har/);
});

test('DETECT_ALLOW_PRIVATE_NETWORKS=true lets the crawl reach a private address without --allow-network; a bad value stops it', async () => {
  const flags = ['--dns-server', dns.server, '--ports', 'any', '--delay', '0', '--json'];
  const refused = await stacklens('detect', '--domain', siteUrl(5), ...flags);
  assert.equal(refused.code, 1);
  const allowed = await stacklensWith({ ...env, DETECT_ALLOW_PRIVATE_NETWORKS: 'true' }, 'detect', '--domain', siteUrl(5), ...flags);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.ok(JSON.parse(allowed.stdout).technologies.some((t: { name: string }) => t.name === 'WordPress'));
  const bad = await stacklensWith({ ...env, DETECT_ALLOW_PRIVATE_NETWORKS: 'perhaps' }, 'detect', '--domain', siteUrl(5), ...flags);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /DETECT_ALLOW_PRIVATE_NETWORKS must be true or false/);
});

test('a hostile site (every page 512 KiB built against every html rule) is crawled and detected in bounded time', async () => {
  // Killed after a minute: with the backtracking matcher one such page took longer than 400 s.
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'detect', '--domain', web.url('hostile.test'), '--json', ...crawlFlags(), '--max-bytes', String(PAGE_BYTES)],
      { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000, killSignal: 'SIGKILL' },
      (err, out, errOut) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout: out, stderr: errOut }),
    );
  });
  assert.equal(code, 0, stderr);
  const [site] = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(
    site.technologies.some((t: { name: string }) => t.name === 'Drupal'),
    stdout.slice(0, 300),
  );
});

test('--render without Chromium stops at once, before any site is fetched, saying how to install it', async () => {
  const before = web.requests.length;
  const viaEnv = await stacklensWith({ ...env, DETECT_CHROMIUM_PATH: '/nonexistent/chromium' }, 'detect', '--domain', siteUrl(6), '--render', ...crawlFlags());
  assert.equal(viaEnv.code, 2, viaEnv.stderr);
  assert.match(viaEnv.stderr, /--render: Chromium not found at \/nonexistent\/chromium: install it \(Debian\/Ubuntu: apt-get install -y chromium\)/);
  const viaFlag = await stacklens('detect', '--domain', siteUrl(6), '--render', '--chromium', '/nowhere/chrome', ...crawlFlags());
  assert.equal(viaFlag.code, 2);
  assert.match(viaFlag.stderr, /Chromium not found at \/nowhere\/chrome/);
  assert.equal(web.requests.length, before, 'nothing was crawled');
});
