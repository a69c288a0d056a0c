// Account lists of the calling client: an upload read and checked whole (a bad row is a 400
// naming its line and field, nothing stored), matched to companies, then written as one new
// version in one transaction; the list's stats, rows, diff and review queue; and the matched
// company ids other features (enrichment, lookalikes, CRM exports) start from.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db, Queryable } from '../db/db.ts';
import { normalizeDomain } from '../domain.ts';
import { normalizeCountry } from '../countries.ts';
import { BadRequestError, ConflictError, NotFoundError, PayloadTooLargeError } from '../errors.ts';
import { readRecords, type RecordError } from '../records.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { AccountList, ListRow, ListUploadInput } from '../schemas/lists.ts';
import { isSafeText } from '../schemas/text.ts';
import { findClient } from '../store/access.ts';
import {
  companiesByDomainLabels,
  companiesByDomains,
  companiesByNames,
  companiesByRedirectHosts,
  deleteListRow,
  diffVersions,
  findList,
  insertList,
  insertVersion,
  listListRows,
  lockList,
  lockRow,
  matchedAccounts,
  matchedCompanyIds,
  readRow,
  readRows,
  setRowMatch,
  versionStats,
  type ListHead,
  type ReadRow,
  type StoredRow,
} from '../store/lists.ts';
import { comparableName, decideByName, decideByVariant, registrableLabel, type Candidate, type Decision } from '../intelligence/account-match.ts';
import { requireCompanies } from './resolve.ts';

/** Column names (lowercase) read as the row's domain, name and country; the first present wins. */
const DOMAIN_COLUMNS = ['domain', 'website', 'url'];
const NAME_COLUMNS = ['name', 'company', 'company_name', 'account_name'];
const COUNTRY_COLUMNS = ['country', 'country_code'];
/** Bad rows named in one 400. */
const MAX_REPORTED = 10;

export interface ParsedRow {
  line: number;
  key: string;
  domain: string | null;
  name: string | null;
  country: string | null;
  data: Record<string, unknown>;
}

const notFound = (id: string) => new NotFoundError(`listId: no list '${id}' of this client`);

/** One record → a checked row, or the errors naming its fields. */
export function checkRecord(line: number, values: Record<string, unknown>, errors: RecordError[]): ParsedRow | undefined {
  const data: Record<string, unknown> = {};
  let domainRaw: [string, unknown] | undefined;
  let nameRaw: [string, unknown] | undefined;
  let countryRaw: [string, unknown] | undefined;
  for (const [k, v] of Object.entries(values)) {
    const lk = k.trim().toLowerCase();
    if (!domainRaw && DOMAIN_COLUMNS.includes(lk)) domainRaw = [k, v];
    else if (!nameRaw && NAME_COLUMNS.includes(lk)) nameRaw = [k, v];
    else if (!countryRaw && COUNTRY_COLUMNS.includes(lk)) countryRaw = [k, v];
    else data[k] = v;
  }
  const before = errors.length;
  const text = (f: [string, unknown] | undefined, max: number): string | null => {
    if (!f || f[1] === undefined || f[1] === null || f[1] === '') return null;
    if (typeof f[1] !== 'string') {
      errors.push({ line, field: f[0], message: 'must be text' });
      return null;
    }
    const s = f[1].trim();
    if (s.length > max || !isSafeText(s)) {
      errors.push({ line, field: f[0], message: `must be text of at most ${max} characters without control characters` });
      return null;
    }
    return s === '' ? null : s;
  };
  const d = text(domainRaw, 2048);
  const domain = d === null ? null : normalizeDomain(d);
  if (d !== null && domain === null) errors.push({ line, field: domainRaw![0], message: `'${d.slice(0, 100)}' is not a domain name` });
  const name = text(nameRaw, 300);
  const c = text(countryRaw, 100);
  const country = c === null ? null : normalizeCountry(c);
  if (c !== null && country === null) errors.push({ line, field: countryRaw![0], message: `'${c.slice(0, 100)}' is not an ISO 3166-1 country code or name` });
  if (errors.length > before) return undefined;
  const key = domain ?? (name ? `${comparableName(name)}|${country ?? ''}` : `line:${line}`);
  return { line, key, domain, name, country, data };
}

export const rowsError = (errors: RecordError[]) =>
  new BadRequestError(
    `${errors.length >= MAX_REPORTED ? `at least ${MAX_REPORTED}` : errors.length} bad row(s), nothing stored: ` +
      errors
        .slice(0, MAX_REPORTED)
        .map((e) => `line ${e.line}: ${e.field}: ${e.message}`)
        .join('; '),
  );

