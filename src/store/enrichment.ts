// SQL of enrichment: the companies a set names (by domain or id), their firmographics a batch
// at a time, and the snapshots of enriched sets (enrichment_snapshots, written only when content changed).
import type { Db, Queryable } from '../db/db.ts';
import type { CompanyRow } from './companies.ts';

/** Company ids of these normalized domains (those that exist), as domain → id. */
export async function companyIdsByDomains(db: Queryable, domains: string[]): Promise<Map<string, string>> {
  if (domains.length === 0) return new Map();
  const rows = await db.queryArrays<[string, string]>('SELECT domain, id FROM companies WHERE domain = ANY($1::text[])', [domains]);
  return new Map(rows);
}

/** Which of these company ids exist. */
export async function existingCompanyIds(db: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.queryArrays<[string]>('SELECT id FROM companies WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map(([id]) => id));
}

/** Of these company ids, those with no install at all (never observed), with their domains. */
export async function neverObservedDomains(db: Queryable, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.queryArrays<[string]>(
    `SELECT c.domain FROM companies c WHERE c.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM installs i WHERE i.company_id = c.id)`,
    [ids],
  );
  return rows.map(([d]) => d);
}

export type EnrichCompanyRow = Omit<CompanyRow, 'phone'>;

/** The firmographics of a batch of companies (no contact details), by id. */
export async function enrichCompanyRows(db: Queryable, ids: string[]): Promise<Map<string, EnrichCompanyRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<EnrichCompanyRow>(
    `SELECT c.id, c.domain, c.name, c.industry_id, ind.name AS industry, c.employee_band, c.employee_count,
            c.revenue_band, c.revenue_usd::float8 AS revenue_usd, c.street, c.city, c.state, c.postal_code, trim(c.country)::text AS country,
            c.founded_year, c.website, c.logo_url, c.linkedin_url, c.crunchbase_url, c.description
       FROM companies c LEFT JOIN industries ind ON ind.id = c.industry_id
      WHERE c.id = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Records a snapshot of an enriched set unless the set's latest snapshot has the same content
 * hash (one statement: nothing is written for an unchanged re-run). True when it wrote one.
 */
export async function recordSnapshot(db: Db, s: { clientId: string; setKey: string; contentHash: string; rows: number; found: number }): Promise<boolean> {
  const written = await db.query(
    `INSERT INTO enrichment_snapshots (client_id, set_key, content_hash, rows, found)
     SELECT $1::text, $2::text, $3::text, $4::int, $5::int
      WHERE $3::text IS DISTINCT FROM (SELECT content_hash FROM enrichment_snapshots
                                        WHERE client_id = $1::text AND set_key = $2::text ORDER BY id DESC LIMIT 1)
     RETURNING id`,
    [s.clientId, s.setKey, s.contentHash, s.rows, s.found],
  );
  return written.length > 0;
}
