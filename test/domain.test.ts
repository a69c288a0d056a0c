import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { normalizeDomain } from '../src/domain.ts';
import { domainSchema, MAX_DOMAIN_INPUT } from '../src/schemas/params.ts';

test('normalizeDomain strips case, scheme, www, path, port and trailing dot', () => {
  assert.equal(normalizeDomain('Example.COM'), 'example.com');
  assert.equal(normalizeDomain('https://www.Example.com/pricing?x=1#top'), 'example.com');
  assert.equal(normalizeDomain('http://user:pw@shop.example.co.uk:8443/'), 'shop.example.co.uk');
  assert.equal(normalizeDomain('example.com.'), 'example.com');
  assert.equal(normalizeDomain('  www.acme.io  '), 'acme.io');
});

test('normalizeDomain converts IDN to punycode', () => {
  assert.equal(normalizeDomain('bücher.de'), 'xn--bcher-kva.de');
});

test('normalizeDomain rejects what is not a DNS name', () => {
  for (const bad of ['', 'localhost', 'not a domain', 'a..b.com', '-bad.com', 'bad-.com', 'example.123', '1.2.3.4', 'x'.repeat(64) + '.com', 'exa_mple.com']) {
    assert.equal(normalizeDomain(bad), null, bad);
  }
});

test('domainSchema normalizes once and words an invalid domain the same way everywhere', () => {
  const schema = z.object({ companyDomain: domainSchema() });
  assert.deepEqual(schema.parse({ companyDomain: 'https://www.Example.com/pricing' }), { companyDomain: 'example.com' });
  const bad = schema.safeParse({ companyDomain: 'nope' });
  assert.ok(!bad.success);
  assert.deepEqual(
    bad.error.issues.map((i) => [i.path.join('.'), i.message]),
    [['companyDomain', "'nope' is not a valid domain name"]],
  );
  assert.ok(!schema.safeParse({ companyDomain: `example.com/${'x'.repeat(MAX_DOMAIN_INPUT)}` }).success, 'longer than the documented maxLength');
  assert.ok(schema.safeParse({ companyDomain: `example.com/${'x'.repeat(MAX_DOMAIN_INPUT - 12)}` }).success, 'at the documented maxLength');
});
