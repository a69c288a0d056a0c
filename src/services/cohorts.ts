// Peer sets of a company: competitors (≤ 50) and the Default, Defined and Aspirational
// cohorts, read from what the refresh job (or the import, for Defined) materialized.
import type { Db } from '../db/db.ts';
import type { CohortInput, CohortKind, CompetitorsInput, Peer } from '../schemas/intelligence.ts';
import { cohortMemberIds, cohortPage, countCohort } from '../store/cohorts.ts';
import type { CompanyRef } from '../store/companies.ts';
import { NotFoundError } from '../errors.ts';
import { requireCompany } from './resolve.ts';
import { toPage, type Page } from '../schemas/common.ts';
import { MAX_COMPETITORS } from '../intelligence/cohorts.ts';

/** What a peer-set read needs of the company. */
type Company = Pick<CompanyRef, 'id' | 'domain'>;

/**
 * Member ids of a cohort, in rank order. A Defined cohort that was never imported is a
 * 404 "cohort not configured"; computed cohorts may legitimately be empty.
 */
export async function cohortMembers(db: Db, company: Company, kind: CohortKind): Promise<string[]> {
  const ids = await cohortMemberIds(db, company.id, kind);
  if (ids.length === 0 && kind === 'defined') throw notConfigured(company);
  return ids;
}

const notConfigured = (company: Company) => new NotFoundError(`Defined cohort not configured for company '${company.domain}'`);

const toPeer = (c: CompanyRef): Peer => ({ domain: c.domain, name: c.name, logo: c.logo });

async function peerPage(db: Db, company: Company, kind: CohortKind, page: number, size: number, cap?: number): Promise<Page<Peer>> {
  const total = Math.min(await countCohort(db, company.id, kind), cap ?? Number.MAX_SAFE_INTEGER);
  if (total === 0 && kind === 'defined') throw notConfigured(company);
  const offset = page * size;
  const limit = Math.max(0, Math.min(size, total - offset));
  const rows = limit > 0 ? await cohortPage(db, company.id, kind, offset, limit) : [];
  return toPage(rows.map(toPeer), total, size);
}

/** Up to 50 competitors, most alike first, as a page of Peer items. */
export async function listCompetitors(primary: Db, input: CompetitorsInput): Promise<Page<Peer>> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const company = await requireCompany(db, input.companyDomain);
  return peerPage(db, company, 'competitors', input.page, input.size, MAX_COMPETITORS);
}

/** Members of the company's Default, Defined or Aspirational cohort, as a page of Peer items. */
export async function listCohort(primary: Db, input: CohortInput): Promise<Page<Peer>> {
  const db = primary.read; // a replica when configured (Db.read in db/db.ts)
  const company = await requireCompany(db, input.companyDomain);
  return peerPage(db, company, input.cohort, input.page, input.size);
}
