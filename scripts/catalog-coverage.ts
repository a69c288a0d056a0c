// Writes the catalog's coverage by top-level category (how many technologies, and how many can
// be seen on a web page, in DNS, in job posts, or only in job posts) into docs/technographics.md.
// test/detect/catalog.test.ts fails when the table differs from the catalog.
//   npm run docs:catalog
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBuiltInRules, readCoreRules } from '../src/detect/catalog.ts';
import type { TechnologyRule } from '../src/detect/rules.ts';
import { taxonomy } from '../src/technographics/taxonomy.ts';

export const COVERAGE_BEGIN = '<!-- catalog-coverage:begin (written by npm run docs:catalog from catalog/technologies) -->';
export const COVERAGE_END = '<!-- catalog-coverage:end -->';
export const COVERAGE_DOC = resolve(import.meta.dirname, '..', 'docs', 'technographics.md');

const WEB_FIELDS = ['scriptSrc', 'scripts', 'js', 'meta', 'html', 'links', 'url', 'headers', 'cookies'] as const;

/** The coverage table (Markdown) of the built-in catalog. */
export function coverageTable(): string {
  const rules = readBuiltInRules();
  const core = Object.keys(readCoreRules()).length;
  const categories = taxonomy();
  const byName = new Map<string, (typeof categories)[number]>();
  for (const c of categories) if (!byName.has(c.name)) byName.set(c.name, c);
  const tops = categories.filter((c) => c.level === 0);
  const zero = () => ({ all: 0, web: 0, dns: 0, job: 0, jobOnly: 0 });
  const rows = new Map(tops.map((t) => [t.id, zero()]));
  const total = zero();
  for (const rule of Object.values(rules) as TechnologyRule[]) {
    const top = byName.get(rule.cats[0]!)!.topId;
    const web = WEB_FIELDS.some((f) => rule[f] !== undefined);
    const dns = rule.dns !== undefined;
    const job = rule.job !== undefined;
    for (const row of [rows.get(top)!, total]) {
      row.all++;
      if (web) row.web++;
      if (dns) row.dns++;
      if (job) row.job++;
      if (job && !web && !dns) row.jobOnly++;
    }
  }
  const line = (name: string, r: ReturnType<typeof zero>) => `| ${name} | ${r.all} | ${r.web} | ${r.dns} | ${r.job} | ${r.jobOnly} |`;
  return [
    `${total.all} technologies: ${core} in the core catalog (\`catalog/technologies/*.json\`, the demo world's products) and ${total.all - core} in \`catalog/technologies/extended/\`. By the top-level category of each technology's main category:`,
    '',
    '| category | technologies | web traces | DNS | job posts | job posts only |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...tops.filter((t) => rows.get(t.id)!.all > 0).map((t) => line(t.name, rows.get(t.id)!)),
    line('**all**', total),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = readFileSync(COVERAGE_DOC, 'utf8');
  const begin = text.indexOf(COVERAGE_BEGIN),
    end = text.indexOf(COVERAGE_END);
  if (begin < 0 || end < begin) throw new Error(`${COVERAGE_DOC}: the markers ${COVERAGE_BEGIN} … ${COVERAGE_END} are missing`);
  writeFileSync(COVERAGE_DOC, `${text.slice(0, begin + COVERAGE_BEGIN.length)}\n${coverageTable()}\n${text.slice(end)}`);
  console.log(`${join('docs', 'technographics.md')}: catalog coverage written`);
}
