// Changes from visits: the fold of one company's dated visits into technology events
// (adopted, dropped, version changed). It is the executable specification of the change rules
// users rely on:
// - a visit says something about absence only when it succeeded: a failed or partial fetch
//   (timeout, 5xx, challenge page, truncated body) never counts as a product's absence;
// - a product is absent from a visit only if that visit succeeded on a page kind the product
//   was evidenced on (a product seen on the careers page is not absent from a home-page visit);
// - job posts never show absence: they name a sample of a company's tools, and come and go with
//   its hiring, so a product seen only in job posts is never dropped by a job-board visit, and
//   one first claimed in a job post is no adoption (nothing showed it absent before);
// - a drop is declared after `dropAfter` consecutive such absences (default 2), never one;
// - an adoption needs a claim (the detector's threshold), not one weak trace, and a successful
//   visit before it on which the product was absent: what the first visits find is the baseline,
//   not a change;
// - a weak trace is neither a claim nor an absence: it keeps a present product present.
// Each event has bounds: the last visit that saw the old state and the first that saw the new
// one; `occurredAt` is their midpoint, `detectedAt` the visit that confirmed the change.
import { createHash } from 'node:crypto';
import { CLAIM_CONFIDENCE, traceStrength, type EvidenceItem, type EvidenceSource } from './evidence.ts';

/** What a visit can cover: the site's pages, its DNS records, its job posts. */
export const PAGE_KINDS = ['web', 'dns', 'jobs'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** The page kind an evidence item comes from: a product seen there is judged absent only by a visit that covered it. */
export function pageKindOf(source: EvidenceSource): PageKind {
  return source === 'dns' ? 'dns' : source === 'job' ? 'jobs' : 'web';
}

/**
 * The page kinds a detection is evidenced on, what its presence and absence are judged by: those
 * of its own traces. Two kinds of item do not count:
 * - an item carried by an implication (`X/implies/Y`: another product's trace) names Y's page
 *   kind only when Y has no trace of its own;
 * - beside a job post, traces too weak to make a claim without it: the claim stands on the post,
 *   and job posts show presence, never absence. Else a product named in a post, with a weak
 *   trace on the home page, would be "adopted" and "dropped" with each hiring wave.
 */
export function evidenceKinds(evidence: readonly Pick<EvidenceItem, 'source' | 'ruleId' | 'weight'>[]): PageKind[] {
  const own = evidence.filter((e) => !e.ruleId.includes('/implies/'));
  if (own.length === 0) return kindsOf(evidence);
  const pages = own.filter((e) => e.source !== 'job');
  if (pages.length < own.length && traceStrength(pages) < CLAIM_CONFIDENCE) return ['jobs'];
  return kindsOf(own);
}

const kindsOf = (evidence: readonly { source: EvidenceSource }[]): PageKind[] => [...new Set(evidence.map((e) => pageKindOf(e.source)))].sort();

/** How a visit went: only an `ok` visit can show that something is absent. */
export const VISIT_OUTCOMES = ['ok', 'partial', 'failed'] as const;
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number];

/** What one visit found of one product. */
export interface SeenProduct {
  /** The detection's confidence (1 − Π(1 − weight) over its traces). */
  confidence: number;
  version: string | null;
  /** The page kinds it was evidenced on in this visit (home, careers, dns, …). */
  kinds: readonly string[];
  /** The evidence hashes behind it (the log's identity of each item). */
  evidence: readonly string[];
  /** Of those, the job posts naming it (one hash per post excerpt): the hiring signal's input. */
  jobPosts?: readonly string[];
}

/** One collection of a company's artifacts: when, how it went, which page kinds it covered, what it found. */
export interface Visit {
  at: Date;
  outcome: VisitOutcome;
  /** The page kinds the visit fetched in full; absence is judged on these only. */
  kinds: readonly string[];
  /** By product id. */
  seen: ReadonlyMap<string, SeenProduct>;
}

/** Page kinds that name a sample of the tools, never all: they show presence, never absence. */
const SAMPLE_KINDS: ReadonlySet<string> = new Set<PageKind>(['jobs']);

export const TECHNOLOGY_EVENT_TYPES = ['technology.adopted', 'technology.dropped', 'technology.version_changed'] as const;
type TechnologyEventType = (typeof TECHNOLOGY_EVENT_TYPES)[number];

/** What every event about a company's product says: when (with bounds), how sure, on what evidence. */
export interface ProductEvent {
  /** Stable: the same log gives the same id (company, type, product, detectedAt). */
  id: string;
  companyId: string;
  productId: string;
  /** Best estimate: the midpoint of the bounds. */
  occurredAt: Date;
  /** The last visit that saw the old state. */
  earliest: Date;
  /** The first visit that saw the new state. */
  latest: Date;
  /** The visit that confirmed it (for a drop, the last of its consecutive absences). */
  detectedAt: Date;
  /** How sure it is, 0-1. */
  confidence: number;
  /** Evidence hashes of the observation log behind it. */
  evidence: readonly string[];
}

/** Confidence: the claim's; for a drop, 1 − missRate^absences. Evidence: of the claim, or of a drop's last presence. */
interface TechnologyEvent extends ProductEvent {
  type: TechnologyEventType;
  /** Version changes: the old and new version. */
  fromVersion?: string;
  toVersion?: string;
}

interface ChangeRules {
  /** Consecutive successful absences that make a drop (at least 1; default 2). */
  dropAfter: number;
  /** The confidence of a claim (default: the detector's threshold). */
  claimAt: number;
  /** The chance that one successful visit misses a product that is there: a drop's confidence is 1 − missRate^absences. */
  missRate: number;
}

