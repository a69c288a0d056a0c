// SQL for vendors: exact and trigram-fuzzy search, lookups by domain.
import type { Db } from '../db/db.ts';
import { containsPattern, Params } from '../db/sql.ts';

export interface VendorRow {
  id: string;
  domain: string;
  name: string;
  logo_url: string | null;
  website: string | null;
}

interface VendorQuery {
  /** Case-insensitive exact name, or exact (normalized) domain. */
  exact?: { name: string; domain: string | null };
  /** Fuzzy text: ranked by trigram similarity to name and domain. */
  fuzzy?: string;
}

// The minimum trigram score of a fuzzy hit is part of the contract (the API reference states it).
import { FUZZY_THRESHOLD } from '../schemas/vendors.ts';

/**
 * The filter over `v`, a vendor row with its fuzzy `score` computed once (see searchVendors).
 * A fuzzy hit scores at least FUZZY_THRESHOLD on trigram similarity or word similarity of
 * name or domain, or holds the text as a substring.
 */
function vendorWhere(q: VendorQuery, p: Params): { where: string; score: string } {
  if (q.exact) {
    const name = p.add(q.exact.name.toLowerCase());
    const domain = q.exact.domain === null ? '' : ` OR v.domain = ${p.add(q.exact.domain)}`;
    return { where: `WHERE lower(v.name) = ${name} OR v.domain = ${name}${domain}`, score: 'NULL::real' };
  }
  if (q.fuzzy) {
    const t = p.add(q.fuzzy.toLowerCase());
    const score = `GREATEST(similarity(lower(v.name), ${t}), similarity(v.domain, ${t}), word_similarity(${t}, lower(v.name)), word_similarity(${t}, v.domain))`;
    const like = p.add(containsPattern(q.fuzzy));
    return { where: `WHERE v.score >= ${p.add(FUZZY_THRESHOLD, 'real')} OR v.name ILIKE ${like} OR v.domain ILIKE ${like}`, score };
  }
  return { where: '', score: 'NULL::real' };
}

/**
 * One statement for the page and the total, with each vendor's fuzzy score computed once:
 * four trigram functions per vendor were evaluated three times (count, filter, order), which
 * made fuzzy search cost ≈ 2.5 ms of PostgreSQL per request on 300 vendors. A page past the
 * end has no row to carry the total, so only then is it counted on its own.
 * No trigram index: the score mixes word_similarity at a 0.3 threshold, which pg_trgm's
 * index operators (`<%`, tied to pg_trgm.word_similarity_threshold, 0.6 by default) cannot
 * express without a per-connection setting; catalogs are hundreds to a few thousand vendors.
 */
export async function searchVendors(db: Db, q: VendorQuery, limit: number, offset: number): Promise<{ total: number; rows: VendorRow[] }> {
  const p = new Params();
  const { where, score } = vendorWhere(q, p);
  const from = `(SELECT v.id, v.domain, v.name, v.logo_url, v.website, ${score} AS score FROM vendors v) v ${where}`;
  const filterValues = [...p.values];
  const rows = await db.query<VendorRow & { total: number }>(
    `SELECT v.id, v.domain, v.name, v.logo_url, v.website, count(*) OVER ()::int8 AS total FROM ${from}
     ORDER BY v.score DESC NULLS LAST, lower(v.name), v.id LIMIT ${p.add(limit, 'int')} OFFSET ${p.add(offset, 'int8')}`,
    p.values,
  );
  if (rows.length > 0) return { total: Number(rows[0]!.total), rows: rows.map(({ total: _total, ...row }) => row) };
  if (offset === 0 && limit > 0) return { total: 0, rows };
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM ${from}`, filterValues);
  return { total: count!.n, rows };
}

export async function findVendorByDomain(db: Db, domain: string): Promise<VendorRow | undefined> {
  const [row] = await db.query<VendorRow>('SELECT v.id, v.domain, v.name, v.logo_url, v.website FROM vendors v WHERE v.domain = $1', [domain]);
  return row;
}

/** Domain → vendor id for the known ones among these domains. */
export async function vendorIdsByDomain(db: Db, domains: string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; domain: string }>('SELECT id, domain FROM vendors WHERE domain = ANY($1::text[])', [domains]);
  return new Map(rows.map((r) => [r.domain, r.id]));
}
