// worldDigest: a fingerprint of every world table's content, rows in a stable order,
// timestamps rendered in UTC, serial ids left out. Same seed + size + as-of → same
// digest, on PGlite and on PostgreSQL alike.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';

interface TableSpec {
  table: string;
  columns: string;
  /** Rows hash per group first (bounded string sizes on large worlds), then groups. */
  group: string;
  order: string;
  /** Only the rows the world holds (a condition on the table). */
  where?: string;
}

const TABLES: TableSpec[] = [
  { table: 'industries', columns: 'id, name, sector', group: "''", order: 'id' },
  { table: 'categories', columns: 'id, name, parent_id, level, description', group: "''", order: 'id' },
  { table: 'vendors', columns: 'id, domain, name, website, logo_url, description', group: "''", order: 'id' },
  {
    table: 'products',
    columns:
      'id, vendor_id, category_id, name, short_name, description, features, aliases, review_count, star_rating, avg_rating, image_url, product_url, public_detail_url',
    group: 'vendor_id',
    order: 'id',
  },
  {
    table: 'companies',
    columns:
      'id, domain, name, industry_id, employee_band, employee_count, revenue_band, revenue_usd, street, city, state, postal_code, country, phone, founded_year, website, logo_url, linkedin_url, crunchbase_url, description, updated_at',
    group: 'left(id, 6)',
    order: 'id',
  },
  { table: 'firmographics', columns: 'company_id, profile, updated_at', group: 'left(company_id, 6)', order: 'company_id' },
  {
    table: 'installs',
    columns: 'company_id, product_id, first_verified, last_verified, hit_count, intensity, sources',
    group: 'company_id',
    order: 'product_id',
  },
  { table: 'cohorts', columns: 'company_id, kind, member_id, score, rank', group: 'company_id', order: 'kind, member_id' },
  {
    table: 'feed_items',
    columns: 'id, company_id, published_at, title, description, source_url, publisher_name, publisher_logo_url, enclosure_image_url, category',
    group: 'company_id',
    order: 'id',
  },
  { table: 'people', columns: 'id, company_id, full_name, title, seniority, function, country, city, linkedin_url', group: 'company_id', order: 'id' },
  { table: 'contacts', columns: 'person_id, kind, value, type, verified', group: 'person_id', order: 'kind, value' },
  { table: 'truth_segments', columns: 'company_id, segment_id, industry_id, size_tier, region, maturity', group: 'left(company_id, 6)', order: 'company_id' },
  { table: 'truth_installs', columns: 'company_id, product_id, in_use, kind', group: 'company_id', order: 'product_id' },
  // The past of the history panel (seed/history.ts): its visits, the events about the world derived from them (not a
  // monitor's; seq is given when published, so left out), and the truth of its changes.
  { table: 'site_visits', columns: 'company_id, visited_at, run_key, outcome, kinds, reason, seen', group: 'company_id', order: 'visited_at::text, run_key' },
  {
    table: 'events',
    columns: 'id, type, company_id, subject, occurred_at, earliest, latest, detected_at, confidence, evidence',
    where: 'client_id IS NULL',
    group: 'company_id',
    order: 'id',
  },
  {
    table: 'truth_history',
    columns: 'company_id, product_id, period, in_use_from, in_use_until, detectable, visible',
    group: 'company_id',
    order: 'product_id, period::text',
  },
];

interface WorldDigest {
  digest: string;
  tables: Record<string, { rows: number; md5: string }>;
}

export async function worldDigest(db: Db): Promise<WorldDigest> {
  const collate = (cols: string) =>
    cols
      .split(',')
      .map((c) => `${c.trim()} COLLATE "C"`)
      .join(', ');
  return db.transaction(
    async (tx) => {
      await tx.query("SET LOCAL TimeZone = 'UTC'");
      await tx.query('SET LOCAL extra_float_digits = 1');
      const tables: WorldDigest['tables'] = {};
      const total = createHash('sha256');
      for (const t of TABLES) {
        const [r] = await tx.query<{ rows: number; md5: string }>(
          `SELECT coalesce(sum(n), 0)::bigint AS rows, md5(coalesce(string_agg(g || ':' || h, ',' ORDER BY g COLLATE "C"), '')) AS md5
         FROM (SELECT ${t.group}::text AS g, count(*) AS n, md5(string_agg(ROW(${t.columns})::text, E'\\n' ORDER BY ${collate(t.order)})) AS h
               FROM ${t.table} ${t.where ? `WHERE ${t.where}` : ''} GROUP BY 1) per_group`,
        );
        tables[t.table] = { rows: Number(r!.rows), md5: r!.md5 };
        total.update(`${t.table}\t${r!.rows}\t${r!.md5}\n`);
      }
      return { digest: total.digest('hex'), tables };
    },
    { readOnly: true },
  );
}
