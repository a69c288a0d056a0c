import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrompt, parsedQuerySchema, type CatalogCompany } from '../../src/intelligence/prompt/index.ts';
import { SAMPLE_CATALOG } from '../../src/intelligence/prompt/sample-catalog.ts';

const people = (prompt: string, companies: CatalogCompany[] = []) => {
  const q = parsePrompt(prompt, SAMPLE_CATALOG, { mode: 'people', companies });
  parsedQuerySchema.parse(q);
  return q;
};
const roles = (prompt: string) => {
  const q = people(prompt);
  return { titles: q.titles, seniority: q.seniority, functions: q.functions };
};

test('titles with their seniority and functions', () => {
  assert.deepEqual(roles('CTO'), { titles: ['CTO'], seniority: ['C-Level'], functions: ['IT', 'Engineering'] });
  assert.deepEqual(roles('VPs of Sales'), { titles: ['VP of Sales'], seniority: ['VP'], functions: ['Sales'] });
  assert.deepEqual(roles('VP Marketing'), { titles: ['VP Marketing'], seniority: ['VP'], functions: ['Marketing'] });
  assert.deepEqual(roles('heads of marketing'), { titles: ['Head of Marketing'], seniority: ['Director'], functions: ['Marketing'] });
  assert.deepEqual(roles('Chief Technology Officer'), { titles: ['Chief Technology Officer'], seniority: ['C-Level'], functions: ['IT', 'Engineering'] });
  assert.deepEqual(roles('senior software engineers'), { titles: ['Senior Software Engineer'], seniority: ['Senior'], functions: ['Engineering'] });
  assert.deepEqual(roles('IT managers'), { titles: ['IT Manager'], seniority: ['Manager'], functions: ['IT'] });
  assert.deepEqual(roles('account executives'), { titles: ['Account Executive'], seniority: [], functions: ['Sales'] });
  assert.deepEqual(roles('lead engineers'), { titles: ['Lead Engineer'], seniority: ['Senior'], functions: ['Engineering'] });
  assert.deepEqual(roles('Customer Success Managers'), { titles: ['Customer Success Manager'], seniority: ['Manager'], functions: ['Customer Success'] });
  assert.deepEqual(roles('recruiters'), { titles: ['Recruiter'], seniority: [], functions: ['HR'] });
  assert.deepEqual(roles('co-founders'), { titles: ['Cofounder'], seniority: ['C-Level'], functions: [] });
});

test('bare seniority words and function words are filters, not titles', () => {
  assert.deepEqual(roles('directors in finance'), { titles: [], seniority: ['Director'], functions: ['Finance'] });
  assert.deepEqual(roles('C-suite executives'), { titles: [], seniority: ['C-Level'], functions: [] });
  assert.deepEqual(roles('junior people in HR and legal'), { titles: [], seniority: ['Entry'], functions: ['HR', 'Legal'] });
  assert.deepEqual(roles('decision makers in IT'), { titles: [], seniority: ['C-Level', 'VP', 'Director'], functions: ['IT'] });
});

test('several titles, split at punctuation', () => {
  const r = roles('Head of Marketing, IT managers and recruiters');
  assert.deepEqual(r.titles, ['Head of Marketing', 'IT Manager', 'Recruiter']);
  assert.deepEqual(r.seniority, ['Director', 'Manager']);
  assert.deepEqual(r.functions, ['Marketing', 'IT', 'HR']);
});

test('"it" and "us" in lowercase prose are not IT or the United States', () => {
  const q = people('show us who runs it at their companies');
  assert.deepEqual([q.functions, q.countries, q.titles], [[], [], []]);
});

test('people: companies by domain, by name (from the store) and vendors as employers', () => {
  const byDomain = people('marketing directors at www.globex.io');
  assert.deepEqual(byDomain.companies, [{ domain: 'globex.io', name: null, id: null, text: 'www.globex.io', kind: 'domain' }]);
  const companies = [{ id: 'cmp_initech', domain: 'initech.com', name: 'Initech Inc.' }];
  const byName = people('engineers at Initech in Texas', companies);
  assert.deepEqual(byName.companies, [{ domain: 'initech.com', name: 'Initech Inc.', id: 'cmp_initech', text: 'Initech', kind: 'name' }]);
  const vendor = people('Chief Technology Officer at Salesforce');
  assert.deepEqual(vendor.companies, [{ domain: 'salesforce.com', name: 'Salesforce', id: null, text: 'Salesforce', kind: 'vendor' }]);
  assert.deepEqual(vendor.vendors, []);
});

test('people: places, industries and company sizes', () => {
  const q = people('CTOs of German fintech startups with 50-200 employees');
  assert.deepEqual(q.titles, ['CTO']);
  assert.deepEqual(
    q.countries.map((c) => c.code),
    ['DE'],
  );
  assert.deepEqual(
    q.industries.map((i) => i.id),
    ['ind_financial_services'],
  );
  assert.deepEqual(q.employeeRanges, ['Less than 10', '10 - 49', '50 - 199']);
});

test('people mode reads no products or categories', () => {
  const q = people('marketing managers at companies using HubSpot CRM');
  assert.deepEqual([q.products, q.categories], [[], []]);
  assert.deepEqual(q.titles, ['Marketing Manager']);
  // HubSpot follows "using": a technology the employers use, not the employer.
  assert.deepEqual(q.companies, []);
  assert.deepEqual(
    q.vendors.map((v) => v.id),
    ['ven_hubspot'],
  );
});
