// Enrichment of a set of companies (domains inline, or company ids from a list): one row per
// company with its firmographics, whether it was ever observed, and the stack in use by
// category (confidence and evidence count), plus the optional columns picked. Rows are built a
// batch at a time and streamed (constant memory whatever the set's size); the companies found
// count against the plan's enrichRowsPerDay; every run is audited like an export; and a run
// whose content differs from the set's last one records a snapshot (its content hash), so an
// unchanged re-run writes nothing new.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { listMatchedAccounts } from './lists.ts';
import { BadRequestError } from '../errors.ts';
import type { EnrichedRow, OptionalColumn } from '../schemas/enrichment.ts';
import {
  companyIdsByDomains,
  enrichCompanyRows,
  existingCompanyIds,
  neverObservedDomains,
  recordSnapshot,
  type EnrichCompanyRow,
} from '../store/enrichment.ts';
import { installSignals, type InstallSignalRow } from '../store/evidence.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../intelligence/confidence.ts';
import { resolveAsOf, toInstallSignal } from './stacks.ts';
import { audited, type Actor } from './exports.ts';
import { takeEnrichment } from './plan-limits.ts';
import { startObserveJob } from './jobs.ts';
import type { DetectDeps } from './detect.ts';
import type { Job } from '../schemas/admin-activity.ts';

/** Companies read and enriched per round trip. */
const BATCH = 500;
/** Domains looked up per statement when the set is resolved. */
const LOOKUP_BATCH = 2_000;

/** What to enrich: normalized domains, or a list's matched accounts (company id, and the domain or name its row gave). */
type EnrichTargets = { domains: readonly string[] } | { accounts: readonly { companyId: string; input: string }[] };

interface EnrichRequest {
  targets: EnrichTargets;
  columns: readonly OptionalColumn[];
  /** Names the set for its snapshots (e.g. a list and its version); default: a hash of the targets (in order) and columns. */
  setKey?: string;
}

interface EnrichedBy {
  actor: Actor;
  /** What is streamed: csv, jsonl (REST) or mcp (rows inline in a tool result). */
  format: 'csv' | 'jsonl' | 'mcp';
  /** Send the accounts never observed (found without any install, or domains with no company) to detection, as a job. */
  observeMissing?: { deps: DetectDeps; staleAfterDays: number };
}

interface Enriched {
  rows: AsyncIterable<EnrichedRow>;
  /** The detection job of the never-observed accounts; null when none was asked or none is missing. */
  observeJob: { id: string; domains: number } | null;
}

const uniq = (xs: readonly string[]): string[] => [...new Set(xs)];

/** Each input (a domain once, or a list's account, in order) with its company id, or null when there is none. */
async function resolveTargets(db: Db, targets: EnrichTargets): Promise<{ input: string; id: string | null }[]> {
  const out: { input: string; id: string | null }[] = [];
  if ('domains' in targets) {
    const inputs = uniq(targets.domains);
    for (let i = 0; i < inputs.length; i += LOOKUP_BATCH) {
      const chunk = inputs.slice(i, i + LOOKUP_BATCH);
      const ids = await companyIdsByDomains(db, chunk);
      for (const d of chunk) out.push({ input: d, id: ids.get(d) ?? null });
    }
    return out;
  }
  // A list's company that has left the world since it was matched is a row with found=false.
  for (let i = 0; i < targets.accounts.length; i += LOOKUP_BATCH) {
    const chunk = targets.accounts.slice(i, i + LOOKUP_BATCH);
    const ids = await existingCompanyIds(
      db,
      chunk.map((a) => a.companyId),
    );
    for (const a of chunk) out.push({ input: a.input, id: ids.has(a.companyId) ? a.companyId : null });
  }
  return out;
}

