// SQL of the observation log (migration 027): companies and catalog products for detected
// technologies, the append-only insert, the derivation of installs from the log, and the
// evidence reads of the API. What an observation is and how installs fold from the log are
// technographics/ (observations.ts, installs.ts); the window is a parameter here.
import type { Queryable, Tx } from '../db/db.ts';
import { TRACE_SQL } from '../technographics/evidence.ts';
import type { Observation } from '../technographics/observations.ts';
import { noteReferenceChange, noteWorldChange, noteWorldChangeIf } from './change-notes.ts';

/** A technology as the detector names it, with what the catalog knows to create its product. */
export interface TechnologyRef {
  name: string;
  vendorDomain: string;
  vendor?: string;
  website?: string;
  category: string;
  description?: string;
}

/**
 * Company ids by domain (company_domains: one shard per domain on Citus); with `create`,
 * unknown domains get a minimal company row (id `cmp_` + the domain with dots as
 * underscores, like the companies import, and the domain).
 */
export async function companiesForDomains(tx: Tx, domains: string[], create: boolean): Promise<{ ids: Map<string, string>; created: number }> {
  const known = async () =>
    new Map(await tx.queryArrays<[string, string]>('SELECT domain, company_id FROM company_domains WHERE domain = ANY($1::text[])', [domains]));
  const ids = await known();
  const missing = create ? domains.filter((d) => !ids.has(d)) : [];
  if (missing.length === 0) return { ids, created: 0 };
  // The domains found missing first, then claimed (the domain's uniqueness, migration 055)
  // and their companies inserted: plain INSERTs, which a Citus cluster routes by domain and
  // by id (a correlated NOT EXISTS over unnest() it cannot plan). A writer racing for the
  // same new domain claims it first; this one then skips it.
  const rows = await tx.query<{ id: string; domain: string }>(
    `INSERT INTO company_domains (domain, company_id) SELECT d, 'cmp_' || replace(d, '.', '_') FROM unnest($1::text[]) AS d
     ON CONFLICT DO NOTHING RETURNING company_id AS id, domain`,
    [missing],
  );
  if (rows.length > 0) {
    await tx.query(`INSERT INTO companies (id, domain) SELECT unnest($1::text[]), unnest($2::text[]) ON CONFLICT DO NOTHING`, [
      rows.map((r) => r.id),
      rows.map((r) => r.domain),
    ]);
    await tx.query(`INSERT INTO refresh_pending (company_id) SELECT unnest($1::text[])`, [rows.map((r) => r.id)]);
    await noteWorldChange(tx);
  }
  return { ids: await known(), created: rows.length };
}

/**
 * The catalog product of each technology (index-aligned; null when none): a product of the
 * technology's vendor (by vendor domain) whose name, short name or an alias equals the
 * technology's name (case-insensitive), else any product of that exact name.
 */
export async function matchProducts(db: Queryable, techs: TechnologyRef[]): Promise<Array<string | null>> {
  if (techs.length === 0) return [];
  const rows = await db.queryArrays<[number, string]>(
    `SELECT t.i::int, m.id
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(name, vdomain, i)
       CROSS JOIN LATERAL (
         SELECT p.id FROM products p JOIN vendors v ON v.id = p.vendor_id
          WHERE (v.domain = t.vdomain AND (lower(p.name) = lower(t.name) OR lower(p.short_name) = lower(t.name)
                 OR EXISTS (SELECT 1 FROM unnest(p.aliases) a WHERE lower(a) = lower(t.name))))
             OR p.name = t.name
          ORDER BY (v.domain = t.vdomain) DESC, (lower(p.name) = lower(t.name)) DESC, p.id
          LIMIT 1) m`,
    [techs.map((t) => t.name), techs.map((t) => t.vendorDomain.toLowerCase())],
  );
  const out: Array<string | null> = techs.map(() => null);
  for (const [i, id] of rows) out[i - 1] = id;
  return out;
}

/**
 * Adds a vendor (when its domain is new) and a product for a technology the catalog does not
 * hold yet. The category is found by name in our taxonomy; without one, nothing is created
 * and null comes back. The id is `prd_` + the slug of the name, suffixed when taken.
 */
