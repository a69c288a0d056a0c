// SQL for the intelligence refresh job: bulk loads of the population's features and
// install evidence, batched writes of computed cohorts and co-usage statistics, and the
// refresh_runs bookkeeping. Reads of these results for requests live in cohorts.ts and
// cousage.ts.
import type { Queryable, Transactional } from '../db/db.ts';
import { CopyRows } from '../db/copy-text.ts';

export type ComputedKind = 'default' | 'competitors' | 'aspirational';
const COMPUTED_KINDS: readonly ComputedKind[] = ['default', 'competitors', 'aspirational'];

interface CompanyFeatureRow {
  id: string;
  industryId: string | null;
  sector: string | null;
  employeeBand: string | null;
  revenueBand: string | null;
  country: string | null;
  description: string | null;
  name: string | null;
}

export async function loadCompanyFeatures(db: Queryable): Promise<CompanyFeatureRow[]> {
  const rows = await db.queryArrays(
    `SELECT c.id, c.industry_id, i.sector, c.employee_band, c.revenue_band, c.country::text, c.description, c.name
       FROM companies c LEFT JOIN industries i ON i.id = c.industry_id
      ORDER BY c.id`,
  );
  return rows.map((r) => ({
    id: r[0] as string,
    industryId: r[1] as string | null,
    sector: r[2] as string | null,
    employeeBand: r[3] as string | null,
    revenueBand: r[4] as string | null,
    country: (r[5] as string | null)?.trim() || null,
    description: r[6] as string | null,
    name: r[7] as string | null,
  }));
}

export async function loadProductCategories(db: Queryable): Promise<{ id: string; categoryId: string }[]> {
  return db.query<{ id: string; categoryId: string }>('SELECT id, category_id AS "categoryId" FROM products ORDER BY id');
}

/** One install's signal (technographics/installs.ts InstallSignal) as loaded in bulk: [companyId, productId, lastMs, firstMs, hits, intensity, sources]. */
export type InstallSignalTuple = [string, string, number, number, number, number, number];

/**
 * Streams every install's evidence in keyset pages (constant memory per page, array rows
 * to keep 100,000 companies' installs cheap to parse).
 */
export async function forEachInstallSignal(db: Queryable, onPage: (rows: InstallSignalTuple[]) => void, pageSize = 100_000): Promise<void> {
  let after: [string, string] = ['', ''];
  for (;;) {
    const rows = await db.queryArrays<InstallSignalTuple>(
      `SELECT company_id, product_id,
              extract(epoch FROM last_verified)::float8 * 1000,
              extract(epoch FROM first_verified)::float8 * 1000,
              hit_count, intensity::int, cardinality(sources)
         FROM installs
        WHERE (company_id, product_id) > ($1::text, $2::text)
        ORDER BY company_id, product_id
        LIMIT $3::int`,
      [after[0], after[1], pageSize],
    );
    if (rows.length === 0) return;
    onPage(rows);
    const last = rows[rows.length - 1]!;
    after = [last[0], last[1]];
    if (rows.length < pageSize) return;
  }
}

/** The newest verification in the data: the "now" that recency is measured from. */
export async function newestVerification(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>('SELECT max(last_verified) AS at FROM installs');
  return row?.at ?? null;
}

export interface CohortRow {
  companyId: string;
  kind: ComputedKind;
  memberId: string;
  score: number;
  rank: number;
}

/**
 * Replaces the computed cohorts and the in-use stacks (`stacks[i]`: the product ids of
 * `companyIds[i]`) of these companies in one transaction: readers see all old or all new.
 * Defined cohorts are untouched.
 */
