// `stacklens detect --artifacts FILE --save` and `stacklens observe FILE` as processes on an
// embedded data folder: the run is recorded, installs derived and cohorts refreshed; the same
// input again adds no observation; bad site records are reported by line.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { insertWorld } from '../helpers/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'stacklens-observe-cli-'));
const dataDir = path.join(dir, 'data');

function stacklens(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function query<R extends object>(sql: string): Promise<R[]> {
  const db = await openDb({ dataDir });
  try {
    return await db.query<R>(sql);
  } finally {
    await db.close();
  }
}

before(async () => {
  const db = await openDb({ dataDir });
  await migrate(db);
  await insertWorld(db, {
    categories: [
      { id: 'cat_cms', name: 'Web Content Management' },
      { id: 'cat_lang', name: 'Web Frameworks' },
      { id: 'cat_pay', name: 'Payment Processing' },
      { id: 'cat_wa', name: 'Web Analytics' },
    ],
    companies: [{ id: 'cmp_shop', domain: 'shop.example' }],
  });
  await db.close();
});

const artifacts = {
  domain: 'shop.example',
  url: 'https://shop.example/',
  status: 200,
  headers: { 'x-powered-by': 'PHP/8.2.1' },
  cookies: ['_ga=GA1.2.3.4; Path=/'],
  html: '<html><head><meta name="generator" content="WordPress 6.5.2"><script src="https://js.stripe.com/v3/"></script></head><body></body></html>',
};

test('detect --save records the run and derives installs; the same input again adds nothing', async () => {
  const file = path.join(dir, 'artifacts.jsonl');
  writeFileSync(file, `${JSON.stringify(artifacts)}\n${JSON.stringify({ ...artifacts, domain: 'new-shop.example', url: 'https://new-shop.example/' })}\n`);
  const first = await stacklens('detect', '--artifacts', file, '--json', '--save');
  assert.equal(first.code, 0, first.stderr);
  const m = /saved run run_\w+: 2 sites, (\d+) new of (\d+) observations; 1 companies and (\d+) products added/.exec(first.stderr);
  assert.ok(m, first.stderr);
  assert.equal(m[1], m[2], 'all new the first time');
  assert.match(first.stderr, /refresh: \d+ companies/);
  const installs = await query<{ company_id: string; name: string; sources: string[] }>(
    'SELECT i.company_id, p.name, i.sources FROM installs i JOIN products p ON p.id = i.product_id ORDER BY 1, 2',
  );
  const names = installs.filter((r) => r.company_id === 'cmp_shop').map((r) => r.name);
  for (const n of ['WordPress', 'PHP', 'Stripe', 'Google Analytics']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
  assert.ok(
    installs.some((r) => r.company_id === 'cmp_new-shop_example'),
    'the unknown domain became a company',
  );

  const again = await stacklens('detect', '--artifacts', file, '--save');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, new RegExp(`2 sites, 0 new of ${m[2]} observations; 0 companies and 0 products added; installs: 0 changed`));
  const [observations] = await query<{ n: number }>('SELECT count(*)::int AS n FROM observations');
  assert.equal(observations?.n, Number(m[2]));
});

test('observe FILE records detect --json lines; a bad record is reported by line and skipped', async () => {
  const file = path.join(dir, 'run.jsonl');
  const good = {
    domain: 'shop.example',
    technologies: [
      {
        name: 'Nginx',
        vendorDomain: 'nginx.org',
        category: 'Web Servers',
        confidence: 0.9,
        evidence: [{ source: 'header', url: 'https://shop.example/', ruleId: 'Nginx/headers/server', excerpt: 'server: nginx', weight: 0.9 }],
      },
    ],
  };
  const bad = { domain: 'shop.example', technologies: [{ name: 'X', vendorDomain: 'x.example', category: 'Web Analytics', confidence: 2, evidence: [] }] };
  writeFileSync(file, [JSON.stringify(good), JSON.stringify(bad), 'nope'].join('\n') + '\n');
  const res = await stacklens('observe', file, '--no-refresh');
  assert.equal(res.code, 1, res.stderr);
  assert.match(res.stderr, /run\.jsonl:2: technologies\.0\.confidence: /);
  assert.match(res.stderr, /run\.jsonl:3: not JSON/);
  assert.match(res.stderr, /1 site, 0 new of 0 observations/, 'no category "Web Servers" in this world: not saved');
  assert.match(res.stderr, /not saved, no category of our taxonomy: Nginx/);
  const rederive = await stacklens('observe');
  assert.equal(rederive.code, 0, rederive.stderr);
  assert.match(rederive.stdout, /installs: 0 changed, 0 expired \(unseen for 90 days\); refresh: \d+ companies/);
});

test('detect --warc --save dates the observations by the WARC-Date of each record, not by the day they are read', async () => {
  const warc = path.join(ROOT, 'test/fixtures/detect/collect/sample.warc');
  const run = await stacklens('detect', '--warc', warc, '--save');
  assert.equal(run.code, 0, run.stderr);
  const rows = await query<{ seen: string; n: number }>(
    `SELECT to_char(seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS seen, count(*)::int AS n
       FROM observations WHERE company_id = 'cmp_shop' AND evidence->>'input' = 'warc' GROUP BY 1`,
  );
  assert.deepEqual(
    rows.map((r) => r.seen),
    ['2026-11-25T10:00:01'],
    'the response record of shop.example is dated 10:00:01',
  );
  assert.ok(rows[0]!.n > 0);
});
