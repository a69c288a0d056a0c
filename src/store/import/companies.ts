// Import SQL for what belongs to a company: companies, firmographics, installs, people,
// contacts, feed items and defined cohorts. Rows name their company by domain, resolved
// through company_domains into `import_companies (domain, id)` before the checks
// (StageSpec.companies), so the statements below join local tables with local ones, and a
// distributed table only with them (never a subquery per staged row), as Citus can plan.
import { idChecks, mustExist } from './catalog.ts';
import type { StageSpec } from './spec.ts';
import { resolveCompanies } from './stage.ts';
import { keepCompanyFields, NOTE_WORLD_CHANGE, RECORD_COMPANY_CHANGES, recordFeedItemsAdded } from '../change-notes.ts';

const company = (field = 'companyDomain', column = 'company_domain') => mustExist(field, column, 'import_companies', 'domain', 'company');

/** The staged companies whose domain no company has yet (after the resolution of import_companies). */
const NEW_COMPANIES = 'import_stage s LEFT JOIN import_companies k ON k.domain = s.domain WHERE k.domain IS NULL';

export const companies: StageSpec = {
  columns: {
    id: 'text',
    id_given: 'bool',
    domain: 'text',
    name: 'text',
    industry: 'text',
    employee_band: 'text',
    employee_count: 'int',
    revenue_band: 'text',
    revenue_usd: 'bigint',
    street: 'text',
    city: 'text',
    state: 'text',
    postal_code: 'text',
    country: 'text',
    phone: 'text',
    founded_year: 'int',
    website: 'text',
    logo_url: 'text',
    linkedin_url: 'text',
    crunchbase_url: 'text',
    description: 'text',
  },
  keys: [
    { field: 'domain', fields: ['domain'], columns: ['domain'] },
    { field: 'id', fields: ['id'], columns: ['id'] },
  ],
  companies: ['domain'],
  checks: [
    ...idChecks('companies', 'import_companies'),
    {
      field: 'industry',
      where: 's.industry IS NOT NULL AND NOT EXISTS (SELECT 1 FROM industries r WHERE r.id = s.industry OR lower(r.name) = lower(s.industry))',
      message: `format('unknown industry %s (an industry id or name; import industries first)', s.industry)`,
    },
  ],
  table: 'companies',
  // Market sizing counts companies; a changed industry, country or band is an event.
  notes: {
    before: keepCompanyFields('SELECT id FROM import_companies'),
    after: [NOTE_WORLD_CHANGE, ...RECORD_COMPANY_CHANGES],
  },
  // The new domains are claimed first (the domain's uniqueness, migration 055); a domain
  // another import claimed meanwhile keeps that one's id, as a conflict on the domain did.
  before: [
    `INSERT INTO company_domains (domain, company_id) SELECT s.domain, s.id FROM ${NEW_COMPANIES} ON CONFLICT (domain) DO NOTHING`,
    resolveCompanies(`SELECT s.domain FROM ${NEW_COMPANIES}`),
  ],
  // An industry is named by id or by name (case-insensitive); an exact match wins.
  from: `import_stage s JOIN import_companies c ON c.domain = s.domain LEFT JOIN LATERAL (
      SELECT r.id FROM industries r WHERE r.id = s.industry OR lower(r.name) = lower(s.industry)
      ORDER BY (r.id = s.industry) DESC, (r.name = s.industry) DESC, r.id LIMIT 1) i ON true`,
  conflict: ['id'],
  touch: 'updated_at',
  marks: `INSERT INTO refresh_pending (company_id)
    SELECT c.id FROM import_companies k JOIN companies c ON c.id = k.id WHERE c.updated_at = $1`,
  upsert: [
    { target: 'id', expr: 'c.id' },
    { target: 'domain', expr: 's.domain', insertOnly: true },
    { target: 'name', expr: 's.name', fields: ['name'] },
    { target: 'industry_id', expr: 'i.id', fields: ['industry'] },
    { target: 'employee_band', expr: 's.employee_band', fields: ['employeeRange', 'employeeCount'] },
    { target: 'employee_count', expr: 's.employee_count', fields: ['employeeCount'] },
    { target: 'revenue_band', expr: 's.revenue_band', fields: ['revenueRange', 'revenueUsd'] },
    { target: 'revenue_usd', expr: 's.revenue_usd', fields: ['revenueUsd'] },
    { target: 'street', expr: 's.street', fields: ['street'] },
    { target: 'city', expr: 's.city', fields: ['city'] },
    { target: 'state', expr: 's.state', fields: ['state'] },
    { target: 'postal_code', expr: 's.postal_code', fields: ['postalCode'] },
    { target: 'country', expr: 's.country', fields: ['country'] },
    { target: 'phone', expr: 's.phone', fields: ['phone'] },
    { target: 'founded_year', expr: 's.founded_year', fields: ['foundedYear'] },
    { target: 'website', expr: 's.website', fields: ['website'] },
    { target: 'logo_url', expr: 's.logo_url', fields: ['logoUrl'] },
    { target: 'linkedin_url', expr: 's.linkedin_url', fields: ['linkedinUrl'] },
    { target: 'crunchbase_url', expr: 's.crunchbase_url', fields: ['crunchbaseUrl'] },
    { target: 'description', expr: 's.description', fields: ['description'] },
  ],
};