export async function replaceComputedCohorts(db: Transactional, companyIds: string[], rows: CohortRow[], stacks: string[][]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM cohorts WHERE company_id = ANY($1::text[]) AND kind = ANY($2::text[])`, [companyIds, COMPUTED_KINDS]);
    // unnest cannot take a ragged text[][]: (company, product) pairs travel flat, a company
    // with an empty stack as one pair with a null product, and are grouped back here.
    const owners: string[] = [];
    const products: (string | null)[] = [];
    companyIds.forEach((id, i) => {
      const ids = stacks[i] ?? [];
      if (ids.length === 0) {
        owners.push(id);
        products.push(null);
      }
      for (const productId of ids) {
        owners.push(id);
        products.push(productId);
      }
    });
    await tx.query(
      `INSERT INTO company_stacks (company_id, product_ids)
       SELECT id, coalesce(array_agg(product ORDER BY product) FILTER (WHERE product IS NOT NULL), '{}')
         FROM unnest($1::text[], $2::text[]) AS s(id, product) GROUP BY id
       ON CONFLICT (company_id) DO UPDATE SET product_ids = EXCLUDED.product_ids`,
      [owners, products],
    );
    for (let i = 0; i < rows.length; i += ROWS_PER_COPY) {
      const copy = new CopyRows('cohorts', [
        ['company_id', 'text'],
        ['kind', 'text'],
        ['member_id', 'text'],
        ['score', 'real'],
        ['rank', 'int'],
      ]);
      for (const r of rows.slice(i, i + ROWS_PER_COPY)) copy.add([r.companyId, r.kind, r.memberId, r.score, r.rank]);
      await tx.copyFrom(copy.encoded());
    }
  });
}

/** Rows a COPY carries (≈ 40 bytes each): bounds the text held at once, here and in the embedded database's relay. */
const ROWS_PER_COPY = 50_000;

/** Replaces the global co-usage statistics in one transaction. */
export async function replaceCoUsage(
  db: Transactional,
  users: { productId: string; companies: number }[],
  pairs: { anchorId: string; productId: string; together: number }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM product_cousage');
    await tx.query('DELETE FROM product_usage_stats');
    if (users.length > 0) {
      await tx.query(`INSERT INTO product_usage_stats (product_id, companies) SELECT * FROM unnest($1::text[], $2::int[])`, [
        users.map((u) => u.productId),
        users.map((u) => u.companies),
      ]);
    }
    for (let i = 0; i < pairs.length; i += ROWS_PER_COPY) {
      const copy = new CopyRows('product_cousage', [
        ['anchor_id', 'text'],
        ['product_id', 'text'],
        ['together', 'int'],
      ]);
      for (const p of pairs.slice(i, i + ROWS_PER_COPY)) copy.add([p.anchorId, p.productId, p.together]);
      await tx.copyFrom(copy.encoded());
    }
  });
}

interface RefreshRun {
  id: number;
  kind: string;
  startedAt: Date;
  computedAt: Date | null;
  params: Record<string, unknown>;
}

export async function startRefreshRun(db: Queryable, kind: string, params: Record<string, unknown>): Promise<number> {
  const [row] = await db.query<{ id: number }>('INSERT INTO refresh_runs (kind, params) VALUES ($1, $2::jsonb) RETURNING id', [kind, JSON.stringify(params)]);
  return row!.id;
}

export async function finishRefreshRun(db: Queryable, id: number, params: Record<string, unknown>): Promise<void> {
  await db.query('UPDATE refresh_runs SET computed_at = now(), params = $2::jsonb WHERE id = $1', [id, JSON.stringify(params)]);
}

/** The latest completed run (any kind), or null before the first refresh. */
export async function latestRefreshRun(db: Queryable): Promise<RefreshRun | null> {
  const [row] = await db.query<RefreshRun>(
    `SELECT id, kind, started_at AS "startedAt", computed_at AS "computedAt", params
       FROM refresh_runs WHERE computed_at IS NOT NULL AND kind IN ('full', 'incremental') ORDER BY id DESC LIMIT 1`,
  );
  return row ?? null;
}

/** The change log of imports (migration 019): entries to settle, and their distinct companies. */
export async function pendingChanges(db: Queryable): Promise<{ seqs: number[]; companyIds: string[] }> {
  const rows = await db.queryArrays<[number, string]>('SELECT seq, company_id FROM refresh_pending ORDER BY seq');
  return { seqs: rows.map((r) => r[0]), companyIds: [...new Set(rows.map((r) => r[1]))] };
}

/** Removes exactly the entries a refresh read (one marked meanwhile stays for the next). */
export async function settlePendingChanges(db: Queryable, seqs: number[]): Promise<void> {
  if (seqs.length > 0) await db.query('DELETE FROM refresh_pending WHERE seq = ANY($1::bigint[])', [seqs]);
}

/** Companies changed since a time, or never given computed cohorts. */
export async function companiesToRefresh(db: Queryable, since: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT c.id FROM companies c
      WHERE c.updated_at > $1::timestamptz
         OR NOT EXISTS (SELECT 1 FROM cohorts h WHERE h.company_id = c.id AND h.kind = 'default')
         OR EXISTS (SELECT 1 FROM installs i WHERE i.company_id = c.id AND i.updated_at > $1::timestamptz)
      ORDER BY c.id`,
    [since],
  );
  return rows.map((r) => r.id);
}

