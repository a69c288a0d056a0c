// Demo-world generator: `seedWorld(db, { companies, seed, scale, asOf })` writes a
// realistic, deterministic B2B world with hidden truth (docs/demo-world.md). Catalog and
// segments first, then companies in batches (each company with its firmographics,
// installs, people, contacts, feed and truth), then defined cohorts — all in one
// transaction, so a failed run leaves nothing behind.
import { INDUSTRIES } from './industries.ts';
import { buildCatalog, type Catalog } from './catalog.ts';
import { buildSegments, cumulativeShares, drawSegment, type Segment } from './segments.ts';
import { generateCompany, type CompanyContext } from './companies.ts';
import { buildStackContext, generateStack } from './stacks.ts';
import { renderSite, type ArtifactWorld } from './artifacts.ts';
import { buildTraceKits } from './traces.ts';
import { installsFromDetections, observationRows, observe } from './observe.ts';
import { insertObservations, type ObservationRow } from '../../store/observations.ts';
import { builtInCatalog } from '../../detect/catalog.ts';
import { generatePeople } from './people.ts';
import { generateFeed } from './news.ts';
import { firmographicProfile } from './firmographics.ts';
import { definedCohorts } from './cohorts.ts';
import { makeIdCodec } from './rng.ts';
import { SCALES, type ScaleName } from './scale.ts';
import {
  beginBulkLoad, clearWorld, emptyCompanyBatch, insertCatalog, insertCohortRows, insertCompanyBatch, insertTaxonomy, joinList, worldCounts,
  type CompanyBatch,
} from '../../store/seed.ts';
import type { Db } from '../../store/db.ts';
import { nowDate } from '../../clock.ts';

export interface SeedOptions {
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
  /** Companies per write batch (memory bound); default 1000. */
  batchSize?: number;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedProgress {
  phase: 'catalog' | 'companies' | 'cohorts' | 'indexes' | 'done';
  done: number;
  total: number;
}

export interface SeedSummary {
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
  definedCohorts: number;
  purchasesRemoved: number;
}

export class WorldExistsError extends Error {}

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
  const scale = SCALES[options.scale ?? 'M'];
  const asOf = options.asOf ?? todayUtc();
  const asOfMs = parseAsOf(asOf);
  const batchSize = options.batchSize ?? 1000;
  const useLog = options.recordObservations ?? true;
  const progress = options.onProgress ?? (() => {});

  progress({ phase: 'catalog', done: 0, total: 1 });
  const detector = builtInCatalog();
  const catalog = buildCatalog(seed, scale, detector.technologies);
  const segments = buildSegments(seed, catalog, scale);
  const cumulative = cumulativeShares(segments);
  const segmentOf = new Int32Array(n);
  const bySegment: number[][] = segments.map(() => []);
  for (let i = 0; i < n; i++) {
    segmentOf[i] = drawSegment(seed, i, cumulative);
    bySegment[segmentOf[i]].push(i);
  }
  const companyId = makeIdCodec(seed, 'cmp');
  const personId = makeIdCodec(seed, 'per');
  const feedId = makeIdCodec(seed, 'feed');
  const ids = { company: (k: number) => `cmp_${companyId(k)}`, person: (k: number) => `per_${personId(k)}`, feed: (k: number) => `fd_${feedId(k)}` };
  const summary: SeedSummary = {
    seed, scale: scale.name, asOf, companies: n, categories: catalog.categories.length, vendors: catalog.vendors.length,
    products: catalog.products.length, segments: segments.length, installs: 0, people: 0, contacts: 0, feedItems: 0, definedCohorts: 0, purchasesRemoved: 0,
  };