export const firmographics: StageSpec = {
  columns: { company_domain: 'text', profile: 'jsonb' },
  keys: [{ field: 'companyDomain', fields: ['companyDomain'], columns: ['company_domain'] }],
  companies: ['company_domain'],
  checks: [company()],
  table: 'firmographics',
  from: 'import_stage s JOIN import_companies c ON c.domain = s.company_domain',
  conflict: ['company_id'],
  touch: 'updated_at',
  upsert: [
    { target: 'company_id', expr: 'c.id' },
    { target: 'profile', expr: 's.profile' },
  ],
};

export const installs: StageSpec = {
  columns: {
    company_domain: 'text',
    product_id: 'text',
    first_verified: 'timestamptz',
    last_verified: 'timestamptz',
    hit_count: 'int',
    intensity: 'int',
    sources: 'text[]',
  },
  keys: [{ field: 'productId', fields: ['companyDomain', 'productId'], columns: ['company_domain', 'product_id'] }],
  companies: ['company_domain'],
  checks: [company(), mustExist('productId', 'product_id', 'products', 'id', 'product')],
  table: 'installs',
  // New installs change what market sizing counts; new dates and counts do not.
  notes: { afterInserts: [NOTE_WORLD_CHANGE] },
  // The primary key in the byte order its index compares in (the C.UTF-8 and C collations
  // agree on it); "C" also lets the sort use cheap abbreviated keys.
  bulk: { references: ['companies', 'products'], order: 'c.id COLLATE "C", s.product_id COLLATE "C"' },
  from: 'import_stage s JOIN import_companies c ON c.domain = s.company_domain',
  conflict: ['company_id', 'product_id'],
  // The incremental refresh finds changed evidence by this stamp (store/intelligence.ts).
  touch: 'updated_at',
  marks: `INSERT INTO refresh_pending (company_id)
    SELECT DISTINCT c.id FROM import_stage s JOIN import_companies c ON c.domain = s.company_domain
      JOIN installs i ON i.company_id = c.id AND i.product_id = s.product_id
     WHERE i.updated_at = $1`,
  upsert: [
    { target: 'company_id', expr: 'c.id' },
    { target: 'product_id', expr: 's.product_id' },
    { target: 'first_verified', expr: 's.first_verified' },
    { target: 'last_verified', expr: 's.last_verified' },
    { target: 'hit_count', expr: 'COALESCE(s.hit_count, 1)', fields: ['hitCount'] },
    { target: 'intensity', expr: 'COALESCE(s.intensity, 0)', fields: ['intensity'] },
    { target: 'sources', expr: `COALESCE(s.sources, '{}')`, fields: ['source', 'sources'] },
  ],
};

export const people: StageSpec = {
  columns: {
    id: 'text',
    full_name: 'text',
    title: 'text',
    seniority: 'text',
    function: 'text',
    company_domain: 'text',
    country: 'text',
    city: 'text',
    linkedin_url: 'text',
  },
  keys: [{ field: 'id', fields: ['id'], columns: ['id'] }],
  companies: ['company_domain'],
  checks: [company()],
  table: 'people',
  from: 'import_stage s LEFT JOIN import_companies c ON c.domain = s.company_domain',
  conflict: ['id'],
  upsert: [
    { target: 'id', expr: 's.id' },
    { target: 'company_id', expr: 'c.id', fields: ['companyDomain'] },
    { target: 'full_name', expr: 's.full_name' },
    { target: 'title', expr: 's.title', fields: ['title'] },
    { target: 'seniority', expr: 's.seniority', fields: ['seniority'] },
    { target: 'function', expr: 's.function', fields: ['function'] },
    { target: 'country', expr: 's.country', fields: ['country'] },
    { target: 'city', expr: 's.city', fields: ['city'] },
    { target: 'linkedin_url', expr: 's.linkedin_url', fields: ['linkedinUrl'] },
  ],
};

