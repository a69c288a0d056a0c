// Peer sets of a company: competitors (≤ 50) and the Default, Defined and Aspirational
// cohorts, read from what the refresh job (or the import, for Defined) materialized.
import type { Db } from '../store/db.ts';
import type { CohortInput, CohortKind, CompetitorsInput } from '../schemas/intelligence.ts';
import { cohortMemberIds, cohortPage, countCohort } from '../store/cohorts.ts';
import type { CompanyRef } from '../store/companies.ts';
import { resolveCompany as resolveCompanyRow } from './companies.ts';
import { NotFoundError } from '../errors.ts';
import { requireDomain } from '../domain.ts';
import { toPage, type Page } from '../schemas/common.ts';
import { MAX_COMPETITORS } from '../intelligence/cohorts.ts';


export interface Peer {
  domain: string;
  name: string | null;
  logo: string | null;
}

/** Normalizes the domain (400 when invalid) and finds the company (404 when unknown). */
export async function resolveCompany(db: Db, domainInput: string, field = 'companyDomain'): Promise<CompanyRef> {
  const c = await resolveCompanyRow(db, requireDomain(domainInput, field));
  return { id: c.id, domain: c.domain, name: c.name, logo: c.logo_url };
}

/**
 * Member ids of a cohort, in rank order. A Defined cohort that was never imported is a
 * 404 "cohort not configured"; computed cohorts may legitimately be empty.
 */
export async function cohortMembers(db: Db, company: CompanyRef, kind: CohortKind): Promise<string[]> {
  const ids = await cohortMemberIds(db, company.id, kind);
  if (ids.length === 0 && kind === 'defined') throw notConfigured(company);
  return ids;
}

const notConfigured = (company: CompanyRef) => new NotFoundError(`Defined cohort not configured for company '${company.domain}'`);

const toPeer = (c: CompanyRef): Peer => ({ domain: c.domain, name: c.name, logo: c.logo });

async function peerPage(db: Db, company: CompanyRef, kind: CohortKind, page: number, size: number, cap?: number): Promise<Page<Peer>> {
  const total = Math.min(await countCohort(db, company.id, kind), cap ?? Number.MAX_SAFE_INTEGER);
  if (total === 0 && kind === 'defined') throw notConfigured(company);
  const offset = page * size;
  const limit = Math.max(0, Math.min(size, total - offset));
  const rows = limit > 0 ? await cohortPage(db, company.id, kind, offset, limit) : [];
  return toPage(rows.map(toPeer), total, size);
}


/** Up to 50 competitors, most alike first, as a page of Peer items. */
export async function listCompetitors(db: Db, input: CompetitorsInput): Promise<Page<Peer>> {
  const company = await resolveCompany(db, input.companyDomain);
  return peerPage(db, company, 'competitors', input.page, input.size, MAX_COMPETITORS);
}


/** Members of the company's Default, Defined or Aspirational cohort, as a page of Peer items. */
export async function listCohort(db: Db, input: CohortInput): Promise<Page<Peer>> {
  const company = await resolveCompany(db, input.companyDomain);
  return peerPage(db, company, input.cohort, input.page, input.size);
}
