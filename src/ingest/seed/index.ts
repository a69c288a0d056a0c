// Demo-world generator: `seedWorld(db, { companies, seed, scale, asOf })` writes a
// realistic, deterministic B2B world with hidden truth (docs/demo-world.md). Catalog and
// segments first, then companies in batches (each company with its firmographics,
// installs, people, contacts, feed and truth; generate.ts, on a thread of its own), then
// defined cohorts — all in one transaction, so a failed run leaves nothing behind.
import { INDUSTRIES } from './industries.ts';
import type { Catalog } from './catalog.ts';
import { WorldOutline } from './generate.ts';
import { companySource, type CompanySource } from './generator-thread.ts';
import { definedCohorts } from './cohorts.ts';
import type { ScaleName } from './scale.ts';
import { noteReferenceChange, noteWorldChange } from '../../store/change-notes.ts';
import { beginBulkLoad, clearWorld, insertCatalog, insertCohortRows, insertTaxonomy, joinList, worldCounts, writeCompanyBatch } from '../../store/seed.ts';
import type { Db, Tx } from '../../db/db.ts';
import { nowDate } from '../../clock.ts';

interface SeedOptions {
  companies: number;
  seed: string;
  /** Catalog size and density preset (default M). */
  scale?: ScaleName;
  /** Every date is relative to this day (YYYY-MM-DD, UTC); default today. */
  asOf?: string;
  /** Empty the world tables first; without it a database holding a world is refused. */
  replace?: boolean;
  /**
   * Append every observation to the observation log (default true), so the evidence API serves
   * the demo world's evidence. Installs are the same either way: the fold of the detections
   * (observe.ts), which equals deriving them from the log (a test checks it).
   */
  recordObservations?: boolean;
  /**
   * The share of companies (0-1) whose two-year past is visited monthly (seed/history.ts: site
   * visits, the technology events derived from them, the hidden truth of changes); default
   * DEFAULT_HISTORY_SHARE. A panel company's installs are the fold of its visits whether or not
   * the log is recorded; without the log its past (visits, events, truth) is not written either,
   * since the visits and events name the log's evidence items.
   */
  historyShare?: number;
  /** Companies per write batch (memory bound); default 250. */
  batchSize?: number;
  /**
   * Runs in the seed's transaction once the world is written, before its indexes are rebuilt:
   * the first refresh done here writes its cohort rows as part of the bulk load (no index
   * upkeep, no foreign-key checks, no WAL on the embedded database), not row by row after it.
   * It may call `restoreWorldIndexes` once it has read what it needs (store/seed.ts: BulkLoad),
   * so the database builds them while it computes.
   */
  afterLoad?: (tx: Tx, restoreWorldIndexes: () => Promise<void>) => Promise<void>;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedProgress {
  phase: 'catalog' | 'companies' | 'cohorts' | 'indexes' | 'done';
  done: number;
  total: number;
}

interface SeedSummary {
  seed: string;
  scale: ScaleName;
  asOf: string;
  companies: number;
  categories: number;
  vendors: number;
  products: number;
  segments: number;
  installs: number;
  people: number;
  contacts: number;
  feedItems: number;
  /** Site visits and technology events of the world's past. */
  visits: number;
  events: number;
  definedCohorts: number;
  purchasesRemoved: number;
}

export class WorldExistsError extends Error {}

/**
 * The share of companies with a visited past by default: a twentieth of the world (250 of the
 * first start's 5,000) keeps the first start within its budget of about two CPU-seconds; a tenth
 * cost 3.7 (bench/results/2026-11-28-demo-history.md).
 */
const DEFAULT_HISTORY_SHARE = 0.05;

/** Companies whose defined cohorts go in one statement. */
const DEFINED_COHORTS_PER_WRITE = 5_000;

/** Today (UTC) as YYYY-MM-DD. */
export function todayUtc(now = nowDate()): string {
  return now.toISOString().slice(0, 10);
}

export function parseAsOf(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new Error(`as-of must be a date YYYY-MM-DD, got '${value}'`);
  }
  return Date.parse(`${value}T00:00:00Z`);
}

