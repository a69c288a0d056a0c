// The forms real sites write their tags in (test/fixtures/real-pages, 2013-2024 news and publishing
// pages): each case is a trace a saved page carried, cut to the tag, that the detector once missed
// or took for something else. The measurement on the whole set is `stacklens eval detect`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import type { Detection } from '../../src/detect/types.ts';

const catalog = loadCatalog();
const doc = (head: string, body = '') => `<!doctype html><html><head><title>t</title>${head}</head><body><p>Hello</p>${body}</body></html>`;
const found = (html: string): Detection[] => detect({ domain: 'news.example', pages: [{ url: 'https://www.news.example/story', html }] }, catalog);
const names = (html: string) => found(html).map((d) => d.name);

test('a verification meta tag left empty is no token: only one with a value names the account', () => {
  const empty = doc('<meta name="google-site-verification" content="" /><meta name="msvalidate.01" content=" " />');
  assert.deepEqual(names(empty), []);
  const filled = doc('<meta name="google-site-verification" content="Jm2bJ0v8yW0Cq3fZk8bQe1n3b7Tq9xQm4Zc2w1aPp0E" /><meta name="msvalidate.01" content="4F1A0C2B9D8E7F6A5B4C3D2E1F0A9B8C" />');
  assert.deepEqual(names(filled).sort(), ['Bing Webmaster Tools', 'Google Search Console']);
});

test("Ensighten's tag loader (nexus.ensighten.com/<account>/Bootstrap.js) is not the Bootstrap framework; Bootstrap's own files are", () => {
  assert.deepEqual(names(doc('<script src="//nexus.ensighten.com/turner/money-prod/Bootstrap.js"></script>')), ['Ensighten']);
  for (const href of [
    '/static/css/bootstrap.min.css',
    'https://www.spiceworks.com/wp-content/plugins/wp-custom-blogs/js/bootstrap.min.js?ver=1.2',
    'https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js',
    '/assets/js/bootstrap.js',
    '/theme/css/bootstrap.css',
  ])
    assert.ok(names(doc(`<script src="${href}"></script>`)).includes('Bootstrap'), href);
});