/** Reads and checks the whole upload; throws 400 naming bad rows, 413 beyond `maxRows`. */
async function parseUpload(input: ListUploadInput, maxRows: number, planId: string): Promise<{ format: string; rows: ParsedRow[] }> {
  if ((input.rows === undefined) === (input.content === undefined)) throw new BadRequestError('body: give exactly one of content (with format) and rows');
  const errors: RecordError[] = [];
  const rows: ParsedRow[] = [];
  const seen = new Map<string, number>();
  const tooMany = () =>
    new PayloadTooLargeError(
      `The list has more than ${maxRows} rows, the most one list may hold on plan '${planId}' (maxListRows = ${maxRows}); split it or move to a plan that allows more`,
    );
  const take = (line: number, values: Record<string, unknown>) => {
    const row = checkRecord(line, values, errors);
    if (!row) return;
    const first = seen.get(row.key);
    if (first !== undefined) errors.push({ line, field: '(row)', message: `the same account as line ${first} (key '${row.key}')` });
    else {
      seen.set(row.key, line);
      rows.push(row);
    }
    if (rows.length > maxRows) throw tooMany();
  };
  let format: string;
  if (input.rows !== undefined) {
    format = 'rows';
    input.rows.forEach((values, i) => take(i + 1, values));
  } else {
    if (input.format === undefined) throw new BadRequestError('format: required with content (csv or jsonl)');
    format = input.format;
    const present = new Set<string>();
    for await (const batch of readRecords(Readable.from([input.content!]), input.format, { present })) {
      for (const e of batch) {
        if ('error' in e) errors.push(e.error);
        else take(e.line, e.values);
        if (errors.length >= MAX_REPORTED) throw rowsError(errors);
      }
    }
  }
  if (errors.length > 0) throw rowsError(errors);
  return { format, rows };
}

/** Names looked up per statement. */
const NAME_BATCH = 500;

/**
 * Matches every row: exact domain, then a redirect known from observations (a company's site
 * was seen served from this domain), then a country-code variant of it, then name + country.
 */
export async function matchRows(db: Queryable, rows: readonly ParsedRow[]): Promise<StoredRow[]> {
  const byDomain = new Map(
    (
      await companiesByDomains(
        db,
        rows.flatMap((r) => (r.domain ? [r.domain] : [])),
      )
    ).map((c) => [c.domain, c]),
  );
  const unknownDomains = rows.filter((r) => r.domain && !byDomain.has(r.domain));
  const byRedirect = new Map<string, Candidate[]>();
  for (const c of await companiesByRedirectHosts(
    db,
    unknownDomains.map((r) => r.domain!),
  )) {
    const list = byRedirect.get(c.host) ?? [];
    if (!list.some((x) => x.companyId === c.id)) list.push({ companyId: c.id, name: c.name, country: c.country, score: 1 });
    byRedirect.set(c.host, list);
  }
  const byLabel = new Map<string, Candidate[]>();
  for (const c of await companiesByDomainLabels(
    db,
    unknownDomains.map((r) => registrableLabel(r.domain!)),
  )) {
    const label = registrableLabel(c.domain);
    const list = byLabel.get(label) ?? [];
    if (!list.some((x) => x.companyId === c.id)) list.push({ companyId: c.id, name: c.name, country: c.country, score: 0 });
    byLabel.set(label, list);
  }
  const out: StoredRow[] = [];
  const byName: { row: ParsedRow; at: number; missed: string }[] = [];
  for (const row of rows) {
    const base: StoredRow = { ...row, status: 'unmatched', companyId: null, method: null, score: null, reason: null, candidates: [] };
    const exact = row.domain ? byDomain.get(row.domain) : undefined;
    if (exact) {
      out.push({ ...base, status: 'matched', companyId: exact.id, method: 'domain', score: 1 });
      continue;
    }
    const redirected = row.domain ? byRedirect.get(row.domain) : undefined;
    if (redirected?.length === 1) {
      out.push({ ...base, status: 'matched', companyId: redirected[0]!.companyId, method: 'domain_redirect', score: 1 });
      continue;
    }
    if (redirected) {
      out.push(stored(base, { status: 'review', candidates: redirected }, 'domain_redirect'));
      continue;
    }
    if (row.domain) {
      const d = decideByVariant(row, byLabel.get(registrableLabel(row.domain)) ?? []);
      if (d.status !== 'none') {
        out.push(stored(base, d, 'domain_variant'));
        continue;
      }
    }
    if (row.name) {
      byName.push({ row, at: out.length, missed: row.domain ? 'domain_unknown' : row.country ? 'name_unknown_in_country' : 'name_unknown' });
      out.push({ ...base, status: 'unmatched', reason: 'name_unknown' });
      continue;
    }
    out.push({ ...base, status: 'unmatched', reason: row.domain ? 'domain_unknown' : 'no_domain_or_name' });
  }
  for (let i = 0; i < byName.length; i += NAME_BATCH) {
    const batch = byName.slice(i, i + NAME_BATCH);
    const found = await companiesByNames(
      db,
      batch.map((b) => ({ name: b.row.name!, country: b.row.country })),
      8,
    );
    const per = new Map<number, Candidate[]>();
    for (const f of found) per.set(f.i - 1, [...(per.get(f.i - 1) ?? []), { companyId: f.id, name: f.name, country: f.country, score: f.score }]);
    batch.forEach((b, j) => {
      const d = decideByName(b.row.name!, per.get(j) ?? []);
      const base = out[b.at]!;
      out[b.at] = d.status === 'none' ? { ...base, reason: b.missed } : stored(base, d, 'name');
    });
  }
  return out;
}

