// Import SQL for the catalog: industries, categories, vendors, products.
// Each spec names the staging columns, the in-file keys, the reference checks and the upsert.
import type { StageCheck, StageSpec } from './spec.ts';
import { NOTE_REFERENCE_CHANGE } from '../change-notes.ts';

/** Every catalog kind: servers' reference caches re-read the catalog after a change. */
const referenceNotes = { after: [NOTE_REFERENCE_CHANGE] };

/** Reference check: `column` must name an existing row of `table.key` (a unique key). */
export function mustExist(field: string, column: string, table: string, key: string, what: string): StageCheck {
  return {
    field,
    where: `s.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${table} r WHERE r.${key} = s.${column})`,
    message: `format('unknown ${what} %s (import it first)', s.${column})`,
    exists: { column, table, key },
  };
}

/** For kinds keyed by domain with an optional given id (companies, vendors): an id must not
 *  move to another domain, and a domain keeps the id it already has. `byDomain` holds the
 *  stored (domain, id) pairs: the table itself, or for companies their resolved domains. */
export function idChecks(table: string, byDomain = table): StageCheck[] {
  return [
    {
      field: 'id',
      join: `JOIN ${table} r ON r.id = s.id`,
      where: 'r.domain <> s.domain',
      message: `format('id %s already belongs to %s', s.id, r.domain)`,
    },
    {
      field: 'id',
      join: `JOIN ${byDomain} r ON r.domain = s.domain`,
      where: 's.id_given AND r.id <> s.id',
      message: `format('%s already has id %s (omit id or use that one)', s.domain, r.id)`,
    },
  ];
}

export const industries: StageSpec = {
  notes: referenceNotes,
  columns: { id: 'text', name: 'text', sector: 'text' },
  keys: [
    { field: 'id', fields: ['id'], columns: ['id'] },
    { field: 'name', fields: ['name'], columns: ['name'] },
  ],
  checks: [
    {
      field: 'name',
      where: 'EXISTS (SELECT 1 FROM industries r WHERE r.name = s.name AND r.id <> s.id)',
      message: `format('name %s already belongs to industry %s', s.name, (SELECT r.id FROM industries r WHERE r.name = s.name))`,
    },
  ],
  table: 'industries',
  from: 'import_stage s',
  conflict: ['id'],
  upsert: [
    { target: 'id', expr: 's.id' },
    { target: 'name', expr: 's.name' },
    { target: 'sector', expr: 's.sector', fields: ['sector'] },
  ],
};

// The category tree as it will be after the import: staged rows replace stored ones.
// Rows that no top-level category reaches sit in a cycle.
const CATEGORY_LEVELS = `WITH RECURSIVE tree AS (
    SELECT DISTINCT ON (id) id, parent_id FROM import_stage ORDER BY id, line
  ) , merged AS (
    SELECT id, parent_id FROM tree
    UNION ALL SELECT c.id, c.parent_id FROM categories c WHERE NOT EXISTS (SELECT 1 FROM tree t WHERE t.id = c.id)
  ), lv AS (
    SELECT id, 0 AS level FROM merged WHERE parent_id IS NULL
    UNION ALL SELECT m.id, lv.level + 1 FROM merged m JOIN lv ON m.parent_id = lv.id WHERE lv.level < 64
  ) SELECT id FROM lv`;

export const categories: StageSpec = {
  notes: referenceNotes,
  columns: { id: 'text', name: 'text', parent_id: 'text', description: 'text' },
  keys: [{ field: 'id', fields: ['id'], columns: ['id'] }],
  checks: [
    {
      field: 'parentId',
      where: `s.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM categories r WHERE r.id = s.parent_id)
              AND NOT EXISTS (SELECT 1 FROM import_stage p WHERE p.id = s.parent_id)`,
      message: `format('unknown parent category %s (import it first or in the same file)', s.parent_id)`,
    },
    {
      field: 'parentId',
      where: `s.parent_id IS NOT NULL AND (s.parent_id = s.id OR s.id NOT IN (${CATEGORY_LEVELS}))
              AND (EXISTS (SELECT 1 FROM categories r WHERE r.id = s.parent_id) OR EXISTS (SELECT 1 FROM import_stage p WHERE p.id = s.parent_id))`,
      message: `format('parent %s does not lead to a top-level category (a cycle, or an unknown ancestor)', s.parent_id)`,
    },
  ],
  table: 'categories',
  from: 'import_stage s',
  conflict: ['id'],
  // parentId is always written: an empty parentId means a top-level category.
  upsert: [
    { target: 'id', expr: 's.id' },
    { target: 'name', expr: 's.name' },
    { target: 'parent_id', expr: 's.parent_id' },
    { target: 'description', expr: 's.description', fields: ['description'] },
  ],
  // Levels follow from the tree; a moved category moves its descendants too.
  after: [
    `WITH RECURSIVE lv AS (
       SELECT id, 0 AS level FROM categories WHERE parent_id IS NULL
       UNION ALL SELECT c.id, lv.level + 1 FROM categories c JOIN lv ON c.parent_id = lv.id WHERE lv.level < 64)
     UPDATE categories c SET level = lv.level FROM lv WHERE lv.id = c.id AND c.level <> lv.level`,
  ],
};