  // Domains are handed out in company order: the set makes them unique per run.
  const ctx: CompanyContext = { seed, asOf: new Date(asOfMs), takenDomains: new Set(), takenNames: new Set(), companyId: ids.company };
  const stackCtx = buildStackContext(seed, asOfMs, catalog);
  const productIds = catalog.products.map((p) => p.id);
  const artifactWorld: ArtifactWorld = { seed, asOfMs, catalog, detector, kits: buildTraceKits(seed, detector) };
  await db.transaction(async (tx) => {
    const existing = await worldCounts(tx);
    if (existing.companies > 0 || existing.catalog > 0) {
      if (!options.replace) throw new WorldExistsError(`The database already holds a world (${existing.companies} companies); use --replace to empty it first.`);
      summary.purchasesRemoved = await clearWorld(tx);
    }
    const endBulkLoad = await beginBulkLoad(tx);
    await insertTaxonomy(tx, taxonomyRows(catalog));
    await insertCatalog(tx, catalogRows(catalog));
    progress({ phase: 'catalog', done: 1, total: 1 });

    const updatedAt = new Date(asOfMs).toISOString();
    // Pipelined: while the server writes batch k, batch k+1 is generated in slices that
    // yield to the event loop, so the connection keeps feeding the server.
    let writing: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < n; from += batchSize) {
      const to = Math.min(n, from + batchSize);
      const batch = emptyCompanyBatch();
      const observed: ObservationRow[] = [];
      for (let i = from; i < to; i++) {
        addCompany(batch, i, segments[segmentOf[i]], observed);
        if ((i - from) % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
      }
      await writing;
      if (from > 0) progress({ phase: 'companies', done: from, total: n });
      writing = insertCompanyBatch(tx, batch, updatedAt).then(() => insertObservations(tx, observed));
      writing.catch(() => {}); // surfaced by the await above or below
      summary.installs += batch.installs.company_id.length;
      summary.people += batch.people.id.length;
      summary.contacts += batch.contacts.person_id.length;
      summary.feedItems += batch.feed.id.length;
    }
    await writing;
    progress({ phase: 'companies', done: n, total: n });

    for (let from = 0; from < n; from += batchSize * 5) {
      const to = Math.min(n, from + batchSize * 5);
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
    progress({ phase: 'indexes', done: 0, total: 1 });
    await endBulkLoad();
  });
  progress({ phase: 'done', done: n, total: n });
  return summary;

  function addCompany(b: CompanyBatch, i: number, segment: Segment, observed: ObservationRow[]): void {
    const c = generateCompany(ctx, i, segment);
    const people = generatePeople(seed, c, scale.peopleDensity, ids.person);
    const installs = generateStack(stackCtx, c);
    // The installs the API serves are what the detector finds in the company's artifacts.
    const observations = observe(renderSite(artifactWorld, c, installs).captures, detector);
    if (useLog) for (const row of observationRows(c.id, observations, detector, productIds, catalog.productOfTechnology)) observed.push(row);
    const found = installsFromDetections(observations, detector, catalog.productOfTechnology);
    const feed = generateFeed(seed, asOfMs, c, people, installs, catalog, scale.newsDensity, ids.feed);
    push(b.companies, [c.id, c.domain, c.name, c.industry.id, c.employeeBand, c.employees, c.revenueBand, c.revenueUsd, c.street, c.city, c.state, c.postalCode, c.country.code, c.phone, c.foundedYear, c.website, c.logoUrl, c.linkedinUrl, c.crunchbaseUrl, c.description]);
    push(b.firmographics, [c.id, JSON.stringify(firmographicProfile(seed, c, people[0]))]);
    push(b.truthSegments, [c.id, segment.id, segment.industry.id, segment.tier, segment.region, segment.maturity]);
    for (const inst of found) {
      push(b.installs, [c.id, catalog.products[inst.product].id, new Date(inst.firstVerified).toISOString(), new Date(inst.lastVerified).toISOString(), inst.hitCount, inst.intensity, joinList(inst.sources)]);
    }
    for (const inst of installs) push(b.truthInstalls, [c.id, catalog.products[inst.product].id, inst.inUse, inst.kind]);
    for (const p of people) {
      push(b.people, [p.id, c.id, p.fullName, p.title, p.seniority, p.fn, p.country, p.city, p.linkedinUrl]);
      for (const k of p.contacts) push(b.contacts, [p.id, k.kind, k.value, k.type, k.verified]);
    }
    for (const f of feed) {
      push(b.feed, [f.id, c.id, new Date(f.publishedAt).toISOString(), f.title, f.description, f.sourceUrl, f.publisherName, f.publisherLogoUrl, f.enclosureImageUrl, f.category]);
    }
  }
}

function push(table: Record<string, unknown[]>, values: unknown[]): void {
  const columns = Object.values(table);
  for (let k = 0; k < columns.length; k++) columns[k].push(values[k]);
}

function taxonomyRows(catalog: Catalog) {
  return {
    industries: { id: INDUSTRIES.map((i) => i.id), name: INDUSTRIES.map((i) => i.name), sector: INDUSTRIES.map((i) => i.sector) },
    categories: {
      id: catalog.categories.map((c) => c.id), name: catalog.categories.map((c) => c.name), parent_id: catalog.categories.map((c) => c.parentId),
      level: catalog.categories.map((c) => c.level),
      description: catalog.categories.map((c) => (c.leaf ? `Software for ${c.name.toLowerCase()}.` : `${c.name}: ${catalog.categories.filter((k) => k.parentId === c.id).map((k) => k.name).join(', ')}.`)),
    },
  };
}

function catalogRows(catalog: Catalog) {
  const v = catalog.vendors;
  const p = catalog.products;
  return {
    vendors: { id: v.map((x) => x.id), domain: v.map((x) => x.domain), name: v.map((x) => x.name), website: v.map((x) => x.website), logo_url: v.map((x) => x.logoUrl), description: v.map((x) => x.description) },
    products: {
      id: p.map((x) => x.id), vendor_id: p.map((x) => x.vendorId), category_id: p.map((x) => x.categoryId), name: p.map((x) => x.name), short_name: p.map((x) => x.shortName),
      description: p.map((x) => x.description), features: p.map((x) => joinList(x.features)), review_count: p.map((x) => x.reviewCount),
      star_rating: p.map((x) => x.starRating), avg_rating: p.map((x) => x.avgRating), image_url: p.map((x) => x.imageUrl), product_url: p.map((x) => x.productUrl), public_detail_url: p.map((x) => x.publicDetailUrl),
    },
  };
}
