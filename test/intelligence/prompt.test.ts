import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrompt, parsedQuerySchema, type ParsedQuery, type PromptMode } from '../../src/intelligence/prompt/index.ts';
import { SAMPLE_CATALOG } from '../../src/intelligence/prompt/sample-catalog.ts';

const parse = (prompt: string, mode: PromptMode = 'customers') => {
  const q = parsePrompt(prompt, SAMPLE_CATALOG, { mode });
  parsedQuerySchema.parse(q); // every answer satisfies the schema
  return q;
};
const ids = (list: { id: string }[]) => list.map((m) => m.id);
const codes = (q: ParsedQuery) => q.countries.map((c) => c.code);

test('customers: exact product names, aliases and vendors', () => {
  const q = parse('Find companies using HubSpot CRM and Office 365');
  assert.deepEqual(ids(q.products), ['prd_hubspot_crm', 'prd_office365']);
  assert.deepEqual(
    q.products.map((m) => [m.text, m.kind, m.score]),
    [
      ['HubSpot CRM', 'exact', 1],
      ['Office 365', 'alias', 0.95],
    ],
  );
  assert.deepEqual(ids(q.vendors), []);

  const v = parse('customers of Atlassian');
  assert.deepEqual(ids(v.vendors), ['ven_atlassian']);
  assert.deepEqual(v.vendors[0], { id: 'ven_atlassian', name: 'Atlassian', text: 'Atlassian', kind: 'exact', score: 1 });
  assert.deepEqual(ids(v.products), []);
});

test('a vendor name beats a product alias of the same words; the longest name wins', () => {
  const q = parse('companies using HubSpot');
  assert.deepEqual(ids(q.vendors), ['ven_hubspot']);
  assert.deepEqual(ids(q.products), []);
  const long = parse('companies using Salesforce Marketing Cloud');
  assert.deepEqual(ids(long.products), ['prd_sf_marketing_cloud']);
  assert.deepEqual(ids(long.vendors), []);
});

test('typos are corrected: hubspt, salesforse, a typo inside a multi-word name', () => {
  const h = parse('Find companies that use hubspt');
  assert.deepEqual(ids(h.vendors), ['ven_hubspot']);
  assert.equal(h.vendors[0]!.kind, 'fuzzy');
  assert.equal(h.vendors[0]!.text, 'hubspt');
  assert.ok(h.vendors[0]!.score > 0.8 && h.vendors[0]!.score < 1);

  assert.deepEqual(ids(parse('who runs salesforse?').vendors), ['ven_salesforce']);
  assert.deepEqual(ids(parse('Salesforse Sales Cloud users').products), ['prd_sf_sales_cloud']);
  assert.deepEqual(ids(parse('companies on Micrsoft Teams').products), ['prd_ms_teams']);
  assert.deepEqual(ids(parse('Zendsek customers').vendors), ['ven_zendesk']);
  assert.deepEqual(ids(parse('Freshdeks users').products), ['prd_freshdesk']);
});

test('mixed case and shouting are read the same', () => {
  for (const p of ['companies using hubspot crm', 'COMPANIES USING HUBSPOT CRM', 'cOmPaNiEs UsInG HuBsPoT cRm']) {
    assert.deepEqual(ids(parse(p).products), ['prd_hubspot_crm'], p);
  }
  assert.deepEqual(codes(parse('COMPANIES IN THE US USING JIRA')), ['US']);
});

test('common-word names need a capital letter or a usage cue', () => {
  assert.deepEqual(ids(parse('companies that box above their weight').products), []);
  assert.deepEqual(ids(parse('companies using box').products), ['prd_box']);
  assert.deepEqual(ids(parse('Box customers in France').products), ['prd_box']);
  assert.deepEqual(ids(parse('companies with a front office in Paris').products), []);
  assert.deepEqual(ids(parse('who uses Front?').products), ['prd_front']);
});

test('categories with plurals and generic suffixes, industries and their everyday names', () => {
  const q = parse('CRMs and help desk tools used by banks');
  assert.deepEqual(ids(q.categories), ['cat_crm', 'cat_help_desk']);
  assert.equal(q.categories[0]!.kind, 'alias'); // plural
  assert.deepEqual(ids(q.industries), ['ind_banking']);
  assert.deepEqual(ids(parse('fintech and SaaS companies using Stripe').industries), ['ind_financial_services', 'ind_software']);
  assert.deepEqual(ids(parse('hospitals using Slack').industries), ['ind_healthcare']);
});

test('countries: names, ISO codes in capitals, demonyms, regions; "in", "us", "it" stay words', () => {
  assert.deepEqual(codes(parse('German companies using Jira')), ['DE']);
  assert.deepEqual(codes(parse('French and Spanish retailers')), ['FR', 'ES']);
  assert.deepEqual(codes(parse('companies in the UK and the Netherlands')), ['GB', 'NL']);
  assert.deepEqual(codes(parse('Jira users in DE and FR')), ['DE', 'FR']);
  assert.deepEqual(codes(parse('companies in DACH')), ['AT', 'CH', 'DE']);
  assert.deepEqual(codes(parse('tell us which companies use it in production')), []);
  assert.deepEqual(codes(parse('companies IN germany')), ['DE']); // IN is not India
  assert.deepEqual(codes(parse('companies in Germny')), ['DE']); // typo
  assert.equal(parse('German companies').countries[0]!.kind, 'demonym');
  assert.equal(parse('companies in the US').countries[0]!.kind, 'code');
});

