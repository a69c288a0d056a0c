// SQL of account lists (migration 041): a client's lists, their versions and rows with each
// row's match, the diff between two versions, and the company lookups matching needs
// (domains, domain stems for country-code variants, names by trigram similarity).
import { companiesByIds } from './companies.ts';
import type { Queryable, Tx } from '../db/db.ts';

export interface ListHead {
  id: string;
  clientId: string;
  name: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const head = (r: Record<string, any>): ListHead => ({
  id: r.id,
  clientId: r.client_id,
  name: r.name,
  version: r.current_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function findList(db: Queryable, clientId: string, id: string): Promise<ListHead | undefined> {
  const [r] = await db.query('SELECT * FROM account_lists WHERE id = $1::text AND client_id = $2::text', [id, clientId]);
  return r && head(r);
}

/** The list under a row lock (two uploads of one list take turns: versions never collide). */
export async function lockList(tx: Tx, clientId: string, id: string): Promise<ListHead | undefined> {
  const [r] = await tx.query('SELECT * FROM account_lists WHERE id = $1::text AND client_id = $2::text FOR UPDATE', [id, clientId]);
  return r && head(r);
}

export async function insertList(tx: Tx, id: string, clientId: string, name: string): Promise<void> {
  await tx.query('INSERT INTO account_lists (id, client_id, name) VALUES ($1::text, $2::text, $3::text)', [id, clientId, name]);
}

export async function listListRows(db: Queryable, clientId: string, offset: number, limit: number): Promise<{ total: number; rows: ListHead[] }> {
  const [c] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM account_lists WHERE client_id = $1::text', [clientId]);
  const rows = await db.query('SELECT * FROM account_lists WHERE client_id = $1::text ORDER BY created_at, id OFFSET $2::int LIMIT $3::int', [
    clientId,
    offset,
    limit,
  ]);
  return { total: c?.n ?? 0, rows: rows.map(head) };
}

export async function deleteListRow(db: Queryable, clientId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM account_lists WHERE id = $1::text AND client_id = $2::text RETURNING id', [id, clientId]);
  return rows.length > 0;
}

/** What a list row holds, as written and as read. */
interface ListRowFields {
  line: number;
  key: string;
  domain: string | null;
  name: string | null;
  country: string | null;
  data: Record<string, unknown>;
  status: 'matched' | 'review' | 'unmatched';
  method: string | null;
  score: number | null;
  reason: string | null;
}

/** A row as stored, before it is written (company by id). */
export interface StoredRow extends ListRowFields {
  companyId: string | null;
  candidates: { companyId: string; score: number }[];
}

/** Rows written per statement. */
const INSERT_BATCH = 5000;

/** The columns of a batch of rows as parallel arrays, for `unnest`. */
const rowColumns = (b: readonly StoredRow[]) => [
  b.map((r) => r.line),
  b.map((r) => r.key),
  b.map((r) => r.domain),
  b.map((r) => r.name),
  b.map((r) => r.country),
  b.map((r) => JSON.stringify(r.data)),
  b.map((r) => r.status),
  b.map((r) => r.companyId),
  b.map((r) => r.method),
  b.map((r) => r.score),
  b.map((r) => r.reason),
  b.map((r) => JSON.stringify(r.candidates)),
];
/** `FROM unnest(...)` over the arrays of rowColumns, bound from parameter `$first` on. */
const unnestRows = (first: number) => {
  const types = ['int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'real', 'text', 'text'];
  return `FROM unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(', ')}) AS r(line, k, d, n, c, data, s, cid, m, score, reason, cand)`;
};

async function insertVersionHead(tx: Tx, listId: string, version: number, format: string, rowCount: number): Promise<void> {
  await tx.query('INSERT INTO account_list_versions (list_id, version, format, row_count) VALUES ($1::text, $2::int, $3::text, $4::int)', [
    listId,
    version,
    format,
    rowCount,
  ]);
}

/**
 * Makes a written version current. A row whose key was decided by a person in the version
 * before (accepted, picked or rejected in the review queue) keeps that decision: a re-upload
 * does not send the same account back to the queue.
 */
async function publishVersion(tx: Tx, listId: string, version: number, name: string): Promise<void> {
  if (version > 1)
    await tx.query(
      `UPDATE account_list_rows a SET status = b.status, company_id = b.company_id, method = b.method, score = b.score, reason = b.reason, candidates = b.candidates
       FROM account_list_rows b
       WHERE a.list_id = $1::text AND a.version = $2::int AND b.list_id = $1::text AND b.version = $2::int - 1 AND a.row_key = b.row_key
         AND (b.method = 'review' OR b.reason = 'rejected')`,
      [listId, version],
    );
  await tx.query('UPDATE account_lists SET current_version = $2::int, name = $3::text, updated_at = now() WHERE id = $1::text', [listId, version, name]);
}

/** Writes a new version with all its rows and makes it current (inside the caller's transaction). */
export async function insertVersion(tx: Tx, listId: string, version: number, format: string, name: string, rows: readonly StoredRow[]): Promise<void> {
  await insertVersionHead(tx, listId, version, format, rows.length);
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await tx.query(
      `INSERT INTO account_list_rows (list_id, version, line, row_key, domain, name, country, data, status, company_id, method, score, reason, candidates)
       SELECT $1::text, $2::int, r.line, r.k, r.d, r.n, r.c, r.data::jsonb, r.s, r.cid, r.m, r.score, r.reason, r.cand::jsonb ${unnestRows(3)}`,
      [listId, version, ...rowColumns(rows.slice(i, i + INSERT_BATCH))],
    );
  }
  await publishVersion(tx, listId, version, name);
}

/** A background upload (list_upload job): what it becomes and how far it got. */
export interface UploadRow {
  jobId: number;
  clientId: string;
  listId: string;
  newList: boolean;
  name: string;
  format: 'csv' | 'jsonl';
  content: string;
  rowsDone: number;
  lastLine: number;
}

export async function insertUpload(tx: Tx, u: Omit<UploadRow, 'rowsDone' | 'lastLine'>): Promise<void> {
  await tx.query(
    `INSERT INTO account_list_uploads (job_id, client_id, list_id, new_list, name, format, content)
     VALUES ($1::bigint, $2::text, $3::text, $4::boolean, $5::text, $6::text, $7::text)`,
    [u.jobId, u.clientId, u.listId, u.newList, u.name, u.format, u.content],
  );
}

export async function findUpload(db: Queryable, jobId: number): Promise<UploadRow | undefined> {
  const [r] = await db.query<Record<string, any>>('SELECT * FROM account_list_uploads WHERE job_id = $1::bigint', [jobId]);
  return (
    r && {
      jobId: Number(r.job_id),
      clientId: r.client_id,
      listId: r.list_id,
      newList: r.new_list,
      name: r.name,
      format: r.format,
      content: r.content,
      rowsDone: r.rows_done,
      lastLine: r.last_line,
    }
  );
}

/** Rows an upload has committed to staging (undefined once it is gone). */
export async function uploadDone(db: Queryable, jobId: number): Promise<number | undefined> {
  const [r] = await db.query<{ rows_done: number }>('SELECT rows_done FROM account_list_uploads WHERE job_id = $1::bigint', [jobId]);
  return r?.rows_done;
}

/**
 * Commits one batch of matched rows into staging with the upload's progress, in one
 * transaction: a process that stops resumes after the last batch committed. False when the
 * upload is gone (cancelled) or its job no longer runs.
 */
export async function stageBatch(tx: Tx, jobId: number, rows: readonly StoredRow[], lastLine: number): Promise<boolean> {
  const [u] = await tx.query<{ rows_done: number }>(
    `SELECT u.rows_done FROM account_list_uploads u JOIN jobs j ON j.id = u.job_id WHERE u.job_id = $1::bigint AND j.status = 'running' FOR UPDATE OF u`,
    [jobId],
  );
  if (!u) return false;
  if (rows.length > 0)
    await tx.query(
      `INSERT INTO account_list_staging_rows (job_id, line, row_key, domain, name, country, data, status, company_id, method, score, reason, candidates)
       SELECT $1::bigint, r.line, r.k, r.d, r.n, r.c, r.data::jsonb, r.s, r.cid, r.m, r.score, r.reason, r.cand::jsonb ${unnestRows(2)}`,
      [jobId, ...rowColumns(rows)],
    );
  await tx.query('UPDATE account_list_uploads SET rows_done = rows_done + $2::int, last_line = $3::int WHERE job_id = $1::bigint', [
    jobId,
    rows.length,
    lastLine,
  ]);
  return true;
}

/**
 * Publishes a staged upload as the list's next version in the caller's transaction (the
 * list locked by the caller): rows copied from staging, the version made current, staging
 * and the upload deleted.
 */
export async function publishStaged(tx: Tx, u: UploadRow, version: number): Promise<number> {
  const [c] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM account_list_staging_rows WHERE job_id = $1::bigint', [u.jobId]);
  const n = c?.n ?? 0;
  await insertVersionHead(tx, u.listId, version, u.format, n);
  await tx.query(
    `INSERT INTO account_list_rows (list_id, version, line, row_key, domain, name, country, data, status, company_id, method, score, reason, candidates)
     SELECT $1::text, $2::int, line, row_key, domain, name, country, data, status, company_id, method, score, reason, candidates
     FROM account_list_staging_rows WHERE job_id = $3::bigint`,
    [u.listId, version, u.jobId],
  );
  await publishVersion(tx, u.listId, version, u.name);
  await deleteUpload(tx, u.jobId);
  return n;
}

/** Deletes an upload with its staging rows (cancelled, failed or published). */
export async function deleteUpload(db: Queryable, jobId: number): Promise<void> {
  await db.query('DELETE FROM account_list_uploads WHERE job_id = $1::bigint', [jobId]);
}

interface VersionStats {
  rows: number;
  byStatus: Record<string, number>;
  byReason: Record<string, number>;
}

export async function versionStats(db: Queryable, listId: string, version: number): Promise<VersionStats> {
  const rows = await db.query<{ status: string; reason: string | null; n: number }>(
    'SELECT status, reason, count(*)::int AS n FROM account_list_rows WHERE list_id = $1::text AND version = $2::int GROUP BY status, reason',
    [listId, version],
  );
  const byStatus: Record<string, number> = {};
  const byReason: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    total += r.n;
    byStatus[r.status] = (byStatus[r.status] ?? 0) + r.n;
    if (r.status !== 'matched' && r.reason) byReason[r.reason] = (byReason[r.reason] ?? 0) + r.n;
  }
  return { rows: total, byStatus, byReason };
}

/** A row as read, with the companies' domains. */
export interface ReadRow extends ListRowFields {
  companyDomain: string | null;
  candidates: { companyDomain: string; name: string | null; country: string | null; score: number }[];
}

// The rows' companies are read by id in a second statement (withCompanyDomains): the rows are
// local to the coordinator and companies are sharded on Citus, whose planner refuses a
// subquery per row that joins the two.
const READ_COLUMNS = `r.line, r.row_key, r.domain, r.name, r.country, r.data, r.status, r.company_id, r.method, r.score, r.reason, r.candidates`;

type StoredReadRow = Record<string, any> & { company_id: string | null; candidates: { companyId: string; score: number }[] | null };

/** The rows with their matched company's domain and their candidates' (a deleted company drops out). */
async function toReadRows(db: Queryable, rows: StoredReadRow[]): Promise<ReadRow[]> {
  const companies = await companiesByIds(
    db,
    rows.flatMap((r) => [r.company_id, ...(r.candidates ?? []).map((c) => c.companyId)]),
  );
  return rows.map((r) => ({
    line: r.line,
    key: r.row_key,
    domain: r.domain,
    name: r.name,
    country: r.country,
    data: r.data,
    status: r.status,
    companyDomain: (r.company_id !== null && companies.get(r.company_id)?.domain) || null,
    method: r.method,
    score: r.score,
    reason: r.reason,
    candidates: (r.candidates ?? []).flatMap((c) => {
      const co = companies.get(c.companyId);
      return co ? [{ companyDomain: co.domain, name: co.name, country: co.country, score: c.score }] : [];
    }),
  }));
}

export async function readRows(
  db: Queryable,
  listId: string,
  version: number,
  status: string | undefined,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: ReadRow[] }> {
  const where = 'r.list_id = $1::text AND r.version = $2::int AND ($3::text IS NULL OR r.status = $3::text)';
  const [c] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM account_list_rows r WHERE ${where}`, [listId, version, status ?? null]);
  const rows = await db.query<StoredReadRow>(`SELECT ${READ_COLUMNS} FROM account_list_rows r WHERE ${where} ORDER BY r.line OFFSET $4::int LIMIT $5::int`, [
    listId,
    version,
    status ?? null,
    offset,
    limit,
  ]);
  return { total: c?.n ?? 0, rows: await toReadRows(db, rows) };
}

export async function readRow(db: Queryable, listId: string, version: number, line: number): Promise<ReadRow | undefined> {
  const rows = await db.query<StoredReadRow>(
    `SELECT ${READ_COLUMNS} FROM account_list_rows r WHERE r.list_id = $1::text AND r.version = $2::int AND r.line = $3::int`,
    [listId, version, line],
  );
  return (await toReadRows(db, rows))[0];
}

/** The row's stored candidates (company ids), under a row lock. */
export async function lockRow(tx: Tx, listId: string, version: number, line: number) {
  const [r] = await tx.query<{ status: string; candidates: { companyId: string; score: number }[] }>(
    'SELECT status, candidates FROM account_list_rows WHERE list_id = $1::text AND version = $2::int AND line = $3::int FOR UPDATE',
    [listId, version, line],
  );
  return r;
}

export async function setRowMatch(
  tx: Tx,
  listId: string,
  version: number,
  line: number,
  m: { status: string; companyId: string | null; method: string | null; score: number | null; reason: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE account_list_rows SET status = $4::text, company_id = $5::text, method = $6::text, score = $7::real, reason = $8::text
     WHERE list_id = $1::text AND version = $2::int AND line = $3::int`,
    [listId, version, line, m.status, m.companyId, m.method, m.score, m.reason],
  );
}

type DiffChange = 'added' | 'removed' | 'changed';

/** Added (key only in `version`), removed (only in `previous`) and changed (same key, other content) rows: counts, and one page. */
export async function diffVersions(db: Queryable, listId: string, version: number, previous: number, offset: number, limit: number) {
  const diff = `WITH a AS (SELECT * FROM account_list_rows WHERE list_id = $1::text AND version = $2::int),
         b AS (SELECT * FROM account_list_rows WHERE list_id = $1::text AND version = $3::int),
         d AS (
           SELECT CASE WHEN b.line IS NULL THEN 'added' WHEN a.line IS NULL THEN 'removed' ELSE 'changed' END AS change,
                  COALESCE(a.row_key, b.row_key) AS key, b.line AS before_line, a.line AS after_line
           FROM a FULL JOIN b ON a.row_key = b.row_key
           WHERE a.line IS NULL OR b.line IS NULL
              OR a.domain IS DISTINCT FROM b.domain OR a.name IS DISTINCT FROM b.name OR a.country IS DISTINCT FROM b.country OR a.data <> b.data)`;
  const counts = await db.query<{ change: DiffChange; n: number }>(`${diff} SELECT change, count(*)::int AS n FROM d GROUP BY change`, [
    listId,
    version,
    previous,
  ]);
  const page = await db.query<{ change: DiffChange; key: string; before_line: number | null; after_line: number | null }>(
    `${diff} SELECT * FROM d ORDER BY COALESCE(after_line, before_line), change OFFSET $4::int LIMIT $5::int`,
    [listId, version, previous, offset, limit],
  );
  const n = (c: DiffChange) => counts.find((x) => x.change === c)?.n ?? 0;
  return { added: n('added'), removed: n('removed'), changed: n('changed'), page };
}

/** The matched company ids of a version, each once. */
export async function matchedCompanyIds(db: Queryable, listId: string, version: number): Promise<string[]> {
  const rows = await db.query<{ company_id: string }>(
    `SELECT DISTINCT company_id FROM account_list_rows WHERE list_id = $1::text AND version = $2::int AND status = 'matched' AND company_id IS NOT NULL ORDER BY company_id`,
    [listId, version],
  );
  return rows.map((r) => r.company_id);
}

/**
 * The matched companies of a version in the list's order, each once (its first row), with what
 * that row gave: its domain, else its name — what a person joins an enriched file back on.
 */
export async function matchedAccounts(db: Queryable, listId: string, version: number): Promise<{ companyId: string; input: string }[]> {
  const rows = await db.query<{ company_id: string; input: string }>(
    `SELECT company_id, input FROM (
       SELECT DISTINCT ON (company_id) company_id, coalesce(domain, name, company_id) AS input, line
       FROM account_list_rows WHERE list_id = $1::text AND version = $2::int AND status = 'matched' AND company_id IS NOT NULL
       ORDER BY company_id, line) first_rows
     ORDER BY line`,
    [listId, version],
  );
  return rows.map((r) => ({ companyId: r.company_id, input: r.input }));
}

interface CompanyHit {
  id: string;
  domain: string;
  name: string | null;
  country: string | null;
}

/** The companies of these exact domains. */
export async function companiesByDomains(db: Queryable, domains: readonly string[]): Promise<CompanyHit[]> {
  if (domains.length === 0) return [];
  return db.query<CompanyHit>('SELECT c.id, c.domain, c.name, c.country FROM companies c WHERE c.domain = ANY($1::text[])', [[...new Set(domains)]]);
}

/** The companies whose domain starts with one of these labels followed by a dot (candidates of country-code variants). */
export async function companiesByDomainLabels(db: Queryable, labels: readonly string[]): Promise<CompanyHit[]> {
  if (labels.length === 0) return [];
  return db.query<CompanyHit>(
    `SELECT c.id, c.domain, c.name, c.country FROM unnest($1::text[]) AS l(label)
     JOIN companies c ON lower(c.domain) LIKE l.label || '.%'`,
    [[...new Set(labels)]],
  );
}

/** The host of a page URL, lowercased, without www. (the expression of observations_page_host_idx). */
const PAGE_HOST = `lower(substring(o.evidence->>'url' from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(?:www\\.)?([^/:?#]+)'))`;

/**
 * Redirects known from observations: the companies whose web evidence was found on a page of
 * one of these hosts while the company's own domain is another (visiting it ended there).
 */
export async function companiesByRedirectHosts(db: Queryable, hosts: readonly string[]): Promise<(CompanyHit & { host: string })[]> {
  if (hosts.length === 0) return [];
  return db.query<CompanyHit & { host: string }>(
    `SELECT DISTINCT h.host, c.id, c.domain, c.name, c.country
     FROM unnest($1::text[]) AS h(host)
     JOIN observations o ON ${PAGE_HOST} = h.host AND o.source IN ('script', 'meta', 'html', 'header', 'cookie')
     JOIN companies c ON c.id = o.company_id AND c.domain <> h.host`,
    [[...new Set(hosts)]],
  );
}

/** Names whose trigram similarity is below this are no candidates (pg_trgm's default `%` threshold). */
const NAME_SIMILARITY_FLOOR = 0.3;

/**
 * Up to `per` companies per name, the most similar first (trigram similarity at least 0.3),
 * within the country when one is given. The nearest names come from the GiST index in distance
 * order (`<->` is 1 - similarity), a few index pages a name whatever the number of similar
 * names; twice `per` are read so that ties are broken by id, not by the index's order.
 * One statement per name: the batch as one statement (a LATERAL top-N per row of an unnest)
 * is refused by Citus, whose shards each answer this one as a top-N the coordinator merges;
 * a join of all names with all similar ones (`%`) would read every similar name, tens of
 * thousands among near-identical ones. The round trip is small beside the index search.
 */
export async function companiesByNames(db: Queryable, names: readonly { name: string; country: string | null }[], per: number) {
  const out: (CompanyHit & { i: number; score: number })[] = [];
  for (const [at, q] of names.entries()) {
    const hits = await db.query<CompanyHit & { score: number }>(
      `SELECT n.id, n.domain, n.name, n.country, similarity(n.name, $1::text) AS score
       FROM (
         (SELECT c.id, c.domain, c.name, c.country FROM companies c
           WHERE $2::text IS NOT NULL AND c.country = $2::text ORDER BY c.name <-> $1::text LIMIT $3::int * 2)
         UNION ALL
         (SELECT c.id, c.domain, c.name, c.country FROM companies c
           WHERE $2::text IS NULL ORDER BY c.name <-> $1::text LIMIT $3::int * 2)
       ) n
       WHERE similarity(n.name, $1::text) >= $4::real
       ORDER BY score DESC, n.id LIMIT $3::int`,
      [q.name, q.country, per, NAME_SIMILARITY_FLOOR],
    );
    for (const h of hits) out.push({ i: at + 1, ...h });
  }
  return out;
}

/** A deterministic sample of companies with a name (the matching evaluation's accounts). */
export async function sampleNamedCompanies(db: Queryable, n: number): Promise<CompanyHit[]> {
  return db.query<CompanyHit>('SELECT id, domain, name, country FROM companies WHERE name IS NOT NULL ORDER BY md5(id) LIMIT $1::int', [n]);
}