export const DEFAULT_CHANGE_RULES: ChangeRules = { dropAfter: 2, claimAt: CLAIM_CONFIDENCE, missRate: 0.1 };

interface ProductState {
  present: boolean;
  /** Page kinds the product has been evidenced on while present. */
  kinds: Set<string>;
  /** The last visit that saw it (claim or trace) while present, or the last successful absence while absent. */
  lastStateAt: Date;
  version: string | null;
  versionAt: Date | null;
  evidence: readonly string[];
  /** Consecutive successful absences while present; the first of them. */
  absences: number;
  firstAbsenceAt: Date | null;
}

/**
 * Folds one company's visits (any order) into its technology events, oldest first. Products
 * never claimed give no event; the first successful visit is the baseline against which later
 * claims are adoptions.
 */
export function technologyChanges(companyId: string, visits: Iterable<Visit>, rules: ChangeRules = DEFAULT_CHANGE_RULES): TechnologyEvent[] {
  if (!(rules.dropAfter >= 1)) throw new RangeError('dropAfter must be at least 1');
  const ordered = [...visits].sort((a, b) => a.at.getTime() - b.at.getTime());
  const states = new Map<string, ProductState>();
  /** Per page kind, the last successful visit that covered it (an absent product's lower bound). */
  const lastOkByKind = new Map<string, Date>();
  const events: TechnologyEvent[] = [];
  const emit = (e: Omit<TechnologyEvent, 'id' | 'companyId' | 'occurredAt'>) =>
    events.push({ id: eventId(companyId, e.type, e.productId, e.detectedAt.toISOString()), companyId, occurredAt: midpoint(e.earliest, e.latest), ...e });

  for (const visit of ordered) {
    for (const [productId, seen] of visit.seen) {
      const claim = seen.confidence >= rules.claimAt;
      const state = states.get(productId);
      if (state?.present) {
        state.absences = 0;
        state.firstAbsenceAt = null;
        for (const kind of seen.kinds) state.kinds.add(kind);
        if (claim && seen.version !== null && state.version !== null && seen.version !== state.version) {
          emit({
            type: 'technology.version_changed',
            productId,
            earliest: state.versionAt ?? state.lastStateAt,
            latest: visit.at,
            detectedAt: visit.at,
            confidence: seen.confidence,
            fromVersion: state.version,
            toVersion: seen.version,
            evidence: seen.evidence,
          });
        }
        if (claim && seen.version !== null) ((state.version = seen.version), (state.versionAt = visit.at));
        else if (seen.version !== null && seen.version === state.version) state.versionAt = visit.at;
        state.lastStateAt = visit.at;
        if (claim) state.evidence = seen.evidence;
        continue;
      }
      if (!claim) continue;
      // Absent before, as a successful visit of a kind it is now evidenced on showed: an adoption.
      const absentSince = state ? state.lastStateAt : lastAbsence(seen.kinds, lastOkByKind);
      if (absentSince) {
        emit({
          type: 'technology.adopted',
          productId,
          earliest: absentSince,
          latest: visit.at,
          detectedAt: visit.at,
          confidence: seen.confidence,
          evidence: seen.evidence,
        });
      }
      states.set(productId, {
        present: true,
        kinds: new Set(seen.kinds),
        lastStateAt: visit.at,
        version: seen.version,
        versionAt: seen.version === null ? null : visit.at,
        evidence: seen.evidence,
        absences: 0,
        firstAbsenceAt: null,
      });
    }

    if (visit.outcome !== 'ok') continue;
    const covered = new Set(visit.kinds.filter((kind) => !SAMPLE_KINDS.has(kind)));
    for (const [productId, state] of states) {
      if (visit.seen.has(productId)) continue;
      if (!state.present) {
        if (intersects(state.kinds, covered)) state.lastStateAt = visit.at;
        continue;
      }
      if (!intersects(state.kinds, covered)) continue;
      state.absences += 1;
      state.firstAbsenceAt ??= visit.at;
      if (state.absences < rules.dropAfter) continue;
      emit({
        type: 'technology.dropped',
        productId,
        earliest: state.lastStateAt,
        latest: state.firstAbsenceAt,
        detectedAt: visit.at,
        confidence: 1 - rules.missRate ** state.absences,
        evidence: state.evidence,
      });
      state.present = false;
      state.lastStateAt = visit.at;
      state.absences = 0;
      state.firstAbsenceAt = null;
      state.version = null;
      state.versionAt = null;
    }
    for (const kind of covered) lastOkByKind.set(kind, visit.at);
  }
  return events;
}

/** The latest successful visit that covered one of these kinds (the product was not there), or null. */
function lastAbsence(kinds: readonly string[], lastOkByKind: ReadonlyMap<string, Date>): Date | null {
  let latest: Date | null = null;
  for (const kind of kinds) {
    const at = lastOkByKind.get(kind);
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

function midpoint(a: Date, b: Date): Date {
  return new Date(Math.round((a.getTime() + b.getTime()) / 2));
}

/**
 * `evt_` and 24 hex digits of SHA-256 over what identifies the event, its parts joined by the
 * unit separator (U+001F): the recipe of `event_id()` in migration 035, which names the events
 * written by SQL.
 */
export function eventId(...parts: readonly string[]): string {
  return `evt_${createHash('sha256').update(parts.join('\u001f')).digest('hex').slice(0, 24)}`;
}
