// Lookalikes of a seed set: resolves the seeds (domains, or a company search), the exclusions
// and the candidate filter, scores every candidate with intelligence/lookalikes.ts over the
// population of the latest refresh, and explains the page it returns.
// The population (features of every company and its materialized in-use stack) is built once
// per refresh run and kept in memory per database; scoring yields to the event loop between
// slices of candidates.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/db.ts';
import { listCompanyIds } from './lists.ts';
import { buildPopulationOffThread } from './population-pool.ts';
import type { CompanySearchInput } from '../schemas/companies.ts';
import { MAX_SEEDS, MIN_SEEDS, type Lookalike, type Lookalikes, type LookalikesInput } from '../schemas/lookalikes.ts';
import { checkResultWindow } from '../schemas/common.ts';
import type { Population } from '../intelligence/features.ts';
import { emptyLookalikeParts, LookalikeScorer, seedProfile, seedsAlike, type LookalikePart } from '../intelligence/lookalikes.ts';
import { regionOf } from '../intelligence/bands.ts';
import { latestRefreshRun, loadCompanyFeatures, loadProductCategories } from '../store/intelligence.ts';
import { allMaterializedStacks, lookalikeRows, productNames, type LookalikeRow } from '../store/lookalikes.ts';
import { findCompaniesByDomains, matchingCompanyIds } from '../store/companies.ts';
import { BadRequestError, ConflictError } from '../errors.ts';
import { nowDate } from '../clock.ts';
import { requireCompanies } from './resolve.ts';
import { toCriteria } from './companies.ts';

/** Candidates scored between two turns of the event loop (a few ms of work). */
const SCORE_SLICE = 5_000;

interface CachedPopulation {
  runId: number;
  pop: Promise<Population>;
}
const populations = new WeakMap<Db, CachedPopulation>();

/**
 * The population of the latest refresh run: company features and the in-use stacks the run
 * materialized (a company imported since has an empty stack until the next refresh, as its cohorts).
 */
async function currentPopulation(db: Db): Promise<Population> {
  const runId = (await latestRefreshRun(db))?.id ?? 0;
  const cached = populations.get(db);
  if (cached && cached.runId === runId) return cached.pop;
  const pop = (async () => {
    const [companies, products, stacks] = await Promise.all([loadCompanyFeatures(db), loadProductCategories(db), allMaterializedStacks(db)]);
    // Seconds of CPU at 50,000 companies: built on a thread of its own (population-pool.ts).
    return buildPopulationOffThread({ companies: companies.map((c) => ({ ...c, products: stacks.get(c.id) ?? [] })), products });
  })();
  populations.set(db, { runId, pop });
  pop.catch(() => populations.get(db)?.pop === pop && populations.delete(db));
  return pop;
}

/** The company-search part of the input (what narrows the candidates, or picks seeds). */
type SearchFields = Omit<
  LookalikesInput,
  'seedDomains' | 'seedSearch' | 'seedListId' | 'excludeListId' | 'excludeDomains' | 'minSeedSupport' | 'page' | 'size'
>;

const hasSearch = (s: SearchFields): boolean => Object.values(s).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));

async function seedIds(db: Db, input: LookalikesInput, clientId: string): Promise<string[]> {
  const given = [input.seedDomains, input.seedSearch, input.seedListId].filter((v) => v !== undefined).length;
  if (given !== 1) throw new BadRequestError('seedDomains: give exactly one of seedDomains, seedSearch and seedListId');
  if (input.seedDomains) return (await requireCompanies(db, input.seedDomains, 'seedDomains')).map((c) => c.id);
  if (input.seedListId) {
    const ids = await listCompanyIds(db, clientId, input.seedListId);
    if (ids.length < MIN_SEEDS || ids.length > MAX_SEEDS)
      throw new BadRequestError(`seedListId: the list has ${ids.length} matched companies; seeds must be ${MIN_SEEDS}-${MAX_SEEDS} companies`);
    return ids;
  }
  const criteria = await toCriteria(db, input.seedSearch as CompanySearchInput, nowDate());
  const ids = await matchingCompanyIds(db, criteria, MAX_SEEDS + 1);
  if (ids.length < MIN_SEEDS || ids.length > MAX_SEEDS) {
    throw new BadRequestError(
      `seedSearch: it matches ${ids.length > MAX_SEEDS ? `more than ${MAX_SEEDS}` : ids.length} companies; seeds must be ${MIN_SEEDS}-${MAX_SEEDS} companies`,
    );
  }
  return ids;
}