function defaultSetKey(targets: EnrichTargets, columns: readonly OptionalColumn[]): string {
  const kind = 'domains' in targets ? 'domains' : 'companyIds';
  const items = 'domains' in targets ? uniq(targets.domains) : targets.accounts.map((a) => a.companyId); // in order: rows come in this order
  const h = createHash('sha256').update(kind).update('\n').update(items.join('\n')).update('\n').update(columns.join(','));
  return `${kind}:${h.digest('hex')}`;
}

/**
 * What a request enriches: its domains, or the matched companies of one of the client's
 * account lists (one snapshot key per list: a new version with the same matches writes none).
 */
export async function enrichTargets(
  db: Db,
  clientId: string,
  input: { domains?: string[]; listId?: string; columns: OptionalColumn[] },
): Promise<EnrichRequest> {
  if ((input.domains === undefined) === (input.listId === undefined)) throw new BadRequestError('domains: give exactly one of domains and listId');
  if (input.domains) return { targets: { domains: input.domains }, columns: input.columns };
  const accounts = await listMatchedAccounts(db, clientId, input.listId!);
  return { targets: { accounts }, columns: input.columns, setKey: `list:${input.listId}` };
}

/**
 * The domains of a resolved set never observed, in order: found companies without any install,
 * then (domain targets) the domains with no company at all (detection adds the company).
 */
async function missingDomains(db: Db, request: EnrichRequest, targets: { input: string; id: string | null }[]): Promise<string[]> {
  const ids = targets.flatMap((t) => (t.id ? [t.id] : []));
  const found: string[] = [];
  for (let i = 0; i < ids.length; i += LOOKUP_BATCH) found.push(...(await neverObservedDomains(db, ids.slice(i, i + LOOKUP_BATCH))));
  const unknown = 'domains' in request.targets ? targets.flatMap((t) => (t.id ? [] : [t.input])) : [];
  return uniq([...found, ...unknown]);
}

/**
 * The enriched rows of a set, streamed and audited. Unknown targets are rows with found=false.
 * Before anything streams, the companies found are spent from today's allowance, and with
 * observeMissing the never-observed domains from the detection allowance, all or nothing
 * (409/429 when they do not fit); then the detection job starts. When the stream completes, a
 * snapshot is recorded if the content changed since the set's last one; the audit entry carries
 * the content hash and whether it did.
 */
export async function enrichCompanies(db: Db, request: EnrichRequest, by: EnrichedBy): Promise<Enriched> {
  const targets = await resolveTargets(db, request.targets);
  const found = targets.reduce((n, t) => n + (t.id ? 1 : 0), 0);
  const missing = by.observeMissing ? await missingDomains(db, request, targets) : [];
  await takeEnrichment(db, by.actor.clientId, found, missing.length);
  let observeJob: Job | null = null;
  if (by.observeMissing && missing.length > 0)
    observeJob = await startObserveJob(db, by.observeMissing.deps, missing, by.actor.clientId, by.observeMissing.staleAfterDays);
  const asOf = (await resolveAsOf(db)).getTime();
  const setKey = request.setKey ?? defaultSetKey(request.targets, request.columns);
  const params: Record<string, unknown> = {
    rows: targets.length,
    found,
    columns: request.columns,
    setKey,
    attributed: by.actor.onBehalfOf !== null,
    ...(observeJob ? { observeJobId: observeJob.id, observeDomains: missing.length } : {}),
  };
  const rows = (async function* () {
    const hash = createHash('sha256');
    for (let i = 0; i < targets.length; i += BATCH) {
      const batch = targets.slice(i, i + BATCH);
      const ids = batch.flatMap((t) => (t.id ? [t.id] : []));
      const [companies, signals] = await Promise.all([enrichCompanyRows(db, ids), ids.length > 0 ? installSignals(db, ids) : Promise.resolve([])]);
      const byCompany = new Map<string, InstallSignalRow[]>();
      for (const s of signals) {
        const list = byCompany.get(s.companyId);
        if (list) list.push(s);
        else byCompany.set(s.companyId, [s]);
      }
      for (const t of batch) {
        const company = t.id ? companies.get(t.id) : undefined;
        const row = company ? enrichedRow(t.input, company, byCompany.get(company.id) ?? [], asOf, request.columns) : notFoundRow(t.input, request.columns);
        hash.update(JSON.stringify(row)).update('\n');
        yield row;
      }
    }
    // Reached only when every row was taken: a cut or abandoned stream records no snapshot.
    const contentHash = hash.digest('hex');
    params.contentHash = contentHash;
    params.snapshot = (await recordSnapshot(db, { clientId: by.actor.clientId, setKey, contentHash, rows: targets.length, found })) ? 'written' : 'unchanged';
  })();
  return {
    rows: audited(db, rows, { actor: by.actor, action: `companies.enrich.${by.format}`, params }),
    observeJob: observeJob ? { id: observeJob.id, domains: missing.length } : null,
  };
}

