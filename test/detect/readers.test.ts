// The offline collectors: HAR (a browser's network log), WARC (plain and gzip per record) and
// job posts (CSV and JSON Lines), each read into SiteArtifacts and run through the detector;
// malformed input fails with the place named; a large WARC streams with flat memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { readHar } from '../../src/detect/collect/har.ts';
import { readJobs } from '../../src/detect/collect/jobs.ts';
import { readWarc, WarcError } from '../../src/detect/collect/warc.ts';
import type { SiteArtifacts } from '../../src/detect/types.ts';

const FIX = new URL('../fixtures/detect/collect/', import.meta.url);
const catalog = loadCatalog();
const names = (site: SiteArtifacts) => detect(site, catalog).map((d) => d.name);

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

test('HAR: one record per site; the document after its redirect, first-party cookies, and script loads that only the network log shows', async () => {
  const sites = await all(readHar(new URL('sample.har', FIX).pathname));
  assert.deepEqual(
    sites.map((s) => s.domain),
    ['app.example', 'news.example'],
  );
  const [app, news] = sites;
  assert.equal(app!.pages.length, 1);
  const page = app!.pages[0]!;
  assert.equal(page.url, 'https://www.app.example/');
  assert.equal(page.status, 200);
  assert.equal(page.headers!.server, 'cloudflare');
  assert.equal(page.headers![':status'], undefined, 'HTTP/2 pseudo-headers left out');
  assert.deepEqual(
    page.cookies,
    ['first=1; Path=/', '__cf_bm=abc; path=/', '_hjSessionUser_123=xyz; path=/'],
    "the third-party intercom-id cookie is not the site's",
  );
  assert.deepEqual(page.scripts, ['https://static.hotjar.com/c/hotjar-123.js?sv=6', 'https://js.intercomcdn.com/frame-modern.abc.js']);
  const found = names(app!);
  for (const n of ['Cloudflare', 'Hotjar', 'Intercom']) assert.ok(found.includes(n), `${n} in ${found.join(', ')}`);
  const intercom = detect(app!, catalog).find((d) => d.name === 'Intercom')!;
  assert.equal(intercom.evidence[0]!.source, 'script');
  assert.match(news!.pages[0]!.html!, /Ghost 5\.82/, 'base64 content decoded');
  assert.ok(names(news!).includes('Ghost'));
  assert.equal(app!.capturedAt, '2026-11-25T10:00:00.000Z', "dated by the document entry's startedDateTime");
});

test('HAR: a file that is not JSON fails', async () => {
  await assert.rejects(all(readHar(Readable.from(['{"log": {"entries": [ {"request": ']))));
  await assert.rejects(all(readHar(Readable.from(['not json']))));
});

test('WARC: HTML response records become sites (1.0 and 1.1; chunked + gzip bodies); requests, metadata and images are skipped', async () => {
  for (const file of ['sample.warc', 'sample.warc.gz']) {
    const sites = await all(readWarc(new URL(file, FIX).pathname));
    assert.deepEqual(
      sites.map((s) => s.domain),
      ['shop.example', 'blog.example'],
      file,
    );
    const shop = sites[0]!.pages[0]!;
    assert.equal(shop.status, 200);
    assert.equal(shop.headers!.server, 'nginx/1.25.3');
    assert.deepEqual(shop.cookies, ['_ga=GA1.2.3.4; Path=/', 'wordpress_test_cookie=WP; Path=/']);
    const shopNames = names(sites[0]!);
    for (const n of ['WordPress', 'PHP', 'Nginx', 'Stripe']) assert.ok(shopNames.includes(n), `${file}: ${n}`);
    assert.ok(!shopNames.includes('Hotjar'), 'the commented-out tag does not count');
    assert.equal(sites[1]!.pages[0]!.url, 'https://www.blog.example/post');
    assert.match(sites[1]!.pages[0]!.html!, /googletagmanager/, `${file}: chunked and gzip undone`);
    assert.ok(!names(sites[1]!).includes('Shopify'), 'a mention in blog text is not use');
    assert.deepEqual(
      sites.map((s) => s.capturedAt),
      ['2026-11-25T10:00:01.000Z', '2026-11-25T10:00:02.000Z'],
      `${file}: dated by WARC-Date`,
    );
  }
});