export const contacts: StageSpec = {
  columns: { person_id: 'text', kind: 'text', value: 'text', type: 'text', verified: 'bool' },
  keys: [{ field: 'value', fields: ['profileId', 'kind', 'value'], columns: ['person_id', 'kind', 'value'] }],
  checks: [mustExist('profileId', 'person_id', 'people', 'id', 'profile')],
  table: 'contacts',
  from: 'import_stage s',
  conflict: ['person_id', 'kind', 'value'],
  upsert: [
    { target: 'person_id', expr: 's.person_id' },
    { target: 'kind', expr: 's.kind' },
    { target: 'value', expr: 's.value' },
    { target: 'type', expr: 's.type', fields: ['type'] },
    { target: 'verified', expr: 'COALESCE(s.verified, false)', fields: ['verified'] },
  ],
};

export const feed: StageSpec = {
  columns: {
    id: 'text',
    company_domain: 'text',
    published_at: 'timestamptz',
    title: 'text',
    description: 'text',
    source_url: 'text',
    publisher_name: 'text',
    publisher_logo_url: 'text',
    enclosure_image_url: 'text',
    category: 'text',
  },
  keys: [{ field: 'id', fields: ['id'], columns: ['id'] }],
  companies: ['company_domain'],
  checks: [company()],
  table: 'feed_items',
  // A news item added (not one updated, nor one moved to another company) is a feed.item event.
  notes: {
    before: [
      'DROP TABLE IF EXISTS feed_items_new',
      'CREATE TEMP TABLE feed_items_new ON COMMIT DROP AS SELECT s.id FROM import_stage s LEFT JOIN feed_items f ON f.id = s.id WHERE f.id IS NULL',
    ],
    after: [recordFeedItemsAdded('n.id IN (SELECT id FROM feed_items_new)')],
  },
  // An item is keyed within its company (migration 055; the key of feed_items on Citus): one
  // the file gives to another company moves there, as delete + insert.
  before: [
    `DELETE FROM feed_items f USING (SELECT s.id, c.id AS company_id FROM import_stage s JOIN import_companies c ON c.domain = s.company_domain) m
      WHERE f.id = m.id AND f.company_id <> m.company_id`,
  ],
  from: 'import_stage s JOIN import_companies c ON c.domain = s.company_domain',
  conflict: ['company_id', 'id'],
  upsert: [
    { target: 'id', expr: 's.id' },
    { target: 'company_id', expr: 'c.id' },
    { target: 'published_at', expr: 's.published_at' },
    { target: 'title', expr: 's.title' },
    { target: 'description', expr: `COALESCE(s.description, '')`, fields: ['description'] },
    { target: 'source_url', expr: 's.source_url', fields: ['sourceUrl'] },
    { target: 'publisher_name', expr: 's.publisher_name', fields: ['publisherName'] },
    { target: 'publisher_logo_url', expr: 's.publisher_logo_url', fields: ['publisherLogoUrl'] },
    { target: 'enclosure_image_url', expr: 's.enclosure_image_url', fields: ['enclosureImageUrl'] },
    { target: 'category', expr: `COALESCE(s.category, 'NEWS')`, fields: ['category'] },
  ],
};

// Staged cohort rows resolved to company ids; used by the upsert and by the replace step.
const COHORT_ROWS = `import_stage s JOIN import_companies c ON c.domain = s.company_domain JOIN import_companies m ON m.domain = s.member_domain`;

export const cohorts: StageSpec = {
  columns: { company_domain: 'text', member_domain: 'text', rank: 'int', score: 'real' },
  keys: [
    { field: 'memberDomain', fields: ['companyDomain', 'memberDomain'], columns: ['company_domain', 'member_domain'] },
    { field: 'rank', fields: ['companyDomain', 'rank'], columns: ['company_domain', 'rank'] },
  ],
  companies: ['company_domain', 'member_domain'],
  checks: [company(), company('memberDomain', 'member_domain')],
  table: 'cohorts',
  from: COHORT_ROWS,
  conflict: ['company_id', 'kind', 'member_id'],
  upsert: [
    { target: 'company_id', expr: 'c.id' },
    { target: 'kind', expr: `'defined'` },
    { target: 'member_id', expr: 'm.id' },
    { target: 'score', expr: 's.score', fields: ['score'] },
    { target: 'rank', expr: 's.rank' },
  ],
  // Defined cohorts carry no change stamp: every company of a file that changed anything.
  marks: `INSERT INTO refresh_pending (company_id)
    SELECT DISTINCT c.id FROM import_stage s JOIN import_companies c ON c.domain = s.company_domain`,
  // A defined cohort is a curated list: the file's members replace the company's list.
  deleteMissing: `WITH gone AS (
      DELETE FROM cohorts k WHERE k.kind = 'defined'
        AND k.company_id IN (SELECT c.id FROM import_stage s JOIN import_companies c ON c.domain = s.company_domain)
        AND (k.company_id, k.member_id) NOT IN (SELECT c.id, m.id FROM ${COHORT_ROWS})
      RETURNING 1)
    SELECT count(*)::int AS deleted FROM gone`,
};
