// Observations, not overwrites: detection runs append what they saw to the
// observation log, and installs are derived from the log.
//
// - recordDetections: the site records of `stacklens detect --json` → one observation per
//   evidence item. A technology becomes the catalog product of the same vendor domain and
//   name (or short name, or alias); one the catalog lacks is added under its category of our
//   taxonomy (vendor too). A domain the database lacks gets a minimal company row unless
//   `createCompanies: false`, in which case its sites are skipped and counted.
// - deriveInstalls: rebuilds the installs of the (company, product) pairs that have
//   observations; installs without any (the operator's imports, the demo world's) are never
//   touched. A pair unseen for longer than the window is not in use any more: its install row
//   is removed. Changed companies are marked for the incremental refresh.
import { z } from 'zod';
import type { Db, Tx } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { normalizeDomain } from '../domain.ts';
import { BadRequestError } from '../errors.ts';
import { slugify } from '../slug.ts';
import { observationOf, type Observation } from '../technographics/observations.ts';
import { evidenceKinds, technologyChanges, type SeenProduct } from '../technographics/changes.ts';
import type { EvidenceSource } from '../technographics/evidence.ts';
import { hiringChanges } from '../technographics/hiring.ts';
import { companiesVisits, insertVisits, type VisitRow } from '../store/visits.ts';
import { hiringEventRows, insertEvents, technologyEventRows } from '../store/events.ts';
import { loadCatalog, type CompiledCatalog } from '../detect/catalog.ts';
import { siteResultReadSchema, type SiteResult } from '../schemas/detect.ts';
import {
  companiesForDomains,
  createProduct,
  deriveInstallsFromLog,
  insertObservations,
  matchProducts,
  type DeriveCounts,
  type TechnologyRef,
} from '../store/observations.ts';

/** Days after its last observation that a technology still counts as in use (DETECT_STALE_AFTER_DAYS). */
export const DEFAULT_STALE_AFTER_DAYS = 90;

/** Observations written per statement. */
const BATCH = 2000;

interface RecordOptions {
  /** The input the detections came from (crawl, artifacts, har, warc, jobs, api): kept in each observation's evidence as `input`. */
  source?: string;
  /** When the artifacts were seen, for site records without their own `seenAt`. Default: now. */
  seenAt?: Date;
  runId?: string;
  /** Add a minimal company for an unknown domain (default true). */
  createCompanies?: boolean;
  /** The technology catalog that names vendors and descriptions of new products (default: the built-in one). */
  catalog?: CompiledCatalog;
}

export interface RecordResult {
  /** Observations in the input (evidence items of recorded sites). */
  observations: number;
  /** Of them, new to the log (the rest were logged already for the same day). */
  added: number;
  sites: number;
  /** Ids of the companies the recorded sites belong to. */
  companyIds: string[];
  companiesCreated: number;
  productsCreated: number;
  /** Sites skipped: unknown domain with createCompanies false, or not a domain. */
  skippedSites: number;
  /** Technologies with no product and no category of our taxonomy to create one in. */
  unmappedTechnologies: string[];
  /** Visits (site records) new to the visit log. */
  visitsAdded: number;
  /** Technology events (adopted, dropped, version changed) the new visits revealed; published by the event publisher. */
  eventsAdded: number;
}

let builtIn: CompiledCatalog | undefined;
const builtInCatalog = () => (builtIn ??= loadCatalog());

/** Validates one site record (a parsed `--json` line); the error names the field. */
export function parseSiteResult(data: unknown, where = 'site'): z.output<typeof siteResultReadSchema> {
  const parsed = siteResultReadSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BadRequestError(`${[where, ...issue.path].filter((k) => k !== '').join('.') || 'record'}: ${issue.message}`);
  }
  return parsed.data;
}