/** `clientId`: whose account lists `seedListId` and `excludeListId` name (another client's are 404; none: every list is). */
export async function findLookalikes(primary: Db, input: LookalikesInput, clientId = ''): Promise<Lookalikes> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  checkResultWindow(input.page, input.size);
  const { seedDomains: _d, seedSearch: _s, seedListId: _l, excludeListId, excludeDomains, minSeedSupport, page, size, ...search } = input;
  const seeds = [...new Set(await seedIds(db, input, clientId))];
  if (seeds.length < MIN_SEEDS) throw new BadRequestError(`seedDomains: give at least ${MIN_SEEDS} different companies`);
  const pop = await currentPopulation(primary.read);
  const missing = seeds.filter((id) => !pop.indexOf.has(id));
  if (missing.length > 0) {
    throw new ConflictError(
      `seeds: ${missing.length} of the seeds are newer than the latest intelligence refresh (${missing.slice(0, 5).join(', ')}); run the refresh first`,
    );
  }
  const seedIdx = seeds.map((id) => pop.indexOf.get(id)!);

  // Left out: the seeds and the excluded companies on record.
  const excludedDomains = [...new Set(excludeDomains ?? [])];
  const excludedRows = excludedDomains.length > 0 ? await findCompaniesByDomains(db, excludedDomains) : [];
  const excluded = new Uint8Array(pop.size);
  for (const i of seedIdx) excluded[i] = 1;
  const excludedIds = [...excludedRows.map((r) => r.id), ...(excludeListId ? await listCompanyIds(db, clientId, excludeListId) : [])];
  for (const id of excludedIds) {
    const i = pop.indexOf.get(id);
    if (i !== undefined) excluded[i] = 1;
  }
  let candidates: number[];
  if (hasSearch(search)) {
    const criteria = await toCriteria(db, search as CompanySearchInput, nowDate());
    const ids = await matchingCompanyIds(db, criteria, pop.size + 1);
    candidates = ids.map((id) => pop.indexOf.get(id)).filter((i): i is number => i !== undefined && !excluded[i]);
  } else {
    candidates = [];
    for (let i = 0; i < pop.size; i++) if (!excluded[i]) candidates.push(i);
  }

  const scorer = new LookalikeScorer(pop, seedProfile(pop, seedIdx, minSeedSupport));
  const scores = new Float64Array(pop.size);
  const scratch = emptyLookalikeParts();
  for (let k = 0; k < candidates.length; k++) {
    if (k > 0 && k % SCORE_SLICE === 0) await nextTurn();
    scores[candidates[k]!] = scorer.score(candidates[k]!, scratch);
  }
  // Most alike first; ties by company id (the population is in id order).
  candidates.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const pageIdx = candidates.slice(page * size, (page + 1) * size);
  const content = await explainPage(db, pop, scorer, pageIdx);
  const signals = await seedSignals(db, pop, scorer);
  return {
    seeds: { count: seedIdx.length, minSeedSupport, signals },
    excluded: pop.size - excluded.reduce((n, x) => n + (x ? 0 : 1), 0),
    excludedUnknown: excludedDomains.length - excludedRows.length,
    totalPages: Math.ceil(candidates.length / size),
    totalElements: candidates.length,
    content,
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The products at least minSeedSupport seeds use, most shared first. */
async function seedSignals(db: Db, pop: Population, scorer: LookalikeScorer) {
  const { productSupport, minSupport, seeds } = scorer.profile;
  const supported: number[] = [];
  productSupport.forEach((k, p) => k >= minSupport && k > 0 && supported.push(p));
  supported.sort((a, b) => productSupport[b]! - productSupport[a]! || a - b);
  const top = supported.slice(0, 20).map((p) => pop.productIds[p]!);
  const names = await productNames(db, top);
  return top.map((id) => ({ productId: id, product: names.get(id) ?? id, seeds: productSupport[pop.productIndex.get(id)!]!, of: seeds.length }));
}

const PART_LABEL: Record<Exclude<LookalikePart, 'products'>, (r: LookalikeRow) => string> = {
  industry: (r) => `industry ${r.industry ?? 'unknown'}`,
  employees: (r) => `employees ${r.employeeBand ?? 'unknown'}`,
  revenue: (r) => `revenue ${r.revenueBand ?? 'unknown'}`,
  region: (r) => `region ${regionOf(r.country) ?? 'unknown'}`,
  categories: () => 'category mix',
  terms: () => 'description',
};

async function explainPage(db: Db, pop: Population, scorer: LookalikeScorer, page: number[]): Promise<Lookalike[]> {
  const rows = await lookalikeRows(
    db,
    page.map((i) => pop.ids[i]!),
  );
  const { productSupport, minSupport, seeds } = scorer.profile;
  const explained = page.map((c) => {
    const shared = [...pop.stacks[c]!].filter((p) => productSupport[p]! >= minSupport && productSupport[p]! > 0);
    shared.sort((a, b) => productSupport[b]! - productSupport[a]! || a - b);
    return { c, contributions: scorer.contributions(c), shared: shared.slice(0, 10) };
  });
  const names = await productNames(db, [
    ...new Set(explained.flatMap((e) => [...e.shared, ...e.contributions.products.map((p) => p.product)]).map((p) => pop.productIds[p]!)),
  ]);
  const nameOf = (p: number) => names.get(pop.productIds[p]!) ?? pop.productIds[p]!;
  return explained.flatMap(({ c, contributions, shared }) => {
    const row = rows.get(pop.ids[c]!);
    if (!row) return []; // deleted since the refresh
    const total = contributions.score;
    const features: { feature: string; value: number }[] = contributions.products.map((p) => ({ feature: `uses ${nameOf(p.product)}`, value: p.contribution }));
    for (const [part, label] of Object.entries(PART_LABEL) as [Exclude<LookalikePart, 'products'>, (r: LookalikeRow) => string][]) {
      features.push({ feature: label(row), value: contributions.parts[part] });
    }
    features.sort((a, b) => b.value - a.value || (a.feature < b.feature ? -1 : 1));
    const of = seeds.length;
    return [
      {
        domain: row.domain,
        name: row.name,
        industry: row.industry,
        employeeRange: row.employeeBand,
        revenueRange: row.revenueBand,
        country: row.country,
        score: round(total, 4),
        sharedSignals: shared.map((p) => ({ productId: pop.productIds[p]!, product: nameOf(p), seeds: productSupport[p]!, of })),
        matches: [
          { field: 'industry' as const, value: row.industry, seeds: seedsAlike(pop, seeds, 'industry', c), of },
          { field: 'employeeRange' as const, value: row.employeeBand, seeds: seedsAlike(pop, seeds, 'emp', c), of },
          { field: 'revenueRange' as const, value: row.revenueBand, seeds: seedsAlike(pop, seeds, 'rev', c), of },
          { field: 'region' as const, value: regionOf(row.country), seeds: seedsAlike(pop, seeds, 'region', c), of },
        ],
        topFeatures: features
          .filter((f) => f.value > 0 && total > 0)
          .slice(0, 5)
          .map((f) => ({ feature: f.feature, share: round(f.value / total, 3) })),
      },
    ];
  });
}