test('size words and head counts map onto the exact employee band labels', () => {
  const band = (p: string) => parse(p).employeeRanges;
  assert.deepEqual(band('enterprise companies'), ['1,000 - 4,999', '5,000 - 9,999', 'Above 10,000']);
  assert.deepEqual(band('SMB customers'), ['Less than 10', '10 - 49', '50 - 199']);
  assert.deepEqual(band('small business owners'), ['Less than 10', '10 - 49', '50 - 199']);
  assert.deepEqual(band('mid-market firms'), ['200 - 499', '500 - 999']);
  assert.deepEqual(band('companies with more than 1000 employees'), ['1,000 - 4,999', '5,000 - 9,999', 'Above 10,000']);
  assert.deepEqual(band('companies with more  than 1,000 employees'), ['1,000 - 4,999', '5,000 - 9,999', 'Above 10,000']);
  assert.deepEqual(band('50-200 employees'), ['50 - 199']);
  assert.deepEqual(band('between 200 and 999 employees'), ['200 - 499', '500 - 999']);
  assert.deepEqual(band('fewer than 50 employees'), ['Less than 10', '10 - 49']);
  assert.deepEqual(band('up to 200 employees'), ['Less than 10', '10 - 49', '50 - 199', '200 - 499']);
  assert.deepEqual(band('5k+ employees'), ['5,000 - 9,999', 'Above 10,000']);
  assert.deepEqual(band('a headcount of 300'), ['200 - 499']);
  assert.deepEqual(band('show 10 people'), []); // a count of results, not a company size
});

test('revenue figures map onto the exact revenue band labels', () => {
  const band = (p: string) => parse(p).revenueRanges;
  assert.deepEqual(band('companies with over $1B revenue'), ['More than 1B']);
  assert.deepEqual(band('$10M-$50M annual revenue'), ['10M - 50M']);
  assert.deepEqual(band('revenue under $5M'), ['Less than 1M', '1M - 2M', '2M - 5M']);
  assert.deepEqual(band('10-50M ARR'), ['10M - 50M']);
  assert.deepEqual(band('50 sales reps'), []);
});

test('time words: recently adopted, last N months, since a date, in a year', () => {
  const t = (p: string) => parse(p).timeWindow;
  assert.deepEqual(t('companies that recently adopted Slack'), { field: 'adopted', withinDays: 90 });
  assert.deepEqual(t('adopted Slack in the last 6 months'), { field: 'adopted', withinDays: 183 });
  assert.deepEqual(t('Slack users over the past year'), { field: 'adopted', withinDays: 365 });
  assert.deepEqual(t('new Jira customers since 2024'), { field: 'adopted', since: '2024-01-01' });
  assert.deepEqual(t('since March 2025'), { field: 'adopted', since: '2025-03-01' });
  assert.deepEqual(t('companies that adopted Jira in 2023'), { field: 'adopted', since: '2023-01-01', until: '2023-12-31' });
  assert.deepEqual(t('still active on Jira in the last 30 days'), { field: 'verified', withinDays: 30 });
  assert.equal(t('companies founded in 2010 using Jira'), null);
  assert.equal(t('businesses that recently raised money'), null);
});

test('tech stack: domains and URLs name the company; categories scope the question', () => {
  const q = parse('Which CRM and marketing automation tools does https://www.Acme-Robotics.com/about use?', 'techstack');
  assert.deepEqual(q.companies, [{ domain: 'acme-robotics.com', name: null, id: null, text: 'https://www.Acme-Robotics.com/about', kind: 'domain' }]);
  assert.deepEqual(ids(q.categories), ['cat_crm', 'cat_marketing_automation']);
  // A vendor's domain is the company asked about in tech-stack mode, a vendor in customers mode.
  assert.deepEqual(
    parse('what does hubspot.com run on?', 'techstack').companies.map((c) => c.domain),
    ['hubspot.com'],
  );
  assert.deepEqual(ids(parse('customers of hubspot.com').vendors), ['ven_hubspot']);
  // File names are not domains.
  assert.deepEqual(parse('teams that use node.js', 'techstack').companies, []);
});

test('tech stack: company names given by the store are recognized', () => {
  const companies = [{ id: 'cmp_globex', domain: 'globex.io', name: 'Globex Corporation' }];
  const q = parsePrompt('what is the tech stack of Globex?', SAMPLE_CATALOG, { mode: 'techstack', companies });
  assert.deepEqual(q.companies, [{ domain: 'globex.io', name: 'Globex Corporation', id: 'cmp_globex', text: 'Globex', kind: 'name' }]);
});

test('plain English yields no catalog entities', () => {
  const prompts = [
    'find companies that use the best tools in the world',
    'show me the top companies with great software and a good team',
    'I want a list of firms that care about their customers',
    'the quick brown fox jumps over the lazy dog',
    'please help me find new opportunities',
    'Which organizations are modernizing their operations?',
    'The company should be profitable, friendly and close to our office',
    'anyone using spreadsheets for everything?',
    'companies that box above their weight',
  ];
  for (const mode of ['customers', 'techstack', 'people'] as const) {
    for (const p of prompts) {
      const q = parse(p, mode);
      const found = [...q.products, ...q.vendors, ...q.categories, ...q.industries].map((m) => m.name);
      assert.deepEqual(found, [], `${mode}: ${p}`);
      assert.deepEqual(q.countries, [], `${mode}: ${p}`);
      assert.deepEqual(q.companies, [], `${mode}: ${p}`);
    }
  }
});

test('leftover words come back as terms, lowercased, without function words', () => {
  const q = parse('Find Jira customers building autonomous drones');
  assert.deepEqual(ids(q.products), ['prd_jira']);
  assert.deepEqual(q.terms, ['building', 'autonomous', 'drones']);
});
