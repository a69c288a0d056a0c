// Job boards: a company's applicant-tracking board is found from its own pages, read through the
// board's public endpoint (served here by a local server standing in for the vendors' APIs), and
// its postings become job posts the `job` rules read; a board that cannot be read never fails the site.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { fetchSite, type FetchSiteOptions } from '../../src/detect/collect/fetch-site.ts';
import { boardListRequest, discoverBoards, htmlText, parseBoardListing } from '../../src/detect/collect/job-boards.ts';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import { html, localFetchOptions, startDnsStub, startFixtureServer, type DnsStub, type FixtureServer } from '../helpers/collect.ts';

let dns: DnsStub, web: FixtureServer;
const posted: unknown[] = [];
const json =
  (data: unknown) =>
  (_req: http.IncomingMessage, res: http.ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(data));
  };

before(async () => {
  const hosts = ['lever.test', 'greenhouse.test', 'workday.test', 'broken.test', 'api.lever.co', 'boards-api.greenhouse.io', 'acme.wd5.myworkdayjobs.com'];
  dns = await startDnsStub(Object.fromEntries(hosts.map((h) => [h, { A: ['127.0.0.2'] }])));
  web = await startFixtureServer({
    'lever.test /': html('<h1>Acme</h1><a href="/careers">Careers</a>'),
    'lever.test /careers': html('<p>Open roles: <a href="https://jobs.lever.co/acme-labs">see all jobs</a></p>'),
    'api.lever.co /v0/postings/acme-labs?mode=json': json([
      {
        text: 'Data Engineer',
        descriptionPlain: 'You will build pipelines with Snowflake and dbt.',
        lists: [{ text: 'Requirements', content: '<li>Experience with <b>Apache Airflow</b></li>' }],
      },
      { text: 'Account Executive', descriptionPlain: 'You will run your pipeline in Salesforce.' },
    ]),
    'greenhouse.test /': html('<div id="grnhse_app"></div><script src="https://boards.greenhouse.io/embed/job_board/js?for=acmeco"></script>'),
    'boards-api.greenhouse.io /v1/boards/acmeco/jobs?content=true': json({
      jobs: [{ title: 'Support Lead', content: '&lt;p&gt;Our team works in &lt;strong&gt;Zendesk&lt;/strong&gt; every day.&lt;/p&gt;' }],
    }),
    'workday.test /': html('<a href="https://acme.wd5.myworkdayjobs.com/en-US/External">Careers</a>'),
    'acme.wd5.myworkdayjobs.com /wday/cxs/acme/External/jobs': (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        posted.push({ method: req.method, body: JSON.parse(body) as unknown });
        json({ total: 1, jobPostings: [{ title: 'Platform Engineer', externalPath: '/job/Remote/Platform-Engineer_R1' }] })(req, res);
      });
    },
    'acme.wd5.myworkdayjobs.com /wday/cxs/acme/External/job/Remote/Platform-Engineer_R1': json({
      jobPostingInfo: { title: 'Platform Engineer', jobDescription: '<p>We run Kubernetes on AWS and monitor with Datadog.</p>' },
    }),
    'broken.test /': html('<a href="https://jobs.lever.co/gone">Jobs</a>'),
  });
});
after(async () => {
  await web.close();
  await dns.close();
});

/** Every board endpoint is served by the local stand-in, on its own port. */
const opts = (extra: FetchSiteOptions = {}): FetchSiteOptions =>
  localFetchOptions(dns, {
    dns: { servers: [dns.server], records: false },
    robots: false,
    jobBoards: { rewrite: (url) => url.replace(/^https:\/\/([^/]+)/, `http://$1:${web.port}`) },
    ...extra,
  });

