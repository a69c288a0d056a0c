// The demo world's companies, batch by batch: everything `seedWorld` writes per company
// (firmographics, the rendered site and what the detector finds in it, the true stack, people,
// contacts, the news feed), as table columns. Deterministic per (seed, scale, as-of, size):
// the same plan built twice — here on the main thread for the catalog and the cohorts, and
// in the generator thread (generate-worker.ts) for the companies — gives the same world.
// Companies are generated in order, one generator per world: domains and names are handed
// out first come, first served.
import { buildCatalog, type Catalog } from './catalog.ts';
import { buildSegments, cumulativeShares, drawSegment, type Segment } from './segments.ts';
import { generateCompany, type CompanyContext } from './companies.ts';
import { buildStackContext, generateStack, type StackContext } from './stacks.ts';
import { renderSite, type ArtifactWorld } from './artifacts.ts';
import { buildTraceKits } from './traces.ts';
import { observationRows, observe } from './observe.ts';
import { companyHistory, inHistoryPanel, type HistoryWorld } from './history.ts';
import { hiringEventRows, technologyEventRows } from '../../store/events.ts';
import { foldInstalls } from '../../technographics/installs.ts';
import { generatePeople } from './people.ts';
import { generateFeed } from './news.ts';
import { firmographicProfile } from './firmographics.ts';
import { makeIdCodec } from './rng.ts';
import { SCALES, type ScaleName, type ScalePreset } from './scale.ts';

import { ownTextCatalog, type CompiledCatalog } from '../../detect/catalog.ts';
import { emptyCompanyBatch, type CompanyBatch } from '../../store/seed.ts';

/** What fixes a world: equal plans generate equal worlds. */
export interface WorldPlan {
  companies: number;
  seed: string;
  scale: ScaleName;
  /** Milliseconds of the as-of day (UTC midnight). */
  asOfMs: number;
  /** Whether each company's observations (the evidence log rows) are generated too. */
  recordObservations: boolean;
  /** The share of companies (0-1) whose past is visited monthly (history.ts); the rest have today's artifacts only. */
  historyShare: number;
}

/** The parts of a world every company draws from: catalog, hidden segments, ids. */
export class WorldOutline {
  readonly scale: ScalePreset;
  readonly detector: CompiledCatalog;
  readonly catalog: Catalog;
  readonly segments: Segment[];
  /** Segment index of each company. */
  readonly segmentOf: Int32Array;
  /** Company indices of each segment, ascending. */
  readonly bySegment: number[][];
  readonly ids: { company(k: number): string; person(k: number): string; feed(k: number): string };

  /** `detector`: the catalog that finds the installs in the rendered pages (tests compare engines). */
  constructor(
    readonly plan: WorldPlan,
    detector: CompiledCatalog = ownTextCatalog(),
  ) {
    const { seed, companies: n } = plan;
    this.scale = SCALES[plan.scale];
    this.detector = detector;
    this.catalog = buildCatalog(seed, this.scale, this.detector.technologies);
    this.segments = buildSegments(seed, this.catalog, this.scale);
    const cumulative = cumulativeShares(this.segments);
    this.segmentOf = new Int32Array(n);
    this.bySegment = this.segments.map(() => []);
    for (let i = 0; i < n; i++) {
      this.segmentOf[i] = drawSegment(seed, i, cumulative);
      this.bySegment[this.segmentOf[i]!]!.push(i);
    }
    const companyId = makeIdCodec(seed, 'cmp');
    const personId = makeIdCodec(seed, 'per');
    const feedId = makeIdCodec(seed, 'feed');
    this.ids = { company: (k) => `cmp_${companyId(k)}`, person: (k) => `per_${personId(k)}`, feed: (k) => `fd_${feedId(k)}` };
  }
}

/** Generates the companies of a world in order; `batch(from, to)` must be called with consecutive ranges. */
export class CompanyGenerator {
  private readonly ctx: CompanyContext;
  private readonly stackCtx: StackContext;
  private readonly artifactWorld: ArtifactWorld;
  private readonly historyWorld: HistoryWorld;
  private readonly productIds: string[];
  private next = 0;
  /** When the world's rows were last updated: its as-of day. */
  private readonly updatedAt: Date;

  constructor(readonly outline: WorldOutline) {
    const { seed, asOfMs } = outline.plan;
    // Domains are handed out in company order: the sets make them unique per world.
    this.ctx = { seed, asOf: new Date(asOfMs), takenDomains: new Set(), takenNames: new Set(), companyId: outline.ids.company };
    this.stackCtx = buildStackContext(seed, asOfMs, outline.catalog);
    this.productIds = outline.catalog.products.map((p) => p.id);
    this.artifactWorld = { seed, asOfMs, catalog: outline.catalog, detector: outline.detector, kits: buildTraceKits(seed, outline.detector) };
    this.historyWorld = { ...this.artifactWorld, productIds: this.productIds };
    this.updatedAt = new Date(asOfMs);
  }

