// The detector on hand-written artifacts: each kind of evidence, versions, implies/excludes,
// every class of hard negative, the excerpt limit and the input caps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCatalog, loadCatalog } from '../../src/detect/catalog.ts';
import { detect, dmarcReportDomains, LIMITS, spfDomains } from '../../src/detect/detect.ts';
import { combine } from '../../src/technographics/evidence.ts';
import type { Detection, SiteArtifacts } from '../../src/detect/types.ts';

const catalog = loadCatalog();
const page = (html: string, extra: Partial<SiteArtifacts['pages'][0]> = {}): SiteArtifacts => ({
  domain: 'example.com',
  pages: [{ url: 'https://www.example.com/', html, ...extra }],
});
const names = (ds: Detection[]) => ds.map((d) => d.name).sort();
const find = (ds: Detection[], name: string) => ds.find((d) => d.name === name);
const doc = (head: string, body = '') => `<!doctype html><html><head><title>t</title>${head}</head><body><p>Hello</p>${body}</body></html>`;

test('script src: the resource URL names the technology; the evidence says where', () => {
  const ds = detect(page(doc('<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ"></script>')), catalog);
  const ga = find(ds, 'Google Analytics')!;
  assert.ok(ga);
  assert.equal(ga.evidence[0]!.source, 'script');
  assert.equal(ga.evidence[0]!.url, 'https://www.example.com/');
  assert.equal(ga.evidence[0]!.ruleId, 'Google Analytics/scriptSrc/1');
  assert.match(ga.evidence[0]!.excerpt, /^<script async src="https:\/\/www\.googletagmanager\.com/);
  assert.equal(ga.vendorDomain, 'google.com');
  assert.equal(ga.category, 'Web Analytics');
});

test('inline script: a js global and a vendor snippet', () => {
  const ds = detect(page(doc('<script>window._hsq = window._hsq || []; _hsq.push(["setPath", "/"]);</script>')), catalog);
  assert.deepEqual(
    find(ds, 'HubSpot')!
      .evidence.map((e) => e.ruleId)
      .sort(),
    ['HubSpot/js/_hsq', 'HubSpot/scripts/1'],
  );
  const snippet = detect(
    page(
      doc(
        `<script>!function(f,b,e,v,n,t,s){}(window, document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init', '123456789012345');</script>`,
      ),
    ),
    catalog,
  );
  assert.ok(find(snippet, 'Meta Pixel'));
  // A global inside a longer identifier is not the global.
  assert.equal(find(detect(page(doc('<script>var my_hsqueue = 1;</script>')), catalog), 'HubSpot'), undefined);
});

test('meta generator with version, and header with version', () => {
  const ds = detect(page(doc('<meta name="generator" content="WordPress 6.5.2" />'), { headers: { server: 'nginx/1.25.3' } }), catalog);
  assert.equal(find(ds, 'WordPress')!.version, '6.5.2');
  assert.equal(find(ds, 'WordPress')!.evidence[0]!.source, 'meta');
  assert.equal(find(ds, 'Nginx')!.version, '1.25.3');
  assert.equal(find(ds, 'Nginx')!.evidence[0]!.source, 'header');
  assert.equal(find(ds, 'Nginx')!.evidence[0]!.excerpt, 'server: nginx/1.25.3');
});

test('cookies: by exact name and by a name prefix (`_ga_*`)', () => {
  const ds = detect(page(doc(''), { cookies: ['hubspotutk=abc; Path=/', '_ga_XYZ123=GS1.1.1700000000; Path=/; Max-Age=100'] }), catalog);
  assert.equal(find(ds, 'HubSpot')!.evidence[0]!.source, 'cookie');
  assert.equal(find(ds, 'Google Analytics')!.evidence[0]!.ruleId, 'Google Analytics/cookies/_ga_*');
  // A Set-Cookie header works too when the collector kept no separate list.
  assert.ok(find(detect(page(doc(''), { headers: { 'set-cookie': ['__kla_id=abc; Path=/'] } }), catalog), 'Klaviyo'));
});

test('each DNS record type: MX, SPF, CNAME, NS, A; a verification token alone is not use', () => {
  const ds = detect(
    {
      domain: 'example.com',
      pages: [],
      dns: {
        MX: ['1 aspmx.l.google.com.', '5 alt1.aspmx.l.google.com.'],
        TXT: ['v=spf1 include:_spf.google.com include:sendgrid.net ~all', 'atlassian-domain-verification=abc123'],
        CNAME: ['u123.wl.sendgrid.net.', 'proxy-ssl.webflow.com.'],
        NS: ['ada.ns.cloudflare.com.', 'bob.ns.cloudflare.com.'],
        A: ['76.76.21.21'],
      },
    },
    catalog,
  );
  const sources = (name: string) =>
    find(ds, name)
      ?.evidence.map((e) => e.ruleId.split('/')[1])
      .sort();
  assert.deepEqual(sources('Google Workspace'), ['dns.MX', 'dns.SPF']);
  assert.equal(find(ds, 'Atlassian Jira'), undefined, 'a verification token proves a verification, not use');
  assert.deepEqual(sources('SendGrid'), ['dns.CNAME', 'dns.SPF']);
  assert.deepEqual(sources('Webflow'), ['dns.CNAME']);
  assert.deepEqual(sources('Cloudflare DNS'), ['dns.NS']);
  assert.deepEqual(sources('Vercel'), ['dns.A']);
  assert.ok(find(ds, 'SendGrid')!.confidence > 0.9);
  // The token raises the confidence of another trace: with a job post naming the tool, it is more than the post alone.
  const token = { domain: 'example.com', pages: [], dns: { TXT: ['atlassian-domain-verification=abc123'] } };
  assert.equal(find(detect(token, catalog, { minConfidence: 0 }), 'Atlassian Jira')!.confidence, 0.3);
  const post = ['We track our sprints in Jira and document in Confluence.'];
  const withPost = find(detect({ ...token, jobs: post }, catalog), 'Atlassian Jira')!;
  const postAlone = find(detect({ domain: 'example.com', pages: [], jobs: post }, catalog), 'Atlassian Jira')!;
  assert.equal(withPost.confidence, Math.round(combine([postAlone.confidence, 0.3]) * 1000) / 1000);
  assert.ok(withPost.confidence > postAlone.confidence);
});

test('an SPF include of a mail or sending service is a claim on its own', () => {
  const ds = detect({ domain: 'example.com', pages: [], dns: { TXT: ['v=spf1 include:servers.mcsv.net include:mail.zendesk.com ~all'] } }, catalog);
  assert.deepEqual(names(ds), ['Mailchimp', 'Zendesk']);
  assert.equal(find(ds, 'Mailchimp')!.confidence, 0.55);
  assert.equal(find(ds, 'Mailchimp')!.evidence[0]!.ruleId, 'Mailchimp/dns.SPF/0');
});

test('job posts: a tool a post requires is a claim; one it only welcomes (nice to have, a plus) is a candidate, and the stronger post counts', () => {
  const site = (jobs: string[]) => ({ domain: 'example.com', pages: [], jobs });
  const required = find(detect(site(['You will build our data models in Snowflake every day.']), catalog), 'Snowflake')!;
  assert.equal(required.confidence, 0.6);
  for (const post of [
    'Nice to have: exposure to Snowflake.',
    'Experience with Snowflake is a plus.',
    'Bonus points for Snowflake; we mostly run Postgres',
    'Preferred: Snowflake, dbt',
  ]) {
    assert.equal(find(detect(site([post]), catalog), 'Snowflake'), undefined, post);
    assert.equal(find(detect(site([post]), catalog, { minConfidence: 0 }), 'Snowflake')!.confidence, 0.3, post);
  }
  // The sentence is what counts: a plus for one tool says nothing of the next sentence's, and a name's full stop does not end it.
  const two = detect(site(['Knowledge of Looker is a plus. Our pipelines run on Snowflake and Node.js, which you will own.']), catalog);
  assert.equal(find(two, 'Snowflake')!.confidence, 0.6);
  // One post welcomes it, another requires it: the requirement is the evidence kept.
  const both = find(detect(site(['Snowflake would be a plus.', 'You will own our Snowflake warehouse.']), catalog), 'Snowflake')!;
  assert.equal(both.confidence, 0.6);
  assert.match(both.evidence[0]!.excerpt, /own our Snowflake/);
});

test('job posts: a tool named in passing beside a category leader named again and again is support, not a claim', () => {
  const site = (jobs: string[]) => ({ domain: 'example.com', pages: [], jobs });
  const leaderPosts = (n: number) => Array.from({ length: n }, (_, i) => `Engineer ${i + 1}: you will model our data in Snowflake.`);
  // Snowflake in 8 posts, Redshift in 2 (a quarter of 8): Redshift's mention weighs as an optional skill's.
  const rare = detect(site([...leaderPosts(8), 'You will move reports off Redshift.', 'You will run Redshift queries.']), catalog, { minConfidence: 0 });
  assert.equal(find(rare, 'Snowflake')!.confidence, 0.6);
  assert.equal(find(rare, 'Amazon Redshift')!.confidence, 0.3);
  assert.equal(find(detect(site([...leaderPosts(8), 'You will run Redshift queries.']), catalog), 'Amazon Redshift'), undefined);
  // More than a quarter of the leader's posts, a leader named in fewer than 4, or another category: a claim as before.
  assert.equal(find(detect(site([...leaderPosts(8), ...Array(3).fill('You will run Redshift queries.')]), catalog), 'Amazon Redshift')!.confidence, 0.6);
  assert.equal(find(detect(site([...leaderPosts(3), 'You will run Redshift queries.']), catalog), 'Amazon Redshift')!.confidence, 0.6);
  assert.equal(find(detect(site([...leaderPosts(8), 'You will tune PostgreSQL.']), catalog), 'PostgreSQL')!.confidence, 0.6);
});

test('job posts: phrases are matched case-sensitively, so brand names count and ordinary words do not', () => {
  const ds = detect(
    {
      domain: 'example.com',
      pages: [],
      jobs: ['You will administer our Salesforce org and report in Tableau. We pick up the slack when needed and box up old laptops.'],
    },
    catalog,
  );
  assert.deepEqual(names(ds), ['Salesforce', 'Tableau']);
  assert.equal(find(ds, 'Salesforce')!.evidence[0]!.source, 'job');
  assert.match(find(ds, 'Salesforce')!.evidence[0]!.excerpt, /Salesforce org/);
});

test('job posts: brand names that are also words count only in a list or after "with", "using", "our"', () => {
  const prose =
    'Sales Development Representative, Hong Kong. You will own our GTM strategy. Indeed, this role is about Outreach to new customers and Greenhouse gas reporting. Amplitude of impact matters. Loom large. Ramp up quickly.';
  assert.deepEqual(names(detect({ domain: 'example.com', pages: [], jobs: [prose] }, catalog)), []);
  const stack = 'Requirements: 3+ years with Amplitude and Looker. Our stack: Outreach, Gong and Greenhouse. Record demos in Loom.';
  assert.deepEqual(names(detect({ domain: 'example.com', pages: [], jobs: [stack] }, catalog)), [
    'Amplitude',
    'Gong',
    'Greenhouse',
    'Looker',
    'Loom',
    'Outreach',
  ]);
});

test('implies runs transitively and carries the evidence of its source; excludes removes the excluded', () => {
  const ds = detect(page(doc('<meta name="generator" content="WooCommerce 8.9.1">')), catalog);
  assert.equal(find(ds, 'WooCommerce')!.version, '8.9.1');
  assert.deepEqual(find(ds, 'WordPress')!.impliedBy, ['WooCommerce']);
  assert.deepEqual(find(ds, 'PHP')!.impliedBy, ['WordPress']);
  assert.equal(find(ds, 'PHP')!.evidence[0]!.ruleId, 'WordPress/implies/PHP');
  assert.equal(find(ds, 'MySQL'), undefined, 'MySQL is implied at 50% only, below the threshold');
  const both = detect(page(doc('', '<app-root ng-version="17.3.1"></app-root><div ng-app="legacy"></div>')), catalog);
  assert.equal(find(both, 'Angular')!.version, '17.3.1');
  assert.equal(find(both, 'AngularJS'), undefined);
  const custom = compileCatalog({ A: { cats: ['Live Chat'], html: '<a-widget', excludes: 'B' }, B: { cats: ['Live Chat'], html: '<b-widget' } });
  assert.deepEqual(names(detect(page(doc('', '<a-widget></a-widget><b-widget></b-widget>')), custom)), ['A']);
});

test('hard negatives are not use: comments, links, logos, code samples, CSP lists, hints, bare verification tokens', () => {
  const html = doc(
    `<link rel="dns-prefetch" href="//js.hs-scripts.com"><link rel="preconnect" href="https://widget.intercom.io">
     <link rel="preconnect dns-prefetch" href="https://cdn.segment.com">
     <meta http-equiv="Content-Security-Policy" content="script-src https://js.stripe.com https://static.hotjar.com">
     <!-- <script src="https://cdn.optimizely.com/js/12345678901.js"></script> -->
     <!--
       <script async src="https://www.googletagmanager.com/gtag/js?id=G-OLD"></script>
     -->`,
    `<p>We switched from Marketo to HubSpot, and from Zendesk to Intercom.</p>
     <a href="https://www.shopify.com/"><img src="/img/partners/shopify-logo.svg" alt="Shopify partner"></a>
     <a href="https://js.stripe.com/v3/">Stripe.js</a>
     <pre><code>&lt;script src="https://cdn.segment.com/analytics.js/v1/KEY/analytics.min.js"&gt;&lt;/script&gt;</code></pre>
     <script type="application/ld+json">{"featureList": "Salesforce integration, window._hsq"}</script>`,
  );
  const ds = detect(
    {
      domain: 'example.com',
      pages: [
        { url: 'https://example.com/', html, headers: { 'content-security-policy': "script-src 'self' https://js.intercomcdn.com https://cdn.segment.com" } },
      ],
      dns: { TXT: ['atlassian-domain-verification=abc123', 'docusign=1b2c3d4e-aaaa-bbbb-cccc-0123456789ab', 'ZOOM_verify_abcdef'] },
    },
    catalog,
  );
  assert.deepEqual(names(ds), []);
  // The tokens are still candidates below the threshold, visible when asked for.
  const candidates = detect({ domain: 'example.com', pages: [], dns: { TXT: ['ZOOM_verify_abcdef'] } }, catalog, { minConfidence: 0.1 });
  assert.equal(find(candidates, 'Zoom')!.confidence, 0.3);
});

test("links: an account on a vendor's domain is use; a link to the vendor itself, or one in a comment, is a mention", () => {
  const body = `<a href="https://calendly.com/acme-sales/30min">Book a demo</a>
     <a class="btn" href='https://acme.typeform.com/to/Ab12Cd'>Tell us</a>
     <a href="//jobs.lever.co/acme">Careers</a>
     <a href="https://www.trustpilot.com/review/acme.com">Our reviews</a>`;
  const ds = detect(page(doc('', body)), catalog);
  for (const name of ['Calendly', 'Typeform', 'Lever', 'Trustpilot']) {
    const d = find(ds, name);
    assert.ok(d, `${name} from its account link`);
    assert.equal(d.evidence[0]!.source, 'html');
    assert.match(d.evidence[0]!.ruleId, new RegExp(`^${name}/links/\\d+$`));
    assert.match(d.evidence[0]!.excerpt, /^<a /);
  }
  assert.equal(find(ds, 'Calendly')!.confidence, 0.85);
  // The vendor's own pages, a relative link, and account links inside a comment name the vendor, not an account of the site's.
  const mentions = `<a href="https://calendly.com/">Calendly</a> <a href="https://www.typeform.com/templates/">Typeform</a>
     <a href="/to/calendly.com/acme/30min">local</a> <!-- <a href="https://jobs.lever.co/acme">old board</a> -->
     <a href="https://www.trustpilot.com/">Trustpilot</a>`;
  assert.deepEqual(names(detect(page(doc('', mentions)), catalog)), []);
  // A link's address is read by links rules only: a link to a vendor's script is not a script the page loads.
  assert.equal(find(detect(page(doc('', '<a href="https://assets.calendly.com/assets/external/widget.js">widget</a>')), catalog), 'Calendly'), undefined);
});

test('links: a path on the site itself is read only by a pattern written for one (^/ or ^(?:https?://[^/]+)?/), however many such links a page has', () => {
  const custom = compileCatalog({
    'Acme Status': { cats: ['Live Chat'], links: '^(?:https?://[^/]+)?/acme-status/[0-9a-f]{8}' },
    // Unanchored: it would match a site's path, but it is not written for one.
    'Acme Forms': { cats: ['Live Chat'], links: 'acme-forms\\.example/[a-z]' },
  });
  const nav = '<a href="/products/1">a</a><a href="/about">b</a>'.repeat(400);
  const ds = detect(page(doc('', `${nav}<a href="/acme-status/0a1b2c3d">Status</a><a href="/go/acme-forms.example/x">Form</a>`)), custom);
  assert.deepEqual(names(ds), ['Acme Status']);
  assert.deepEqual(names(detect(page(doc('', '<a href="https://www.example.com/acme-status/0a1b2c3d">Status</a>')), custom)), ['Acme Status']);
});

test('links: at most a thousand per page are read, and a page of links scans in linear time', () => {
  const many = `${'<a href="https://example.org/">x</a>'.repeat(1000)}<a href="https://calendly.com/acme/intro">late</a>`;
  assert.equal(find(detect(page(doc('', many)), catalog), 'Calendly'), undefined);
  const started = performance.now();
  detect(page(`<a href="https://calendly.com/a/b">`.repeat(15_000)), catalog);
  assert.ok(performance.now() - started < 2000);
});

test('a trace hidden in a comment does not hide the same trace outside it', () => {
  const ds = detect(
    page(
      doc(
        '<!-- <script src="https://static.hotjar.com/c/hotjar-1.js?sv=6"></script> -->',
        '<noscript><img height="1" width="1" src="https://www.facebook.com/tr?id=1&ev=PageView"/></noscript>',
      ),
    ),
    catalog,
  );
  assert.deepEqual(names(ds), ['Meta Pixel']);
});

test('excerpts are at most 200 characters, even from a one-line megabyte script', () => {
  const long = `<script>${'var a=1;'.repeat(20_000)}fbq('init', '123');${'var b=2;'.repeat(20_000)}</script>`;
  const ds = detect(
    page(doc(`<meta name="generator" content="WordPress 6.5 ${'x'.repeat(500)}">`, long), { headers: { server: `nginx/1.2 ${'y'.repeat(5000)}` } }),
    catalog,
  );
  assert.ok(ds.length >= 3);
  for (const d of ds) for (const e of d.evidence) assert.ok(e.excerpt.length <= LIMITS.excerpt, `${e.ruleId}: ${e.excerpt.length}`);
});

test('input caps: HTML beyond 512 KB, header values beyond 4 KB and records beyond the limits are not read', () => {
  const filler = `<div>${'lorem ipsum '.repeat(50_000)}</div>`;
  assert.ok(filler.length > LIMITS.html);
  const late = detect(page(doc('', `${filler}<script src="https://js.stripe.com/v3/"></script>`)), catalog);
  assert.equal(find(late, 'Stripe'), undefined);
  const early = detect(page(doc('<script src="https://js.stripe.com/v3/"></script>', filler)), catalog);
  assert.ok(find(early, 'Stripe'));
  const header = detect(page('', { headers: { via: `${'x'.repeat(LIMITS.headerValue)} (CloudFront)` } }), catalog);
  assert.equal(find(header, 'Amazon CloudFront'), undefined);
  const manyMx = Array.from({ length: LIMITS.dnsRecords }, (_, i) => `10 mx${i}.example.net.`);
  assert.equal(find(detect({ domain: 'e.com', pages: [], dns: { MX: [...manyMx, '1 aspmx.l.google.com.'] } }, catalog), 'Google Workspace'), undefined);
});

test('confidence is the noisy-OR of independent traces; evidence lists the strongest trace of each source first', () => {
  assert.equal(combine([0.5, 0.5]), 0.75);
  assert.equal(combine([]), 0);
  const ds = detect(
    page(doc('<script src="https://js.hs-scripts.com/123.js"></script><script>_hsq.push([])</script>'), { cookies: ['hubspotutk=1', '__hstc=2', '__hssc=3'] }),
    catalog,
    { maxEvidence: 2 },
  );
  const hs = find(ds, 'HubSpot')!;
  assert.deepEqual(
    hs.evidence.map((e) => e.source),
    ['script', 'cookie'],
  );
  assert.ok(hs.confidence > 0.99);
});

test('rules of one DNS record type are one trace: two SPF includes of one sender count once', () => {
  // Zoho Mail has two SPF rules (zoho.com, zcsend.net): one SPF record naming both is one setting, left from any time.
  const spfOnly = { domain: 'e.com', pages: [], dns: { TXT: ['v=spf1 include:zoho.com include:zcsend.net ~all'] } };
  const all = find(detect(spfOnly, catalog), 'Zoho Mail')!;
  assert.equal(all.confidence, 0.55, 'the record counts once, at its strongest rule (two independent traces would be 0.8)');
  assert.equal(all.evidence.length, 2, 'both includes are still shown as evidence');
  // A second record type is an independent trace: the SPF include and the MX add up.
  const withMx = find(detect({ ...spfOnly, dns: { ...spfOnly.dns, MX: ['10 mx.zoho.com.'] } }, catalog), 'Zoho Mail')!;
  assert.equal(withMx.confidence, Math.round(combine([0.95, 0.55]) * 1000) / 1000);
});

test("DMARC: the services a DMARC record sends its reports to are claims; the domain's own mailbox and other TXT records are not", () => {
  const record = 'v=DMARC1; p=quarantine; rua=mailto:x1@ag.dmarcian.com!10m, mailto:dmarc@example.com; ruf=mailto:f@fr.dmarcian.com; fo=1';
  assert.deepEqual(dmarcReportDomains(record), ['ag.dmarcian.com', 'example.com', 'fr.dmarcian.com']);
  assert.deepEqual(dmarcReportDomains('v=spf1 include:rua.agari.com ~all'), []);
  assert.deepEqual(dmarcReportDomains('"v=DMARC1; p=none; rua=mailto:d@rua.agari.com"'), ['rua.agari.com']);
  const ds = detect({ domain: 'example.com', pages: [], dns: { TXT: [record] } }, catalog);
  assert.deepEqual(names(ds), ['dmarcian']);
  assert.equal(find(ds, 'dmarcian')!.evidence[0]!.ruleId, 'dmarcian/dns.DMARC/0');
  assert.equal(find(ds, 'dmarcian')!.confidence, 0.8);
  // A DMARC service named anywhere but a report address (an SPF include, a TXT token) is not read as one.
  assert.deepEqual(names(detect({ domain: 'example.com', pages: [], dns: { TXT: ['dmarcian.com verification', 'v=DMARC1; p=none'] } }, catalog)), []);
});

test('SPF domains are read from include:, redirect= and the other named mechanisms only', () => {
  assert.deepEqual(spfDomains('v=spf1 ip4:1.2.3.4 include:_spf.google.com ~include:x.example a:mail.example.com redirect=spf.example.net -all'), [
    '_spf.google.com',
    'x.example',
    'mail.example.com',
    'spf.example.net',
  ]);
  assert.deepEqual(spfDomains('google-site-verification=include:abc'), []);
});

test('the detector is pure: the same artifacts give the same answer, and the input is not changed', () => {
  const site = page(doc('<script src="https://js.stripe.com/v3/"></script>'), { headers: { server: 'cloudflare' }, cookies: ['__cf_bm=1'] });
  const copy = structuredClone(site);
  assert.deepEqual(detect(site, catalog), detect(site, catalog));
  assert.deepEqual(site, copy);
});

test('stylesheets loaded with @import inside an inline <style> block are read like <link rel=stylesheet>', () => {
  for (const form of [
    '@import url("https://fonts.googleapis.com/css2?family=Inter");',
    "@import 'https://use.typekit.net/abc1234.css';",
    '@import url(https://fonts.googleapis.com/css?family=Lato);',
  ])
    assert.ok(
      names(detect(page(doc(`<style>body{margin:0}\n${form}</style>`)), catalog)).some((n) => n === 'Google Fonts' || n === 'Adobe Fonts'),
      form,
    );
  // A vendor named in a style rule without @import is not a load.
  assert.equal(find(detect(page(doc('<style>/* fonts.googleapis.com/css */ body{margin:0}</style>')), catalog), 'Google Fonts'), undefined);
});