test("a Lever board linked from the careers page: its postings are the site's job posts and the job rules read them", async () => {
  const site = await fetchSite(web.url('lever.test'), opts({ paths: ['/careers'] }));
  assert.equal(site.jobs?.length, 2);
  assert.match(site.jobs![0]!, /^Data Engineer\nYou will build pipelines with Snowflake and dbt\.\nRequirements\nExperience with Apache Airflow/);
  const names = detect(site, loadCatalog()).map((d) => d.name);
  for (const n of ['Snowflake', 'Salesforce']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
  const found = detect(site, loadCatalog()).find((d) => d.name === 'Snowflake')!;
  assert.equal(found.evidence[0]!.source, 'job');
});

test('a Greenhouse board embedded by script: the escaped HTML of its postings is read as text', async () => {
  const site = await fetchSite(web.url('greenhouse.test'), opts());
  assert.deepEqual(site.jobs, ['Support Lead\nOur team works in Zendesk every day.']);
});

test("a Workday careers site: the search is a POST, each posting's text a request of its own", async () => {
  const site = await fetchSite(web.url('workday.test'), opts());
  assert.deepEqual(site.jobs, ['Platform Engineer\nWe run Kubernetes on AWS and monitor with Datadog.']);
  assert.deepEqual(posted.at(-1), { method: 'POST', body: { appliedFacets: {}, limit: 20, offset: 0, searchText: '' } });
});

test('a board that cannot be read leaves the site as it is; jobBoards: false asks nothing of any board', async () => {
  const broken = await fetchSite(web.url('broken.test'), opts());
  assert.equal(broken.pages.length, 1);
  assert.equal(broken.jobs, undefined);
  const seen = web.requests.length;
  const off = await fetchSite(web.url('lever.test'), opts({ paths: ['/careers'], jobBoards: false }));
  assert.equal(off.jobs, undefined);
  assert.ok(web.requests.slice(seen).every((r) => r.host === 'lever.test'));
});

test("boards are found in links, frames and scripts of each provider's shapes; a provider's own pages are not boards", () => {
  const page = `
    <a href="https://jobs.eu.lever.co/acme">EU jobs</a>
    <iframe src="https://job-boards.greenhouse.io/embed/job_board?for=acme"></iframe>
    <a href="https://boards.greenhouse.io/embed/job_app?token=1">apply</a>
    <a href="https://jobs.ashbyhq.com/Acme.io">Ashby</a>
    <a href="https://apply.workable.com/acme-inc/">Workable</a>
    <a href="https://careers.smartrecruiters.com/AcmeGroup">SR</a>
    <a href="https://acme.recruitee.com/o/engineer">Recruitee</a> <a href="https://www.recruitee.com/">vendor</a>
    <a href="https://acme-gmbh.jobs.personio.de/">Personio</a>
    <a href="https://acme.wd1.myworkdayjobs.com/Careers">Workday</a>`;
  const boards = discoverBoards(page, 10);
  assert.deepEqual(
    boards.map((b) => `${b.provider}:${b.account}${b.region ? `@${b.region}` : ''}${b.site ? `/${b.site}` : ''}`),
    [
      'lever:acme@eu',
      'greenhouse:acme',
      'ashby:Acme.io',
      'workable:acme-inc',
      'smartrecruiters:AcmeGroup',
      'recruitee:acme',
      'personio:acme-gmbh@de',
      'workday:acme@wd1/Careers',
    ],
  );
  assert.equal(boardListRequest(boards[0]!).url, 'https://api.eu.lever.co/v0/postings/acme?mode=json');
  assert.equal(boardListRequest(boards[6]!).url, 'https://acme-gmbh.jobs.personio.de/xml');
  assert.deepEqual(discoverBoards('<a href="https://www.lever.co/">Lever</a> <a href="https://www.greenhouse.com/">Greenhouse</a>'), []);
  assert.equal(discoverBoards(page).length, 2, 'at most two by default');
});

test('Personio XML and answers of another shape: positions read, anything else gives nothing', () => {
  const xml = `<?xml version="1.0"?><workzag-jobs><position><name>Backend Developer</name><jobDescriptions><jobDescription><name>Your tasks</name><value><![CDATA[<p>Services in Go on PostgreSQL &amp; Kafka</p>]]></value></jobDescription></jobDescriptions></position></workzag-jobs>`;
  const personio = { provider: 'personio' as const, account: 'acme', region: 'de' };
  assert.deepEqual(parseBoardListing(personio, xml).texts, ['Backend Developer\nYour tasks\nServices in Go on PostgreSQL & Kafka']);
  const lever = { provider: 'lever' as const, account: 'acme' };
  assert.deepEqual(parseBoardListing(lever, '<html>not json</html>'), { texts: [], details: [] });
  assert.deepEqual(parseBoardListing(lever, '{"ok": true}'), { texts: [], details: [] });
});

test('html to text is one pass: a fragment of unclosed tags or a hundred thousand entities reads in linear time', () => {
  assert.equal(htmlText('<p>a &amp; b</p><ul><li>c</li></ul>'), 'a & b c');
  const started = performance.now();
  htmlText('<'.repeat(500_000));
  htmlText(`<p>${'&amp;'.repeat(100_000)}</p>`);
  htmlText(`${'<a '.repeat(100_000)}>`);
  assert.ok(performance.now() - started < 1000);
});