  /** The companies [from, to), added to `into` (a new batch by default). */
  batch(from: number, to: number, into: CompanyBatch = emptyCompanyBatch()): CompanyBatch {
    if (from !== this.next) throw new Error(`companies are generated in order: expected ${this.next}, asked for ${from}`);
    for (let i = from; i < to; i++) this.company(into, i);
    this.next = to;
    return into;
  }

  /** A panel company's visits, the events the change rules derive from them, and its true changes. */
  private past(b: CompanyBatch, companyId: string, history: ReturnType<typeof companyHistory>): void {
    for (const v of history.visits) b.siteVisits.add([companyId, v.at, 'demo-history', v.outcome, v.kinds, v.reason, Object.fromEntries(v.seen)]);
    for (const e of [...technologyEventRows(history.events), ...hiringEventRows(history.hiring)])
      b.events.add([e.id, e.type, e.companyId, e.subject, e.occurredAt, e.earliest, e.latest, e.detectedAt, e.confidence, e.evidence]);
    for (const t of history.truth) b.truthHistory.add([companyId, t.productId, t.period, t.from, t.until, t.detectable, t.visible]);
  }

  private company(b: CompanyBatch, i: number): void {
    const { outline } = this;
    const { seed, asOfMs } = outline.plan;
    const updatedAt = this.updatedAt;
    const { catalog, detector, scale } = outline;
    const segment = outline.segments[outline.segmentOf[i]!]!;
    const c = generateCompany(this.ctx, i, segment);
    const people = generatePeople(seed, c, scale.peopleDensity, outline.ids.person);
    const installs = generateStack(this.stackCtx, c);
    // The installs the API serves are what the detector finds in the company's artifacts: for a
    // company of the history panel, its monthly visits of two years (history.ts), else today's
    // crawl, an archived copy and its job posts.
    const history = inHistoryPanel(seed, i, outline.plan.historyShare) ? companyHistory(this.historyWorld, c, c.id, installs) : undefined;
    const observations =
      history?.observations ??
      observationRows(c.id, observe(renderSite(this.artifactWorld, c, installs).captures, detector), detector, this.productIds, catalog.productOfTechnology);
    if (history && outline.plan.recordObservations) this.past(b, c.id, history);
    if (outline.plan.recordObservations) {
      for (const row of observations) {
        b.observations.add([
          row.companyId,
          row.productId,
          row.seenAt,
          row.evidenceHash,
          row.source,
          row.ruleId,
          row.seenAt,
          row.evidence,
          row.weight,
          row.runId,
        ]);
      }
    }
    const feed = generateFeed(seed, asOfMs, c, people, installs, catalog, scale.newsDensity, outline.ids.feed);
    b.companies.add([
      c.id,
      c.domain,
      c.name,
      c.industry.id,
      c.employeeBand,
      c.employees,
      c.revenueBand,
      c.revenueUsd,
      c.street,
      c.city,
      c.state,
      c.postalCode,
      c.country.code,
      c.phone,
      c.foundedYear,
      c.website,
      c.logoUrl,
      c.linkedinUrl,
      c.crunchbaseUrl,
      c.description,
      updatedAt,
    ]);
    b.companyDomains.add([c.domain, c.id]);
    b.firmographics.add([c.id, firmographicProfile(seed, c, people[0]), updatedAt]);
    b.truthSegments.add([c.id, segment.id, segment.industry.id, segment.tier, segment.region, segment.maturity]);
    for (const inst of foldInstalls(observations)) {
      b.installs.add([c.id, inst.productId, new Date(inst.firstVerified), new Date(inst.lastVerified), inst.hitCount, inst.intensity, inst.sources]);
    }
    for (const inst of installs) b.truthInstalls.add([c.id, catalog.products[inst.product]!.id, inst.inUse, inst.kind]);
    for (const p of people) {
      b.people.add([p.id, c.id, p.fullName, p.title, p.seniority, p.fn, p.country, p.city, p.linkedinUrl]);
      for (const k of p.contacts) b.contacts.add([p.id, k.kind, k.value, k.type, k.verified]);
    }
    for (const f of feed) {
      b.feed.add([
        f.id,
        c.id,
        new Date(f.publishedAt),
        f.title,
        f.description,
        f.sourceUrl,
        f.publisherName,
        f.publisherLogoUrl,
        f.enclosureImageUrl,
        f.category,
      ]);
    }
  }
}
