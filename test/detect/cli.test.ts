// `stacklens detect --artifacts FILE` as a process: the JSON Lines output format, the readable
// report, bad lines reported with their number, an operator's rule file, and no database touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'stacklens-detect-cli-'));

function stacklens(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      // A data folder that must stay absent and a database URL that cannot connect: detect needs neither.
      { cwd: ROOT, env: { ...process.env, DATA_DIR: path.join(dir, 'no-data'), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sites = [
  {
    domain: 'shop.example',
    url: 'https://shop.example/',
    status: 200,
    headers: { server: 'nginx/1.25.3', 'x-powered-by': 'PHP/8.2.1' },
    cookies: ['_ga=GA1.2.3.4; Path=/'],
    html: '<html><head><meta name="generator" content="WordPress 6.5.2"><script src="https://js.stripe.com/v3/"></script></head><body></body></html>',
    dns: { MX: ['1 aspmx.l.google.com.'], TXT: ['v=spf1 include:_spf.google.com ~all'], NS: ['ada.ns.cloudflare.com.'] },
  },
  { domain: 'plain.example', dns: { MX: ['10 mx1.emailsrvr.com.'] } },
];

test('--json prints one line per site in the documented shape; bad lines are reported by number and skipped', async () => {
  const file = path.join(dir, 'artifacts.jsonl');
  writeFileSync(file, [JSON.stringify(sites[0]), '', '{"domain": 42}', 'not json at all', JSON.stringify(sites[1])].join('\n') + '\n');
  const { code, stdout, stderr } = await stacklens('detect', '--artifacts', file, '--json');
  assert.equal(code, 1, stderr);
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.domain),
    ['shop.example', 'plain.example'],
  );
  // The coverage of each collection: the whole page and the DNS records of the first; only DNS records of the second.
  assert.deepEqual(
    lines.map((l) => l.visit),
    [
      { outcome: 'ok', kinds: ['web', 'dns'], reason: null },
      { outcome: 'ok', kinds: ['dns'], reason: null },
    ],
  );
  for (const line of lines) {
    assert.deepEqual(Object.keys(line), ['domain', 'technologies', 'visit']);
    for (const t of line.technologies) {
      assert.deepEqual(
        Object.keys(t).filter((k) => k !== 'version'),
        ['name', 'vendorDomain', 'category', 'confidence', 'evidence'],
      );
      assert.ok(t.confidence >= 0.5 && t.confidence <= 1);
      for (const e of t.evidence) {
        assert.ok(['html', 'script', 'meta', 'header', 'cookie', 'dns', 'job'].includes(e.source));
        assert.ok(typeof e.ruleId === 'string' && typeof e.weight === 'number' && e.excerpt.length <= 200);
      }
    }
  }
  const wp = lines[0].technologies.find((t: { name: string }) => t.name === 'WordPress');
  assert.equal(wp.version, '6.5.2');
  assert.equal(wp.vendorDomain, 'wordpress.org');
  assert.equal(wp.category, 'Web Content Management');
  const names = lines[0].technologies.map((t: { name: string }) => t.name);
  for (const n of ['WordPress', 'PHP', 'Nginx', 'Stripe', 'Google Analytics', 'Google Workspace', 'Cloudflare DNS']) assert.ok(names.includes(n), n);
  assert.deepEqual(
    lines[1].technologies.map((t: { name: string }) => t.name),
    ['Rackspace Email'],
  );
  assert.match(stderr, /artifacts\.jsonl:3: domain: /);
  assert.match(stderr, /artifacts\.jsonl:4: not JSON/);
  assert.match(stderr, /2 sites, \d+ detections, 2 bad lines skipped/);
  assert.equal(existsSync(path.join(dir, 'no-data')), false, 'detect opened no database');
});

test('without --json: a readable report; a clean file exits 0', async () => {
  const file = path.join(dir, 'one.jsonl');
  writeFileSync(file, `${JSON.stringify(sites[0])}\n`);
  const { code, stdout } = await stacklens('detect', '--artifacts', file);
  assert.equal(code, 0);
  assert.match(stdout, /^shop\.example: \d+ technologies/);
  assert.match(stdout, /WordPress 6\.5\.2 +Web Content Management +\d\.\d\d/);
  assert.match(stdout, /PHP 8\.2\.1/);
});

test("--rules adds an operator's technology; a rule file with a pattern linear-time matching cannot run is refused with exit 2 and the technology named", async () => {
  const file = path.join(dir, 'widget.jsonl');
  writeFileSync(file, `${JSON.stringify({ domain: 'w.example', html: '<script src="https://cdn.acme-widget.example/w.js"></script>' })}\n`);
  const rules = path.join(dir, 'rules.json');
  writeFileSync(
    rules,
    JSON.stringify({ 'Acme Widget': { cats: ['Live Chat'], website: 'https://acme-widget.example', scriptSrc: 'cdn\\.acme-widget\\.example/' } }),
  );
  const ok = await stacklens('detect', '--artifacts', file, '--rules', rules, '--json');
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(
    JSON.parse(ok.stdout).technologies.map((t: { name: string; vendorDomain: string }) => `${t.name} ${t.vendorDomain}`),
    ['Acme Widget acme-widget.example'],
  );
  const unsafe = path.join(dir, 'unsafe.json');
  writeFileSync(unsafe, JSON.stringify({ 'Evil Widget': { cats: ['Live Chat'], html: '<(div)[^>]+evil</\\1>' } }));
  const bad = await stacklens('detect', '--artifacts', file, '--rules', unsafe);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Evil Widget: html\[0\]: .*backreference/);
  const missing = await stacklens('detect', '--artifacts', path.join(dir, 'missing.jsonl'));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--artifacts: cannot read/);
});

test('--workers: the files are detected on threads and printed in the input order, exactly as on the main thread; a bad count is refused', async () => {
  const file = path.join(dir, 'many.jsonl');
  // Sites of different sizes (so threads finish out of order), each with its own detections.
  const many = Array.from({ length: 60 }, (_, i) => ({
    ...sites[i % 2]!,
    domain: `site${i}.example`,
    ...(i % 2 === 0 ? { html: `${sites[0]!.html}${'<p>filler</p>'.repeat((i * 997) % 4000)}` } : {}),
  }));
  writeFileSync(file, many.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const onMain = await stacklens('detect', '--artifacts', file, '--json', '--workers', '1');
  const onThreads = await stacklens('detect', '--artifacts', file, '--json', '--workers', '3');
  assert.equal(onMain.code, 0, onMain.stderr);
  assert.equal(onThreads.code, 0, onThreads.stderr);
  assert.equal(onThreads.stdout, onMain.stdout);
  assert.deepEqual(
    onThreads.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).domain),
    many.map((s) => s.domain),
  );
  assert.ok(onMain.stdout.includes('WordPress'));
  const bad = await stacklens('detect', '--artifacts', file, '--workers', '0');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--workers: must be a whole number from 1 to 256, got '0'/);
});