export async function seedWorld(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const n = options.companies;
  if (!Number.isInteger(n) || n < 1) throw new Error('companies must be a positive integer');
  const seed = options.seed;
  const asOf = options.asOf ?? todayUtc();
  const progress = options.onProgress ?? (() => {});

  progress({ phase: 'catalog', done: 0, total: 1 });
  const outline = new WorldOutline({
    companies: n,
    seed,
    scale: options.scale ?? 'M',
    asOfMs: parseAsOf(asOf),
    recordObservations: options.recordObservations ?? true,
    historyShare: options.historyShare ?? DEFAULT_HISTORY_SHARE,
  });
  const { catalog, segments, segmentOf, bySegment, ids } = outline;
  const summary: SeedSummary = {
    seed,
    scale: outline.scale.name,
    asOf,
    companies: n,
    categories: catalog.categories.length,
    vendors: catalog.vendors.length,
    products: catalog.products.length,
    segments: segments.length,
    installs: 0,
    people: 0,
    contacts: 0,
    feedItems: 0,
    visits: 0,
    events: 0,
    definedCohorts: 0,
    purchasesRemoved: 0,
  };

  await db.transaction(async (tx) => {
    const existing = await worldCounts(tx);
    if ((existing.companies > 0 || existing.catalog > 0) && !options.replace) {
      throw new WorldExistsError(`The database already holds a world (${existing.companies} companies); use --replace to empty it first.`);
    }
    // Emptied even when empty: a table truncated in this transaction is written without WAL
    // where the server runs with wal_level=minimal (the embedded database does), a third of
    // the first start's writing.
    summary.purchasesRemoved = await clearWorld(tx);
    const bulkLoad = await beginBulkLoad(tx);
    await insertTaxonomy(tx, taxonomyRows(catalog));
    await insertCatalog(tx, catalogRows(catalog));
    progress({ phase: 'catalog', done: 1, total: 1 });

    // Generated on a thread of its own when there are several batches (generator-thread.ts).
    const companies = companySource(outline, options.batchSize ?? 250);
    try {
      await writeCompanies(tx, companies, summary, progress);
    } finally {
      await companies.close();
    }
    progress({ phase: 'companies', done: n, total: n });

    for (let from = 0; from < n; from += DEFINED_COHORTS_PER_WRITE) {
      const to = Math.min(n, from + DEFINED_COHORTS_PER_WRITE);
      const rows = { company_id: [] as string[], member_id: [] as string[], rank: [] as number[], score: [] as number[] };
      for (const cohort of definedCohorts(seed, segmentOf, segments, from, to, bySegment)) {
        summary.definedCohorts++;
        cohort.members.forEach((m, r) => {
          rows.company_id.push(ids.company(cohort.company));
          rows.member_id.push(ids.company(m));
          rows.rank.push(r + 1);
          rows.score.push(Math.round((1 - r / (cohort.members.length + 1)) * 1000) / 1000);
        });
      }
      if (rows.company_id.length) await insertCohortRows(tx, rows);
      progress({ phase: 'cohorts', done: to, total: n });
    }
    await options.afterLoad?.(tx, () => bulkLoad.restoreWorldIndexes());
    progress({ phase: 'indexes', done: 0, total: 1 });
    await bulkLoad.end();
    // A new catalog and a new world: servers running beside the seed drop what they cached.
    await noteReferenceChange(tx);
    await noteWorldChange(tx);
  });
  progress({ phase: 'done', done: n, total: n });
  return summary;
}

/** Writes the batches as they come, one in the database while the next ones are generated. */
async function writeCompanies(tx: Tx, companies: CompanySource, summary: SeedSummary, progress: (p: SeedProgress) => void): Promise<void> {
  let writing: Promise<unknown> = Promise.resolve();
  let written = 0;
  for (let batch = await companies.next(); batch; batch = await companies.next()) {
    await writing;
    if (written > 0) progress({ phase: 'companies', done: written, total: summary.companies });
    writing = writeCompanyBatch(tx, batch);
    writing.catch(() => {}); // surfaced by the await below, or by the next one
    written += batch.companies;
    summary.installs += batch.installs;
    summary.people += batch.people;
    summary.contacts += batch.contacts;
    summary.feedItems += batch.feedItems;
    summary.visits += batch.visits;
    summary.events += batch.events;
  }
  await writing;
}

function taxonomyRows(catalog: Catalog) {
  return {
    industries: { id: INDUSTRIES.map((i) => i.id), name: INDUSTRIES.map((i) => i.name), sector: INDUSTRIES.map((i) => i.sector) },
    categories: {
      id: catalog.categories.map((c) => c.id),
      name: catalog.categories.map((c) => c.name),
      parent_id: catalog.categories.map((c) => c.parentId),
      level: catalog.categories.map((c) => c.level),
      description: catalog.categories.map((c) =>
        c.leaf
          ? `Software for ${c.name.toLowerCase()}.`
          : `${c.name}: ${catalog.categories
              .filter((k) => k.parentId === c.id)
              .map((k) => k.name)
              .join(', ')}.`,
      ),
    },
  };
}

function catalogRows(catalog: Catalog) {
  const v = catalog.vendors;
  const p = catalog.products;
  return {
    vendors: {
      id: v.map((x) => x.id),
      domain: v.map((x) => x.domain),
      name: v.map((x) => x.name),
      website: v.map((x) => x.website),
      logo_url: v.map((x) => x.logoUrl),
      description: v.map((x) => x.description),
    },
    products: {
      id: p.map((x) => x.id),
      vendor_id: p.map((x) => x.vendorId),
      category_id: p.map((x) => x.categoryId),
      name: p.map((x) => x.name),
      short_name: p.map((x) => x.shortName),
      description: p.map((x) => x.description),
      features: p.map((x) => joinList(x.features)),
      review_count: p.map((x) => x.reviewCount),
      star_rating: p.map((x) => x.starRating),
      avg_rating: p.map((x) => x.avgRating),
      image_url: p.map((x) => x.imageUrl),
      product_url: p.map((x) => x.productUrl),
      public_detail_url: p.map((x) => x.publicDetailUrl),
    },
  };
}