// Partitions of a full refresh ----------------------------------------------------------------

export interface RefreshPartition {
  runId: number;
  part: number;
  parts: number;
  state: 'pending' | 'running' | 'done';
  worker: string | null;
  attempts: number;
  done: number;
  total: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const PARTITION_COLUMNS = `run_id AS "runId", part, parts, state, worker, attempts, done, total, started_at AS "startedAt", finished_at AS "finishedAt"`;

/** The run's partitions 0..parts-1, all pending. */
export async function createRefreshPartitions(db: Queryable, runId: number, parts: number): Promise<void> {
  await db.query('INSERT INTO refresh_partitions (run_id, part, parts) SELECT $1, g, $2 FROM generate_series(0, $2 - 1) AS g', [runId, parts]);
}

/** A worker takes a partition (again, when the one before it died): running, one more attempt, progress from zero. */
export async function takeRefreshPartition(db: Queryable, runId: number, part: number, worker: string): Promise<RefreshPartition | null> {
  const [row] = await db.query<RefreshPartition>(
    `UPDATE refresh_partitions SET state = 'running', worker = $3, attempts = attempts + 1, done = 0, started_at = now(), finished_at = NULL
      WHERE run_id = $1 AND part = $2 AND state <> 'done' RETURNING ${PARTITION_COLUMNS}`,
    [runId, part, worker],
  );
  return row ?? null;
}

export async function recordPartitionProgress(db: Queryable, runId: number, part: number, worker: string, done: number, total: number): Promise<void> {
  await db.query('UPDATE refresh_partitions SET done = $4, total = $5 WHERE run_id = $1 AND part = $2 AND worker = $3', [runId, part, worker, done, total]);
}

/**
 * Marks the partition done and says whether it was the run's last one left, under a lock of
 * the run's row: of two partitions finishing at once, exactly one sees the other done.
 */
export async function finishRefreshPartition(db: Transactional, runId: number, part: number, worker: string): Promise<{ last: boolean }> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM refresh_runs WHERE id = $1 FOR UPDATE', [runId]);
    await tx.query(`UPDATE refresh_partitions SET state = 'done', finished_at = now() WHERE run_id = $1 AND part = $2 AND worker = $3`, [runId, part, worker]);
    const [row] = await tx.query<{ open: number; computed: boolean }>(
      `SELECT (SELECT count(*)::int FROM refresh_partitions WHERE run_id = $1 AND state <> 'done') AS open,
              (SELECT computed_at IS NOT NULL FROM refresh_runs WHERE id = $1) AS computed`,
      [runId],
    );
    return { last: row!.open === 0 && !row!.computed };
  });
}

export async function refreshPartitions(db: Queryable, runId: number): Promise<RefreshPartition[]> {
  return db.query<RefreshPartition>(`SELECT ${PARTITION_COLUMNS} FROM refresh_partitions WHERE run_id = $1 ORDER BY part`, [runId]);
}

/** A run's recorded parameters (as-of date, cohort parameters, partitions), or null for an unknown run. */
export async function refreshRun(db: Queryable, runId: number): Promise<RefreshRun | null> {
  const [row] = await db.query<RefreshRun>(`SELECT id, kind, started_at AS "startedAt", computed_at AS "computedAt", params FROM refresh_runs WHERE id = $1`, [
    runId,
  ]);
  return row ?? null;
}