function notFoundRow(input: string, columns: readonly OptionalColumn[]): EnrichedRow {
  const row: EnrichedRow = {
    input,
    found: false,
    observed: false,
    companyId: null,
    domain: null,
    name: null,
    country: null,
    industry: null,
    employeeRange: null,
    revenueRange: null,
    technologyCount: 0,
    stack: [],
  };
  for (const k of columns) Object.assign(row, { [k]: k === 'vendors' ? [] : null });
  return row;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A found company's row: its stack is the installs in use at `asOf` (confidence ≥ 0.5), by category. */
function enrichedRow(input: string, c: EnrichCompanyRow, installs: InstallSignalRow[], asOf: number, columns: readonly OptionalColumn[]): EnrichedRow {
  const categories = new Map<string, EnrichedRow['stack'][number]>();
  const vendors = new Set<string>();
  let lastVerified = 0;
  let technologyCount = 0;
  for (const s of installs) {
    lastVerified = Math.max(lastVerified, s.lastVerified.getTime());
    const confidence = inUseConfidence(toInstallSignal(s), asOf);
    if (confidence < IN_USE_THRESHOLD) continue;
    technologyCount++;
    vendors.add(s.vendorDomain);
    let category = categories.get(s.categoryId);
    if (!category) categories.set(s.categoryId, (category = { categoryId: s.categoryId, category: s.categoryName, technologies: [] }));
    category.technologies.push({ productId: s.productId, product: s.productName, vendorDomain: s.vendorDomain, confidence, evidenceCount: s.hitCount });
  }
  const stack = [...categories.values()].sort((a, b) => byName(a.category, b.category) || byName(a.categoryId, b.categoryId));
  for (const category of stack)
    category.technologies.sort((a, b) => b.confidence - a.confidence || byName(a.product, b.product) || byName(a.productId, b.productId));
  const row: EnrichedRow = {
    input,
    found: true,
    observed: installs.length > 0,
    companyId: c.id,
    domain: c.domain,
    name: c.name,
    country: c.country,
    industry: c.industry,
    employeeRange: c.employee_band,
    revenueRange: c.revenue_band,
    technologyCount,
    stack,
  };
  const optional: { [K in OptionalColumn]: () => EnrichedRow[K] } = {
    city: () => c.city,
    state: () => c.state,
    postalCode: () => c.postal_code,
    street: () => c.street,
    website: () => c.website,
    logo: () => c.logo_url,
    linkedinUrl: () => c.linkedin_url,
    crunchbaseUrl: () => c.crunchbase_url,
    description: () => c.description,
    industryId: () => c.industry_id,
    foundedYear: () => c.founded_year,
    employeeCount: () => c.employee_count,
    revenueUsd: () => (c.revenue_usd === null ? null : Number(c.revenue_usd)),
    lastVerified: () => (lastVerified > 0 ? new Date(lastVerified).toISOString() : null),
    vendors: () => [...vendors].sort(),
  };
  for (const k of columns) Object.assign(row, { [k]: optional[k]() });
  return row;
}