test('WARC: a file cut inside a record, or not WARC at all, fails with the byte offset', async () => {
  const warc = readFileSync(new URL('sample.warc', FIX));
  await assert.rejects(
    all(readWarc(Readable.from([warc.subarray(0, warc.length - 10)]))),
    (e: unknown) => e instanceof WarcError && /ends inside a record block/.test(e.message),
  );
  await assert.rejects(
    all(readWarc(Readable.from([Buffer.from('HTTP/1.1 200 OK\r\n\r\nhello')]))),
    (e: unknown) => e instanceof WarcError && /no WARC\/1\.0 or WARC\/1\.1 record at byte 0/.test(e.message),
  );
});

test('WARC: 300 MB streamed record by record keeps memory flat (no record held past its turn)', async () => {
  const body = `<html><head><meta name="generator" content="WordPress 6.5"></head><body>${'lorem ipsum '.repeat(90_000)}</body></html>`;
  const http = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${body}`);
  const record = (i: number) =>
    Buffer.concat([
      Buffer.from(
        `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://site${i}.example/\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`,
      ),
      http,
      Buffer.from('\r\n\r\n'),
    ]);
  const COUNT = 300; // ~1.08 MB each
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < COUNT; i++) yield record(i);
    })(),
  );
  global.gc?.();
  const before = process.memoryUsage().rss;
  let n = 0,
    peak = 0;
  for await (const site of readWarc(source, { maxRecordBytes: 256 * 1024 })) {
    n++;
    assert.ok(site.pages[0]!.html!.length <= 256 * 1024);
    if (n % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss - before);
  }
  assert.equal(n, COUNT);
  assert.ok(peak < 150 * 1024 * 1024, `rss grew ${(peak / 1048576).toFixed(0)} MB reading ${((COUNT * http.length) / 1048576).toFixed(0)} MB`);
});

test("job posts: CSV and JSON Lines, matched with the catalog's job phrases; consecutive posts of a domain make one record; bad rows named", async () => {
  const csv = [
    'domain,title,description',
    'acme.example,Data Engineer,"We build pipelines on Snowflake and dbt, with Looker on top."',
    'acme.example,Sales Ops Manager,"Own our Salesforce instance and HubSpot workflows."',
    ',Nameless,"No domain here"',
    'globex.example,Backend Engineer,"Python, PostgreSQL and Kubernetes. We chat on Slack."',
    'not a domain,Title,"text"',
  ].join('\n');
  const errors: string[] = [];
  const sites = await all(readJobs(Readable.from([csv]), { format: 'csv', onError: (line, m) => errors.push(`${line}: ${m}`) }));
  assert.deepEqual(
    sites.map((s) => [s.domain, s.jobs!.length]),
    [
      ['acme.example', 2],
      ['globex.example', 1],
    ],
  );
  assert.match(sites[0]!.jobs![0]!, /^Data Engineer\n\nWe build pipelines/);
  const acme = detect(sites[0]!, catalog);
  for (const n of ['Snowflake', 'Salesforce', 'HubSpot'])
    assert.ok(
      acme.some((d) => d.name === n),
      `${n} in ${acme.map((d) => d.name).join(', ')}`,
    );
  assert.ok(acme.every((d) => d.evidence.every((e) => e.source === 'job')));
  assert.ok(names(sites[1]!).includes('Slack'));
  assert.deepEqual(
    errors.map((e) => e.replace(/:.*/, '')),
    ['4', '6'],
  );
  assert.match(errors[1]!, /'not a domain' is not a domain/);

  const jsonl = [
    JSON.stringify({ company_domain: 'https://www.initech.example/jobs', title: 'Marketing Ops', text: 'Experience with Marketo and Google Analytics.' }),
    JSON.stringify({ domain: 'initech.example', title: 'Lowercase slack is a word', text: 'there is some slack in the plan' }),
  ].join('\n');
  const fromJsonl = await all(readJobs(Readable.from([jsonl]), { format: 'jsonl' }));
  assert.deepEqual(
    fromJsonl.map((s) => s.domain),
    ['initech.example'],
  );
  const found = names(fromJsonl[0]!);
  assert.ok(found.includes('Marketo') && found.includes('Google Analytics'));
  assert.ok(!found.includes('Slack'), 'job phrases are case-sensitive');
});

test('WARC gzip: members concatenated per record are read as one stream', async () => {
  const warc = readFileSync(new URL('sample.warc', FIX));
  // Split at arbitrary points, not at record boundaries: the reader must not care.
  const gz = gzipSync(warc);
  const parts = [gz.subarray(0, 7), gz.subarray(7, 100), gz.subarray(100)];
  const sites = await all(readWarc(Readable.from(parts)));
  assert.deepEqual(
    sites.map((s) => s.domain),
    ['shop.example', 'blog.example'],
  );
});
