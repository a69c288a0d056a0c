// What one collection of a site covers (detect/visit.ts): only a whole page counts for the
// web, a failure or a page that is not whole makes the visit partial or failed, and neither
// can show a technology's absence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageProblem, visitCoverage } from '../../src/detect/visit.ts';
import type { PageArtifact, SiteArtifacts } from '../../src/detect/types.ts';

const page = (extra: Partial<PageArtifact> = {}): PageArtifact => ({
  url: 'https://a.example/',
  status: 200,
  html: '<html><title>Acme</title></html>',
  ...extra,
});
const site = (extra: Partial<SiteArtifacts> = {}): SiteArtifacts => ({ domain: 'a.example', pages: [page()], ...extra });

test('a whole page, DNS records and job posts are covered; the visit is ok', () => {
  assert.deepEqual(visitCoverage(site({ dns: { MX: ['mx.a.example'], TXT: [] }, jobs: ['Engineer: React'] })), {
    outcome: 'ok',
    kinds: ['web', 'dns', 'jobs'],
    reason: null,
  });
  assert.deepEqual(visitCoverage(site({ dns: { TXT: [] } })), { outcome: 'ok', kinds: ['web'], reason: null }, 'a DNS answer with no record covers nothing');
  assert.deepEqual(visitCoverage({ domain: 'a.example', pages: [page({ status: undefined })] }).outcome, 'ok', 'uploaded artifacts without a status');
});

test('a 5xx, a 4xx, a challenge page or a body cut at the cap is not the page', () => {
  assert.equal(pageProblem(page({ status: 503 })), 'http_503');
  assert.equal(pageProblem(page({ status: 404 })), 'http_404');
  assert.equal(pageProblem(page({ status: 0 })), 'http_0');
  assert.equal(pageProblem(page({ status: 403, headers: { 'cf-mitigated': 'challenge' } })), 'http_403');
  assert.equal(pageProblem(page({ headers: { 'cf-mitigated': 'challenge' } })), 'challenge');
  assert.equal(pageProblem(page({ html: '<html><head><title>Just a moment...</title>' })), 'challenge');
  assert.equal(pageProblem(page({ html: '<title data-x="1">Attention Required! | Cloudflare</title>' })), 'challenge');
  assert.equal(pageProblem(page({ truncated: true })), 'truncated');
  assert.equal(
    pageProblem(page({ html: '<title>Acme: just a moment of your time</title>' })),
    'challenge',
    'a title that reads like one is taken as one: a missed absence, never a false drop',
  );
  assert.equal(pageProblem(page()), null);
});

test('a visit whose page is not whole, or whose collector failed, is partial when DNS or job posts came back, else failed', () => {
  assert.deepEqual(visitCoverage(site({ pages: [page({ truncated: true })], dns: { MX: ['mx'] } })), {
    outcome: 'partial',
    kinds: ['dns'],
    reason: 'truncated',
  });
  assert.deepEqual(visitCoverage(site({ pages: [], dns: { TXT: ['v=spf1'] } }), 'timeout'), { outcome: 'partial', kinds: ['dns'], reason: 'timeout' });
  assert.deepEqual(visitCoverage(site({ pages: [page({ status: 502 })] }), 'http_502'), { outcome: 'failed', kinds: [], reason: 'http_502' });
  assert.deepEqual(visitCoverage(site({ pages: [] })), { outcome: 'failed', kinds: [], reason: 'empty' });
  assert.deepEqual(visitCoverage(site({ pages: [page(), page({ status: 500 })] })).outcome, 'failed', 'one page that failed: the web is not covered');
});

test('the challenge check reads a bounded start of the page: a challenge title past it is not looked for', () => {
  const late = `${' '.repeat(8192)}<title>Just a moment...</title>`;
  assert.equal(pageProblem(page({ html: late })), null);
  assert.equal(pageProblem(page({ html: late.trimStart() })), 'challenge');
});