function stored(base: StoredRow, d: Exclude<Decision, { status: 'none' }>, method: string): StoredRow {
  if (d.status === 'matched') return { ...base, status: 'matched', companyId: d.companyId, method, score: d.score, reason: null, candidates: [] };
  return {
    ...base,
    status: 'review',
    method: null,
    score: d.candidates[0]?.score ?? null,
    reason: 'ambiguous',
    candidates: d.candidates.map((c) => ({ companyId: c.companyId, score: c.score })),
  };
}

async function summary(db: Queryable, h: ListHead): Promise<AccountList> {
  const s = await versionStats(db, h.id, h.version);
  const diff = h.version > 1 ? await diffVersions(db, h.id, h.version, h.version - 1, 0, 0) : null;
  const matched = s.byStatus.matched ?? 0;
  return {
    id: h.id,
    name: h.name,
    version: h.version,
    rows: s.rows,
    matched,
    review: s.byStatus.review ?? 0,
    unmatched: s.byStatus.unmatched ?? 0,
    matchRate: s.rows === 0 ? 0 : Math.round((matched / s.rows) * 10_000) / 10_000,
    missReasons: s.byReason,
    diff: diff && { added: diff.added, removed: diff.removed, changed: diff.changed },
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}

/** Checks who uploads what into which list: the client, the list (when a re-upload) and the name. */
export async function uploadTarget(db: Db, clientId: string, listId: string | undefined, input: ListUploadInput & { queryName?: string | undefined }) {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFoundError(`no client '${clientId}'`);
  const existing = listId === undefined ? undefined : await findList(db, clientId, listId);
  if (listId !== undefined && !existing) throw notFound(listId);
  if (input.name !== undefined && input.queryName !== undefined && input.name !== input.queryName)
    throw new BadRequestError('name: given in the query and the body with different values');
  const name = input.name ?? input.queryName ?? existing?.name;
  if (name === undefined) throw new BadRequestError('name: required for a new list (in the body or the query)');
  return { client, existing, name };
}

/**
 * Writes an upload as a new list (listId undefined) or the next version of one: read and
 * checked whole, matched, then written in one transaction (all or nothing).
 */
export async function uploadList(
  db: Db,
  clientId: string,
  listId: string | undefined,
  input: ListUploadInput & { queryName?: string | undefined },
): Promise<AccountList> {
  const { client, name } = await uploadTarget(db, clientId, listId, input);
  const { format, rows } = await parseUpload(input, client.plan.maxListRows, client.plan.id);
  const matched = await matchRows(db, rows);
  const id = listId ?? `lst_${randomBytes(8).toString('hex')}`;
  await db.transaction(async (tx) => {
    if (listId === undefined) await insertList(tx, id, clientId, name);
    const h = await lockList(tx, clientId, id);
    if (!h) throw notFound(id);
    await insertVersion(tx, id, h.version + 1, format, name, matched);
  });
  return getList(db, clientId, id);
}

export async function getList(db: Queryable, clientId: string, id: string): Promise<AccountList> {
  const h = await findList(db, clientId, id);
  if (!h) throw notFound(id);
  return summary(db, h);
}

export async function listLists(db: Queryable, clientId: string, input: { page: number; size: number }): Promise<Page<AccountList>> {
  const { total, rows } = await listListRows(db, clientId, input.page * input.size, input.size);
  const lists: AccountList[] = [];
  for (const h of rows) lists.push(await summary(db, h));
  return toPage(lists, total, input.size);
}

const toListRow = (r: ReadRow): ListRow => r as ListRow;

export async function listRows(
  db: Queryable,
  clientId: string,
  id: string,
  input: { page: number; size: number; status?: ListRow['status'] | undefined },
): Promise<Page<ListRow>> {
  const h = await findList(db, clientId, id);
  if (!h) throw notFound(id);
  const { total, rows } = await readRows(db, id, h.version, input.status, input.page * input.size, input.size);
  return toPage(rows.map(toListRow), total, input.size);
}

export async function deleteList(db: Queryable, clientId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteListRow(db, clientId, id))) throw notFound(id);
  return { id, deleted: true };
}