export async function createProduct(tx: Tx, tech: TechnologyRef, slug: string): Promise<string | null> {
  const [category] = await tx.query<{ id: string }>('SELECT id FROM categories WHERE lower(name) = lower($1) ORDER BY level DESC, id LIMIT 1', [tech.category]);
  if (!category) return null;
  const vendorDomain = tech.vendorDomain.toLowerCase();
  await tx.query(
    `INSERT INTO vendors (id, domain, name, website)
     SELECT CASE WHEN EXISTS (SELECT 1 FROM vendors WHERE id = $1) THEN $1 || '_' || substr(md5($2), 1, 6) ELSE $1 END, $2, $3, $4
      WHERE NOT EXISTS (SELECT 1 FROM vendors WHERE domain = $2)`,
    [`ven_${vendorDomain.replaceAll('.', '_')}`, vendorDomain, tech.vendor ?? vendorDomain, tech.website ? new URL(tech.website).origin : null],
  );
  const [taken] = await tx.query<{ ids: string[] }>(`SELECT coalesce(array_agg(id), '{}') AS ids FROM products WHERE id = $1 OR id LIKE $1 || '\\_%'`, [
    `prd_${slug}`,
  ]);
  const used = new Set(taken?.ids ?? []);
  let id = `prd_${slug}`;
  for (let n = 2; used.has(id); n++) id = `prd_${slug}_${n}`;
  await tx.query(
    `INSERT INTO products (id, vendor_id, category_id, name, description, product_url)
     SELECT $1, v.id, $2, $3, $4, $5 FROM vendors v WHERE v.domain = $6`,
    [id, category.id, tech.name, tech.description ?? '', tech.website ?? null, vendorDomain],
  );
  await noteReferenceChange(tx);
  return id;
}

/** Appends observations; a trace already logged for the same day is skipped. Returns how many were added. */
export async function insertObservations(tx: Tx, rows: Observation[]): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await tx.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO observations (company_id, product_id, seen_day, evidence_hash, source, rule_id, seen_at, evidence, weight, run_id)
       SELECT c, p, (s AT TIME ZONE 'UTC')::date, h, src, r, s, e::jsonb, w, run
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::real[], $9::text[])
              AS t(c, p, s, h, src, r, e, w, run)
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [
      rows.map((r) => r.companyId),
      rows.map((r) => r.productId),
      rows.map((r) => r.seenAt.toISOString()),
      rows.map((r) => r.evidenceHash),
      rows.map((r) => r.source),
      rows.map((r) => r.ruleId),
      rows.map((r) => JSON.stringify(r.evidence)),
      rows.map((r) => r.weight),
      rows.map((r) => r.runId),
    ],
  );
  return added[0]?.n ?? 0;
}

export interface DeriveCounts {
  /** Install rows inserted or changed. */
  upserted: number;
  /** Installs removed because their last observation is older than the window. */
  expired: number;
  /** Companies whose installs changed (marked for the incremental refresh). */
  companies: number;
}

/**
 * Rebuilds the installs of the (company, product) pairs that have observations, for the given
 * companies (null: every company in the log), as technographics/installs.ts foldInstalls folds
 * them (its executable specification; a test holds the two equal): first and last observation,
 * their count, the distinct sources, and intensity from each trace's strongest weight within
 * the window before the last observation. A pair last seen before `asOf − staleAfterDays` is
 * not in use: its install is deleted. Pairs without observations (imported installs) are not
 * touched. Changed companies go to refresh_pending.
 */
