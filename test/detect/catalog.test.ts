// The catalog and the rule format: our files load and validate, an operator's file is checked
// the same way (zod shape, known categories, patterns linear-time matching can run), and the literal
// prefilter finds every pattern it should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATEGORY_NAMES, compileCatalog, loadCatalog, readBuiltInRules, readRuleFile } from '../../src/detect/catalog.ts';
import { compilePattern, PatternSet, requiredLiteral, RuleError } from '../../src/detect/rules.ts';
import { COVERAGE_BEGIN, COVERAGE_DOC, COVERAGE_END, coverageTable } from '../../scripts/catalog-coverage.ts';

const dir = mkdtempSync(join(tmpdir(), 'stacklens-rules-'));
const ruleFile = (name: string, data: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
};

test('the built-in catalog loads: 400+ technologies, each with vendor, vendor domain, website, description and a known category', () => {
  const rules = readBuiltInRules();
  const catalog = compileCatalog(rules);
  assert.ok(catalog.technologies.length >= 400, `${catalog.technologies.length} technologies`);
  for (const [name, rule] of Object.entries(rules)) {
    assert.ok(rule.vendor && rule.vendorDomain && rule.website && rule.description, `${name}: vendor, vendorDomain, website and description`);
    for (const cat of rule.cats) assert.ok(CATEGORY_NAMES.has(cat), `${name}: category ${cat}`);
  }
  // Every technology leaves at least one trace a rule can see.
  const fields = ['scriptSrc', 'scripts', 'js', 'meta', 'html', 'links', 'url', 'headers', 'cookies', 'dns', 'job'] as const;
  for (const [name, rule] of Object.entries(rules))
    assert.ok(
      fields.some((f) => rule[f] !== undefined),
      `${name} has no detection rule`,
    );
  // Every kind of trace is used somewhere, and versions are extracted.
  for (const f of fields) assert.ok(Object.values(rules).filter((r) => r[f] !== undefined).length >= 5, `few rules use ${f}`);
  for (const type of ['MX', 'TXT', 'SPF', 'CNAME', 'NS', 'A'] as const)
    assert.ok(
      Object.values(rules).some((r) => r.dns?.[type]),
      `no dns.${type} rule`,
    );
  assert.ok(JSON.stringify(rules).includes('\\\\;version:\\\\1'));
  assert.ok(Object.values(rules).some((r) => r.implies) && Object.values(rules).some((r) => r.excludes));
});

test("an operator's rule file with a pattern linear-time matching cannot run is refused at load, naming the technology and field", () => {
  const lookahead = ruleFile('lookahead.json', { 'Acme Widget': { cats: ['Live Chat'], job: ['\\bAcme\\b(?! Corp)'] } });
  assert.throws(
    () => loadCatalog({ rulesFile: lookahead }),
    (err: Error) => err instanceof RuleError && /Acme Widget: job\[0\]: .*lookahead or lookbehind/.test(err.message),
  );
  const backreference = ruleFile('backreference.json', { 'Acme Widget': { cats: ['Live Chat'], html: ['<(div|span)[^>]+acme</\\1>'] } });
  assert.throws(
    () => loadCatalog({ rulesFile: backreference }),
    (err: Error) => err instanceof RuleError && /Acme Widget: html\[0\]: .*backreference/.test(err.message),
  );
  assert.throws(() => compilePattern(0, 'Acme Widget', 'scripts', '0', '(?<!\\w)acme\\('), /Acme Widget: scripts\[0\]: .*lookahead or lookbehind/);
  assert.throws(
    () => compilePattern(0, 'Acme Widget', 'meta', 'generator', 'x[a-z]{1000}'),
    /Acme Widget: meta 'generator': .*too large to match in bounded time/,
  );
  // What backtracking made dangerous runs in time proportional to the text: nested and overlapping repetition is accepted.
  const nested = compilePattern(0, 'X', 'html', '0', '<div(?:\\s+[a-z-]+="[^"]*")*\\s*>');
  const started = performance.now();
  assert.equal(compilePattern(0, 'X', 'scriptSrc', '0', '(a+)+$').re.exec(`${'a'.repeat(100_000)}!`), null);
  assert.equal(nested.re.exec(`<div${' a="b"'.repeat(20_000)} x`), null);
  assert.ok(performance.now() - started < 2000);
  assert.doesNotThrow(() => compilePattern(0, 'X', 'meta', 'generator', '^X(?: ([\\d.]+))?\\;version:\\1'));
});

