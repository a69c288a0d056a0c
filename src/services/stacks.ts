// Shared by the intelligence services: the as-of date recency is measured from, and the
// in-use stacks of a few companies (installs whose evidence says in use at that date).
import type { Db, Queryable } from '../db/db.ts';
import { nowDate } from '../clock.ts';
import { installSignals, materializedStackIds, materializedStacks, type InstallSignalRow, type StackProductRow } from '../store/evidence.ts';
import { latestRefreshRun, newestVerification } from '../store/intelligence.ts';
import { inUseConfidence, IN_USE_THRESHOLD } from '../intelligence/confidence.ts';
import { evidenceAsOf, type InstallSignal } from '../technographics/installs.ts';

/** The as-of date recency is measured from (technographics/installs.ts evidenceAsOf), unless overridden. */
export async function resolveAsOf(db: Queryable, override?: Date): Promise<Date> {
  return override ?? evidenceAsOf(await newestVerification(db), nowDate());
}

/** The as-of date of the latest refresh (so requests agree with the materialized cohorts). */
export async function currentAsOf(db: Db): Promise<{ asOf: Date; population: number }> {
  const run = await latestRefreshRun(db);
  const asOf = typeof run?.params.asOf === 'string' ? new Date(run.params.asOf) : await resolveAsOf(db);
  const population = typeof run?.params.population === 'number' ? run.params.population : 0;
  return { asOf, population };
}

export function toInstallSignal(row: Pick<InstallSignalRow, 'firstVerified' | 'lastVerified' | 'hitCount' | 'intensity' | 'sourceCount'>): InstallSignal {
  return {
    firstVerified: row.firstVerified.getTime(),
    lastVerified: row.lastVerified.getTime(),
    hitCount: row.hitCount,
    intensity: row.intensity,
    sourceCount: row.sourceCount,
  };
}

type ScoredInstall = InstallSignalRow & { confidence: number };

/** In-use installs per company id (every requested company has an entry, maybe empty). */
export async function inUseStacks(db: Db, companyIds: string[], asOf: Date): Promise<Map<string, ScoredInstall[]>> {
  const stacks = new Map<string, ScoredInstall[]>(companyIds.map((id) => [id, []]));
  if (companyIds.length === 0) return stacks;
  const asOfMs = asOf.getTime();
  for (const row of await installSignals(db, companyIds)) {
    const confidence = inUseConfidence(toInstallSignal(row), asOfMs);
    if (confidence >= IN_USE_THRESHOLD) stacks.get(row.companyId)?.push({ ...row, confidence });
  }
  return stacks;
}

/**
 * In-use stacks at the latest refresh, per company id (every requested company has an
 * entry): read from company_stacks, which the refresh writes at its as-of date, so usage,
 * comparisons and related products cost a few short rows per peer. A company the refresh has
 * not reached yet (imported since) is scored from its evidence at the same as-of date, so
 * both paths agree. Evidence changed after the refresh shows once the next refresh has run
 * (`stacklens import` runs it), as cohorts do.
 */
export async function currentStacks(db: Db, companyIds: string[], asOf: Date): Promise<Map<string, StackProductRow[]>> {
  const stored = await materializedStacks(db, companyIds);
  const missing = companyIds.filter((id) => !stored.has(id));
  const live = missing.length > 0 ? await inUseStacks(db, missing, asOf) : new Map<string, StackProductRow[]>();
  return new Map(companyIds.map((id) => [id, stored.get(id) ?? live.get(id) ?? []]));
}

/** currentStacks without the product names: each company's in-use product ids. */
export async function currentStackIds(db: Db, companyIds: string[], asOf: Date): Promise<Map<string, string[]>> {
  const stored = await materializedStackIds(db, companyIds);
  const missing = companyIds.filter((id) => !stored.has(id));
  const live = missing.length > 0 ? await inUseStacks(db, missing, asOf) : new Map<string, ScoredInstall[]>();
  return new Map(companyIds.map((id) => [id, stored.get(id) ?? live.get(id)?.map((r) => r.productId) ?? []]));
}