export async function deriveInstallsFromLog(tx: Tx, companyIds: string[] | null, asOf: Date, staleAfterDays: number): Promise<DeriveCounts> {
  const [row] = await tx.query<DeriveCounts>(
    `WITH agg AS (
       SELECT company_id, product_id, min(seen_at) AS first_seen, max(seen_at) AS last_seen, count(*)::int AS hits,
              array_agg(DISTINCT source ORDER BY source) AS sources
         FROM observations WHERE $1::text[] IS NULL OR company_id = ANY($1::text[])
        GROUP BY company_id, product_id),
     trace_weight AS (
       SELECT o.company_id, o.product_id, o.trace, max(o.weight) AS w
         FROM (SELECT company_id, product_id, seen_at, weight, ${TRACE_SQL} AS trace FROM observations) o
         JOIN agg a ON a.company_id = o.company_id AND a.product_id = o.product_id
        WHERE o.seen_at >= a.last_seen - make_interval(days => $3::int)
        GROUP BY o.company_id, o.product_id, o.trace),
     strength AS (
       SELECT company_id, product_id, 1 - exp(sum(ln(1 - least(w, 0.999)::float8))) AS s
         FROM trace_weight GROUP BY company_id, product_id),
     derived AS (
       SELECT a.*, greatest(1, least(100, round(100 * s.s)))::smallint AS intensity,
              a.last_seen >= $2::timestamptz - make_interval(days => $3::int) AS current
         FROM agg a JOIN strength s ON s.company_id = a.company_id AND s.product_id = a.product_id),
     up AS (
       INSERT INTO installs AS i (company_id, product_id, first_verified, last_verified, hit_count, intensity, sources, updated_at)
       SELECT company_id, product_id, first_seen, last_seen, hits, intensity, sources, now() FROM derived WHERE current
       ON CONFLICT (company_id, product_id) DO UPDATE
          SET first_verified = EXCLUDED.first_verified, last_verified = EXCLUDED.last_verified, hit_count = EXCLUDED.hit_count,
              intensity = EXCLUDED.intensity, sources = EXCLUDED.sources, updated_at = EXCLUDED.updated_at
        WHERE (i.first_verified, i.last_verified, i.hit_count, i.intensity, i.sources)
              IS DISTINCT FROM (EXCLUDED.first_verified, EXCLUDED.last_verified, EXCLUDED.hit_count, EXCLUDED.intensity, EXCLUDED.sources)
       RETURNING i.company_id, (i.xmax = 0) AS inserted),
     gone AS (
       DELETE FROM installs i USING derived d
        WHERE i.company_id = d.company_id AND i.product_id = d.product_id AND NOT d.current
       RETURNING i.company_id, (i.xmax = 0) AS inserted),
     changed AS (SELECT company_id FROM up UNION SELECT company_id FROM gone),
     marked AS (INSERT INTO refresh_pending (company_id) SELECT company_id FROM changed RETURNING 1),
     -- New and expired installs change what market sizing counts; new dates and counts do not.
     noted AS (${noteWorldChangeIf('EXISTS (SELECT 1 FROM up WHERE inserted) OR EXISTS (SELECT 1 FROM gone)')})
     SELECT (SELECT count(*) FROM up)::int AS upserted, (SELECT count(*) FROM gone)::int AS expired, (SELECT count(*) FROM marked)::int AS companies`,
    [companyIds, asOf.toISOString(), staleAfterDays],
  );
  return row ?? { upserted: 0, expired: 0, companies: 0 };
}

export interface EvidenceItemRow {
  source: string;
  url: string | null;
  ruleId: string;
  excerpt: string;
  version: string | null;
  weight: number;
  seenAt: Date;
  runId: string | null;
}

const EVIDENCE_COLUMNS = `source, evidence->>'url' AS url, rule_id AS "ruleId", coalesce(evidence->>'excerpt', '') AS excerpt,
  evidence->>'version' AS version, coalesce((evidence->>'weight')::float8, weight::float8) AS weight, seen_at AS "seenAt", run_id AS "runId"`;

/** One page of a company's observations of a product, newest first, and how many there are. */
export async function evidencePage(
  db: Queryable,
  companyId: string,
  productId: string,
  offset: number,
  limit: number,
): Promise<{ total: number; items: EvidenceItemRow[] }> {
  const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM observations WHERE company_id = $1 AND product_id = $2', [
    companyId,
    productId,
  ]);
  const total = count?.n ?? 0;
  if (total === 0 || offset >= total) return { total, items: [] };
  const items = await db.query<EvidenceItemRow>(
    `SELECT ${EVIDENCE_COLUMNS} FROM observations WHERE company_id = $1 AND product_id = $2
      ORDER BY seen_day DESC, seen_at DESC, evidence_hash LIMIT $3 OFFSET $4`,
    [companyId, productId, limit, offset],
  );
  return { total, items };
}

/** The newest observations of several products of one company, at most `perProduct` each (for `?include=evidence`). */
export async function latestEvidence(db: Queryable, companyId: string, productIds: string[], perProduct: number): Promise<Map<string, EvidenceItemRow[]>> {
  const out = new Map<string, EvidenceItemRow[]>();
  if (productIds.length === 0) return out;
  const rows = await db.query<EvidenceItemRow & { productId: string }>(
    `SELECT pid AS "productId", e.* FROM unnest($2::text[]) AS pid
      CROSS JOIN LATERAL (
        SELECT ${EVIDENCE_COLUMNS} FROM observations
         WHERE company_id = $1 AND product_id = pid
         ORDER BY seen_day DESC, seen_at DESC, evidence_hash LIMIT $3) e`,
    [companyId, productIds, perProduct],
  );
  for (const { productId, ...item } of rows) {
    let list = out.get(productId);
    if (!list) out.set(productId, (list = []));
    list.push(item);
  }
  return out;
}