test("an operator's file with a bad shape gets an error naming the entry and the field", () => {
  assert.throws(() => loadCatalog({ rulesFile: ruleFile('cats.json', { 'Acme Widget': { cats: [7] } }) }), /technology 'Acme Widget', field cats\.0/);
  assert.throws(
    () => loadCatalog({ rulesFile: ruleFile('unknown.json', { 'Acme Widget': { cats: ['Live Chat'], scriptsrc: 'x' } }) }),
    /technology 'Acme Widget'/,
  );
  assert.throws(
    () => loadCatalog({ rulesFile: ruleFile('cat.json', { 'Acme Widget': { cats: ['Chat Widgets'] } }) }),
    /Acme Widget: cats: unknown category 'Chat Widgets'/,
  );
  assert.throws(
    () => loadCatalog({ rulesFile: ruleFile('implies.json', { 'Acme Widget': { cats: ['Live Chat'], implies: 'Nope' } }) }),
    /Acme Widget: implies: unknown technology 'Nope'/,
  );
  assert.throws(
    () => loadCatalog({ rulesFile: ruleFile('regex.json', { 'Acme Widget': { cats: ['Live Chat'], html: '<div(' } }) }),
    /Acme Widget: html\[0\]: not a valid pattern \(RE2 syntax/,
  );
  assert.throws(() => loadCatalog({ rulesFile: ruleFile('broken.json', '{ "Acme": ') }), RuleError);
});

test("an operator's file adds to the catalog, replaces ours by name, or stands alone; the open format's wrapper is accepted", () => {
  const own = {
    technologies: {
      'Acme Widget': { cats: ['Live Chat'], website: 'https://acme-widget.example', scriptSrc: 'cdn\\.acme-widget\\.example/w\\.js', icon: 'Acme.svg' },
      Hotjar: { cats: ['Web Analytics'], scriptSrc: 'my-own-hotjar-rule' },
    },
  };
  const path = ruleFile('own.json', own);
  assert.deepEqual(Object.keys(readRuleFile(path)), ['Acme Widget', 'Hotjar']);
  const merged = loadCatalog({ rulesFile: path });
  assert.ok(merged.technologies.length > 400);
  const acme = merged.technologies[merged.byName.get('Acme Widget')!]!;
  assert.equal(acme.vendorDomain, 'acme-widget.example');
  assert.equal(merged.resourceUrls.patterns.filter((p) => merged.technologies[p.tech]!.name === 'Hotjar').length, 1);
  const alone = loadCatalog({ rulesFile: path, replace: true });
  assert.equal(alone.technologies.length, 2);
});

test('the required literal of a pattern: longest literal run, optional characters dropped, none across alternation', () => {
  assert.equal(requiredLiteral('js\\.hs-scripts\\.com/\\d+\\.js'), 'js.hs-scripts.com/');
  assert.equal(requiredLiteral('googletagmanager\\.com/gtag/js\\?id=G-'), 'googletagmanager.com/gtag/js?id=g-');
  assert.equal(requiredLiteral('cdn\\.(?:lr-ingest\\.io|lr-in\\.com)/LogRocket\\.min\\.js'), '/logrocket.min.js');
  assert.equal(requiredLiteral('https?://example'), '://example');
  assert.equal(requiredLiteral('a|bcdef'), null);
  // Counted repetitions are not text of the match: `{8,}` after a class, `{0,2}` making a character optional.
  assert.equal(requiredLiteral('/dA/[0-9a-f]{8,}'), '/da/');
  assert.equal(requiredLiteral('cdn\\.acmex{0,2}widget'), 'cdn.acme');
  assert.equal(requiredLiteral('vendor-[a-z]{2}\\.js'), 'vendor-');
  assert.equal(requiredLiteral('ab'), null);
  assert.equal(requiredLiteral('[a-z]+\\.js'), '.js');
  assert.equal(requiredLiteral('[a-z]+\\d+'), null);
});

test('the prefilter finds two literals that start at the same place (one a prefix of the other)', () => {
  const set = new PatternSet([
    compilePattern(0, 'A', 'scriptSrc', '0', 'cdn\\.example\\.com/'),
    compilePattern(1, 'B', 'scriptSrc', '0', 'cdn\\.example\\.com/widget\\.js'),
    compilePattern(2, 'C', 'scriptSrc', '0', 'wi[a-z]+t'),
  ]);
  assert.deepEqual(
    set.candidates('https://cdn.example.com/widget.js').map((p) => p.ruleId),
    ['A/scriptSrc/0', 'B/scriptSrc/0', 'C/scriptSrc/0'],
  );
  assert.deepEqual(
    set.candidates('https://cdn.example.com/other.js').map((p) => p.ruleId),
    ['A/scriptSrc/0', 'C/scriptSrc/0'],
  );
});

test('the coverage table of docs/technographics.md is written from the catalog (npm run docs:catalog)', () => {
  const text = readFileSync(COVERAGE_DOC, 'utf8');
  const begin = text.indexOf(COVERAGE_BEGIN),
    end = text.indexOf(COVERAGE_END);
  assert.ok(begin >= 0 && end > begin, 'the coverage markers are in docs/technographics.md');
  assert.equal(text.slice(begin + COVERAGE_BEGIN.length, end).trim(), coverageTable(), 'docs/technographics.md: run npm run docs:catalog');
});