export async function getListDiff(db: Queryable, clientId: string, id: string, input: { version: number; page: number; size: number }) {
  const h = await findList(db, clientId, id);
  if (!h) throw notFound(id);
  if (input.version > h.version) throw new NotFoundError(`version: list '${id}' has versions 1-${h.version}`);
  const previous = input.version > 1 ? input.version - 1 : null;
  const d = await diffVersions(db, id, input.version, previous ?? 0, input.page * input.size, input.size);
  const rows = [];
  for (const p of d.page) {
    const before = p.before_line === null ? null : ((await readRow(db, id, previous!, p.before_line)) ?? null);
    const after = p.after_line === null ? null : ((await readRow(db, id, input.version, p.after_line)) ?? null);
    rows.push({ change: p.change, key: p.key, before: before && toListRow(before), after: after && toListRow(after) });
  }
  return {
    version: input.version,
    previous,
    added: d.added,
    removed: d.removed,
    changed: d.changed,
    rows: toPage(rows, d.added + d.removed + d.changed, input.size),
  };
}

/** accept (the best candidate), reject or pick (a company by domain) for a row in review of the current version. */
export async function reviewListRow(
  db: Db,
  clientId: string,
  id: string,
  line: number,
  input: { action: 'accept' | 'reject' | 'pick'; companyDomain?: string | undefined },
): Promise<ListRow> {
  const h = await findList(db, clientId, id);
  if (!h) throw notFound(id);
  if (input.action === 'pick' && input.companyDomain === undefined) throw new BadRequestError('companyDomain: required with action pick');
  if (input.action !== 'pick' && input.companyDomain !== undefined) throw new BadRequestError(`companyDomain: only with action pick, not ${input.action}`);
  const picked = input.action === 'pick' ? (await requireCompanies(db, [input.companyDomain!], 'companyDomain'))[0]! : undefined;
  await db.transaction(async (tx) => {
    const row = await lockRow(tx, id, h.version, line);
    if (!row) throw new NotFoundError(`line: list '${id}' version ${h.version} has no row at line ${line}`);
    if (row.status !== 'review') throw new ConflictError(`line: the row at line ${line} is ${row.status}, not in review`);
    if (input.action === 'reject')
      await setRowMatch(tx, id, h.version, line, { status: 'unmatched', companyId: null, method: null, score: null, reason: 'rejected' });
    else {
      const companyId = picked ? picked.id : row.candidates[0]?.companyId;
      if (!companyId) throw new ConflictError(`line: the row at line ${line} has no candidate to accept; pick a company`);
      const score = picked ? 1 : (row.candidates[0]?.score ?? null);
      await setRowMatch(tx, id, h.version, line, { status: 'matched', companyId, method: 'review', score, reason: null });
    }
  });
  return toListRow((await readRow(db, id, h.version, line))!);
}

/**
 * The matched company ids of a list's current version (each once, sorted): what enrichment,
 * lookalikes and CRM exports start from. A list that is not the client's → 404.
 */
export async function listCompanyIds(db: Queryable, clientId: string, listId: string): Promise<string[]> {
  const h = await findList(db, clientId, listId);
  if (!h) throw notFound(listId);
  return matchedCompanyIds(db, listId, h.version);
}

/** The matched companies of a list's current version in its order, each with the domain or name its row gave (enrichment's `input`). */
export async function listMatchedAccounts(db: Queryable, clientId: string, listId: string): Promise<{ companyId: string; input: string }[]> {
  const h = await findList(db, clientId, listId);
  if (!h) throw notFound(listId);
  return matchedAccounts(db, listId, h.version);
}
