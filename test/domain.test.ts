import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeDomain, requireDomain } from '../src/domain.ts';
import { BadRequestError } from '../src/errors.ts';

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

test('requireDomain throws a 400 naming the field', () => {
  assert.throws(() => requireDomain('nope', 'companyDomain'), (err: unknown) => {
    assert.ok(err instanceof BadRequestError);
    assert.equal(err.status, 400);
    assert.match(err.message, /^companyDomain: 'nope' is not a valid domain/);
    return true;
  });
});