export const vendors: StageSpec = {
  notes: referenceNotes,
  columns: { id: 'text', id_given: 'bool', domain: 'text', name: 'text', website: 'text', logo_url: 'text', description: 'text' },
  keys: [
    { field: 'domain', fields: ['domain'], columns: ['domain'] },
    { field: 'id', fields: ['id'], columns: ['id'] },
  ],
  checks: idChecks('vendors'),
  table: 'vendors',
  from: 'import_stage s',
  conflict: ['domain'],
  upsert: [
    { target: 'id', expr: 's.id', insertOnly: true },
    { target: 'domain', expr: 's.domain' },
    { target: 'name', expr: 's.name' },
    { target: 'website', expr: 's.website', fields: ['website'] },
    { target: 'logo_url', expr: 's.logo_url', fields: ['logoUrl'] },
    { target: 'description', expr: 's.description', fields: ['description'] },
  ],
};

export const products: StageSpec = {
  notes: referenceNotes,
  columns: {
    id: 'text',
    vendor_domain: 'text',
    vendor_id: 'text',
    category_id: 'text',
    name: 'text',
    short_name: 'text',
    description: 'text',
    features: 'text[]',
    aliases: 'text[]',
    review_count: 'int',
    star_rating: 'real',
    avg_rating: 'real',
    image_url: 'text',
    product_url: 'text',
    public_detail_url: 'text',
  },
  keys: [{ field: 'id', fields: ['id'], columns: ['id'] }],
  checks: [
    mustExist('vendorDomain', 'vendor_domain', 'vendors', 'domain', 'vendor'),
    mustExist('vendorId', 'vendor_id', 'vendors', 'id', 'vendor'),
    {
      field: 'vendorId',
      where:
        's.vendor_id IS NOT NULL AND s.vendor_domain IS NOT NULL AND EXISTS (SELECT 1 FROM vendors r WHERE r.id = s.vendor_id AND r.domain <> s.vendor_domain)',
      message: `format('vendor %s is not the vendor of %s', s.vendor_id, s.vendor_domain)`,
    },
    mustExist('categoryId', 'category_id', 'categories', 'id', 'category'),
  ],
  table: 'products',
  from: 'import_stage s LEFT JOIN vendors v ON v.domain = s.vendor_domain',
  conflict: ['id'],
  upsert: [
    { target: 'id', expr: 's.id' },
    { target: 'vendor_id', expr: 'COALESCE(s.vendor_id, v.id)' },
    { target: 'category_id', expr: 's.category_id' },
    { target: 'name', expr: 's.name' },
    { target: 'short_name', expr: 's.short_name', fields: ['shortName'] },
    { target: 'description', expr: `COALESCE(s.description, '')`, fields: ['description'] },
    { target: 'features', expr: `COALESCE(s.features, '{}')`, fields: ['features'] },
    { target: 'aliases', expr: `COALESCE(s.aliases, '{}')`, fields: ['aliases'] },
    { target: 'review_count', expr: 'COALESCE(s.review_count, 0)', fields: ['reviewCount'] },
    { target: 'star_rating', expr: 's.star_rating', fields: ['starRating'] },
    { target: 'avg_rating', expr: 's.avg_rating', fields: ['avgRating'] },
    { target: 'image_url', expr: 's.image_url', fields: ['imageUrl'] },
    { target: 'product_url', expr: 's.product_url', fields: ['productUrl'] },
    { target: 'public_detail_url', expr: 's.public_detail_url', fields: ['publicDetailUrl'] },
  ],
};