export async function recordDetections(db: Db, siteResults: Iterable<SiteResult>, options: RecordOptions = {}): Promise<RecordResult> {
  const seenAtDefault = options.seenAt ?? nowDate();
  const sites = [...siteResults].map((s, i) => parseSiteResult(s, `sites[${i}]`));
  const catalog = options.catalog ?? builtInCatalog();
  const result: RecordResult = {
    observations: 0,
    added: 0,
    sites: 0,
    companyIds: [],
    companiesCreated: 0,
    productsCreated: 0,
    skippedSites: 0,
    unmappedTechnologies: [],
    visitsAdded: 0,
    eventsAdded: 0,
  };
  const byDomain = new Map<string, typeof sites>();
  for (const site of sites) {
    const domain = normalizeDomain(site.domain);
    if (!domain) {
      result.skippedSites++;
      continue;
    }
    const list = byDomain.get(domain);
    if (list) list.push(site);
    else byDomain.set(domain, [site]);
  }
  await db.transaction(async (tx) => {
    const companies = await companiesForDomains(tx, [...byDomain.keys()], options.createCompanies ?? true);
    result.companiesCreated = companies.created;
    // Only the technologies of sites that will be recorded get a product.
    const techs = new Map<string, TechnologyRef>();
    for (const [domain, list] of byDomain) {
      if (!companies.ids.has(domain)) continue;
      for (const site of list)
        for (const t of site.technologies) {
          const key = techKey(t.name, t.vendorDomain);
          if (techs.has(key)) continue;
          const info = catalog.technologies[catalog.byName.get(t.name) ?? -1];
          techs.set(key, {
            name: t.name,
            vendorDomain: t.vendorDomain.toLowerCase(),
            category: t.category,
            vendor: info?.vendor,
            website: info?.website,
            description: info?.description,
          });
        }
    }
    const refs = [...techs.entries()];
    const matched = await matchProducts(
      tx,
      refs.map(([, t]) => t),
    );
    const productOf = new Map<string, string | null>();
    for (let i = 0; i < refs.length; i++) {
      const [key, tech] = refs[i]!;
      let id = matched[i] ?? null;
      if (!id) {
        id = await createProduct(tx, tech, slugify(tech.name, '_') || 'technology');
        if (id) result.productsCreated++;
        else result.unmappedTechnologies.push(tech.name);
      }
      productOf.set(key, id);
    }

    let rows: Observation[] = [];
    const visits: VisitRow[] = [];
    const flush = async () => {
      result.added += await insertObservations(tx, rows);
      rows = [];
    };
    for (const [domain, list] of byDomain) {
      const companyId = companies.ids.get(domain);
      if (!companyId) {
        result.skippedSites += list.length;
        continue;
      }
      result.companyIds.push(companyId);
      for (const site of list) {
        result.sites++;
        const seenAt = site.seenAt ? new Date(site.seenAt) : seenAtDefault;
        const seen = new Map<string, SeenProduct>();
        for (const t of site.technologies) {
          const productId = productOf.get(techKey(t.name, t.vendorDomain));
          if (!productId) continue;
          const hashes: string[] = [];
          for (const e of t.evidence) {
            result.observations++;
            const row = observationOf(e, { companyId, productId, seenAt, input: options.source, runId: options.runId });
            hashes.push(row.evidenceHash);
            rows.push(row);
            if (rows.length >= BATCH) await flush();
          }
          seen.set(productId, seenProductOf(seen.get(productId), t, hashes));
        }
        // A record without its coverage (an older file, an upload) is a visit that shows no absence.
        const { outcome, kinds, reason } = site.visit ?? { outcome: 'partial', kinds: [], reason: 'coverage unknown' };
        visits.push({ companyId, at: seenAt, runId: options.runId ?? null, outcome, kinds, reason, seen });
      }
    }
    await flush();
    result.visitsAdded = await insertVisits(tx, visits);
    // The companies' technology events, folded again from their whole visit log (a visit may
    // arrive out of order); ids are stable, so the events already written are kept once.
    if (result.visitsAdded > 0) result.eventsAdded = await deriveTechnologyEvents(tx, [...new Set(visits.map((v) => v.companyId))]);
  });
  result.companyIds.sort();
  return result;
}

/** What a visit saw of a product: two technologies of one product (a rename, an alias) merge, the stronger claim leading. */
function seenProductOf(
  before: SeenProduct | undefined,
  t: { confidence: number; version?: string | undefined; evidence: readonly { source: EvidenceSource; ruleId: string; weight: number }[] },
  hashes: string[],
): SeenProduct {
  const kinds = [...new Set([...(before?.kinds ?? []), ...evidenceKinds(t.evidence)])].sort();
  const evidence = [...new Set([...(before?.evidence ?? []), ...hashes])];
  const jobPosts = [...new Set([...(before?.jobPosts ?? []), ...hashes.filter((_, i) => t.evidence[i]!.source === 'job')])];
  const stronger = !before || t.confidence > before.confidence;
  return {
    confidence: stronger ? t.confidence : before.confidence,
    version: (stronger ? t.version : before.version) ?? before?.version ?? t.version ?? null,
    kinds,
    evidence,
    ...(jobPosts.length > 0 ? { jobPosts } : {}),
  };
}

/** Folds each company's visits into technology events (changes and hiring) and writes the new ones (unpublished): one read, one write. */
async function deriveTechnologyEvents(tx: Tx, companyIds: readonly string[]): Promise<number> {
  const visits = await companiesVisits(tx, companyIds);
  const events = companyIds.flatMap((companyId) => {
    const log = visits.get(companyId) ?? [];
    return [...technologyEventRows(technologyChanges(companyId, log)), ...hiringEventRows(hiringChanges(companyId, log))];
  });
  return insertEvents(tx, events);
}

const techKey = (name: string, vendorDomain: string) => `${vendorDomain.toLowerCase()}\u0000${name}`;

interface DeriveOptions {
  /** The companies to rebuild (default: every company in the log). */
  companyIds?: string[];
  /** Days after the last observation a technology stays in use (default DEFAULT_STALE_AFTER_DAYS). */
  staleAfterDays?: number;
  /** The date the window ends at (default: now). */
  asOf?: Date;
}

/** Rebuilds installs from the log (see the header of this file) and marks changed companies for refresh. */
export async function deriveInstalls(db: Db, options: DeriveOptions = {}): Promise<DeriveCounts> {
  const days = options.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new BadRequestError(`staleAfterDays: must be a whole number of days ≥ 1, got ${days}`);
  if (options.companyIds && options.companyIds.length === 0) return { upserted: 0, expired: 0, companies: 0 };
  return db.transaction((tx) => deriveInstallsFromLog(tx, options.companyIds ?? null, options.asOf ?? nowDate(), days));
}
