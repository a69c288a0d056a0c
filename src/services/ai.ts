// The AI helpers: customers of products, the tech stack of a company, people profiles.
// Each call: the `ai` permission, prompt understanding (embedded parser or the optional
// model), grounded candidates from the data with calibrated probabilities, an audit row,
// and 404 when nothing matches. Transport-free: the REST routes and the MCP tools call these
// with the same validated input and show `understood` (what the prompt was read as).
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError, BadRequestError, NotFoundError, ServiceUnavailableError } from '../errors.ts';
import { DatabaseUnavailableError } from '../db/db-faults.ts';
import { outsideRequest } from '../db/query-limits.ts';
import type { CompanyFilter, TimeBounds } from '../store/ai.ts';
import { companyFacts } from '../store/companies.ts';
import { productUserCounts } from '../store/cousage.ts';
import { productsOf } from '../store/products.ts';
import type { ParsedQuery, TimeWindow } from '../intelligence/prompt/index.ts';
import { toPercent } from '../intelligence/peer-inference.ts';
import {
  evidenceReason,
  evidenceSource,
  howProductIsUsed,
  inferredReason,
  inferredSource,
  inferredUse,
  usageScope,
} from '../intelligence/suggestion-wording.ts';
import type { CustomerItem, CustomersInput, PeopleInput, PeopleItem, TechStackInput, TechStackItem } from '../schemas/ai.ts';
import { understandAiPrompt, type UnderstoodPrompt } from './ai-prompt.ts';
import { customerCandidates } from './ai-customers.ts';
import { peerShareOf, stackCandidates } from './ai-techstack.ts';
import { peopleSearchOf, rankPeople, toPeopleItem } from './ai-people.ts';
import { requireCompany } from './resolve.ts';
import { currentAsOf } from './stacks.ts';
import { audit } from './audit.ts';

export interface AiAnswer<T> {
  items: T[];
  understood: UnderstoodPrompt;
}

interface AiDeps {
  /** HTTP client for the optional model (tests). */
  fetch?: typeof fetch;
}

const DAY_MS = 86_400_000;

/** Firmographic restrictions of a parsed query. */
export function companyFilterOf(q: ParsedQuery): CompanyFilter {
  return {
    industryIds: q.industries.map((i) => i.id),
    countries: q.countries.map((c) => c.code),
    employeeBands: [...q.employeeRanges],
    revenueBands: [...q.revenueRanges],
  };
}

/** The evidence window of a parsed time phrase ("adopted in the last 6 months"), relative to the as-of date. */
function timeBoundsOf(t: TimeWindow | null, asOf: Date): TimeBounds | null {
  if (!t) return null;
  const field = t.field === 'adopted' ? 'first_verified' : 'last_verified';
  const since = t.withinDays !== undefined ? new Date(asOf.getTime() - t.withinDays * DAY_MS) : new Date(`${t.since}T00:00:00Z`);
  const until = t.until ? new Date(Date.parse(`${t.until}T00:00:00Z`) + DAY_MS) : null;
  return { field, since, until };
}

/**
 * Product ids a query names: its products first, then the products of its vendors and
 * categories (with sub-categories), most used first. Empty when it names none.
 */
export async function productsNamed(db: Db, q: ParsedQuery): Promise<string[]> {
  const direct = q.products.map((p) => p.id);
  const expanded = (
    await productsOf(
      db,
      q.vendors.map((v) => v.id),
      q.categories.map((c) => c.id),
    )
  )
    .map((p) => p.id)
    .filter((id) => !direct.includes(id));
  const users = await productUserCounts(db, expanded);
  expanded.sort((a, b) => (users.get(b) ?? 0) - (users.get(a) ?? 0) || (a < b ? -1 : 1));
  return [...new Set([...direct, ...expanded])];
}

/** What one AI call has got to: the prompt as understood (once it is), and whether its audit row is written. */
interface AiCallTrace {
  understood?: UnderstoodPrompt;
  audited?: boolean;
}

const understoodParams = (u: UnderstoodPrompt) => ({
  understood: u.described,
  parser: u.parser,
  ...(u.fallbackReason ? { fallbackReason: u.fallbackReason } : {}),
});

async function record(
  db: Db,
  principal: Principal,
  onBehalfOf: string,
  action: string,
  params: Record<string, unknown>,
  trace: AiCallTrace,
  understood: UnderstoodPrompt,
  count: number,
) {
  await audit(db, { clientId: principal.clientId, onBehalfOf, action, params: { ...params, ...understoodParams(understood) }, resultCount: count });
  trace.audited = true;
}

/** How to narrow a prompt of each helper that was too broad to answer in time. */
const NARROWING: Record<string, string> = {
  'ai.find_customers_of_products': 'name a product or vendor rather than a whole category, or add a country, industry or company size',
  'ai.find_techstacks_for_company': 'name the kind of product (a category or vendor) you want for the company',
  'ai.find_people_profiles': 'add a company, country, industry, title or seniority',
};

/**
 * Runs one AI call so that every call leaves an audit row: the helper records what it
 * answered (404s included); a call that fails before that is recorded here with the error,
 * outside the request's time limit (which may be what it ran out of). A call that ran out of
 * the time limit is answered with what to do about it: a prompt that broad is the usual cause.
 */
async function aiCall<T>(
  db: Db,
  principal: Principal,
  onBehalfOf: string,
  action: string,
  params: Record<string, unknown>,
  run: (trace: AiCallTrace) => Promise<T>,
): Promise<T> {
  const trace: AiCallTrace = {};
  try {
    return await run(trace);
  } catch (err) {
    const reported = err instanceof DatabaseUnavailableError && err.fault === 'timeout' ? tooBroad(err, action, trace.understood) : err;
    if (!trace.audited) {
      const error = reported instanceof AppError ? reported.message : 'internal error';
      await outsideRequest(() =>
        audit(db, {
          clientId: principal.clientId,
          onBehalfOf,
          action,
          outcome: 'failure',
          resultCount: null,
          params: { ...params, ...(trace.understood ? understoodParams(trace.understood) : {}), error },
        }),
      ).catch(() => {
        // The database may be what failed: the caller is told about the original failure.
      });
    }
    throw reported;
  }
}

function tooBroad(err: DatabaseUnavailableError, action: string, understood: UnderstoodPrompt | undefined): ServiceUnavailableError {
  const retryAfter = Number(err.headers['retry-after'] ?? 1);
  const read = understood ? ` (understood: ${understood.described})` : '';
  return new ServiceUnavailableError(
    `The prompt is too broad to answer within the time limit${read}. Narrow it: ${NARROWING[action] ?? 'be more specific'}; or retry after Retry-After seconds`,
    retryAfter,
  );
}

function nothingFound(what: string, understood: UnderstoodPrompt): NotFoundError {
  return new NotFoundError(`${what} (understood: ${understood.described})`);
}

export async function findCustomersOfProducts(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: CustomersInput,
  deps: AiDeps = {},
): Promise<AiAnswer<CustomerItem>> {
  const params = { prompt: input.prompt, size: input.size };
  return aiCall(db, principal, onBehalfOf, 'ai.find_customers_of_products', params, (trace) =>
    customersOfProducts(db, config, principal, onBehalfOf, input, deps, params, trace),
  );
}

async function customersOfProducts(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: CustomersInput,
  deps: AiDeps,
  params: Record<string, unknown>,
  trace: AiCallTrace,
): Promise<AiAnswer<CustomerItem>> {
  const understood = (trace.understood = await understandAiPrompt(db, config, input.prompt, 'customers', deps));
  const q = understood.query;
  const productIds = await productsNamed(db, q);
  let items: CustomerItem[] = [];
  if (productIds.length > 0) {
    const { asOf, population } = await currentAsOf(db);
    const ranked = await customerCandidates(db, {
      productIds,
      filter: companyFilterOf(q),
      time: timeBoundsOf(q.timeWindow, asOf),
      asOf,
      population,
      limit: input.size,
    });
    const facts = new Map(
      (
        await companyFacts(
          db,
          ranked.map((r) => r.companyId),
        )
      ).map((c) => [c.id, c]),
    );
    items = ranked.flatMap((r): CustomerItem[] => {
      const c = facts.get(r.companyId);
      if (!c) return [];
      const base = {
        companyName: c.name,
        companyDomain: c.domain,
        country: c.country,
        industry: c.industry,
        productId: r.productId,
        product: r.product,
        probability: toPercent(r.probability),
      };
      if (r.kind === 'observed' && r.evidence) {
        const e = r.evidence;
        return [
          {
            ...base,
            howProductIsUsed: howProductIsUsed(e.category, e.intensity),
            scope: usageScope(e.intensity),
            source: evidenceSource(e),
            evidence: 'observed' as const,
            dateFirstVerified: e.firstVerified.toISOString(),
            dateLastVerified: e.lastVerified.toISOString(),
          },
        ];
      }
      const use = inferredUse(r.category, r.peerIntensity ?? null);
      return [{ ...base, ...use, source: inferredSource(peerShareOf(r.signal!)), evidence: 'inferred' as const }];
    });
  }
  await record(db, principal, onBehalfOf, 'ai.find_customers_of_products', params, trace, understood, items.length);
  if (productIds.length === 0) throw nothingFound('No product, vendor or category recognized in the prompt', understood);
  if (items.length === 0) throw nothingFound('No company matches', understood);
  return { items, understood };
}

export async function findTechStacksForCompany(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: TechStackInput,
  deps: AiDeps = {},
): Promise<AiAnswer<TechStackItem>> {
  const params = { prompt: input.prompt ?? null, companyDomain: input.companyDomain ?? null, size: input.size };
  return aiCall(db, principal, onBehalfOf, 'ai.find_techstacks_for_company', params, (trace) =>
    techStacksForCompany(db, config, principal, onBehalfOf, input, deps, params, trace),
  );
}

async function techStacksForCompany(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: TechStackInput,
  deps: AiDeps,
  params: Record<string, unknown>,
  trace: AiCallTrace,
): Promise<AiAnswer<TechStackItem>> {
  const prompt = input.prompt?.trim() ?? '';
  // The schema normalized the domain (an invalid one is a 400 whatever the prompt says); blank is absent.
  const domain = input.companyDomain;
  if (prompt === '' && domain === undefined) throw new BadRequestError('prompt or companyDomain: give at least one (neither may be empty)');
  const explicit = domain !== undefined ? await requireCompany(db, domain) : null;
  const understood = (trace.understood = await understandAiPrompt(db, config, prompt || domain!, 'techstack', deps));
  const q = understood.query;
  const named = q.companies.find((c) => c.id);
  const companyId = explicit?.id ?? named?.id ?? null;
  let items: TechStackItem[] = [];
  let restricted = false;
  if (companyId) {
    restricted = q.products.length + q.vendors.length + q.categories.length > 0;
    const restrict = restricted ? new Set(await productsNamed(db, q)) : null;
    const { asOf, population } = await currentAsOf(db);
    const c = await stackCandidates(db, companyId, asOf, population, restrict);
    const all: (TechStackItem & { sortKey: string })[] = [
      ...c.observed.map(({ evidence: e, probability }) => ({
        software: e.product,
        productId: e.productId,
        vendorDomain: e.vendorDomain,
        category: e.category,
        reason: evidenceReason(e, probability),
        source: evidenceSource(e),
        evidence: 'observed' as const,
        probability: toPercent(probability),
        dateFirstVerified: e.firstVerified.toISOString(),
        dateLastVerified: e.lastVerified.toISOString(),
        sortKey: e.productId,
      })),
      ...c.inferred.map((i) => ({
        software: i.product,
        productId: i.productId,
        vendorDomain: i.vendorDomain,
        category: i.category,
        reason: inferredReason({ ...i.signal, coUsedWith: i.coUsedWith }),
        source: inferredSource(peerShareOf(i.signal)),
        evidence: 'inferred' as const,
        probability: toPercent(i.probability),
        sortKey: i.productId,
      })),
    ];
    all.sort(
      (a, b) => b.probability - a.probability || (a.evidence === b.evidence ? 0 : a.evidence === 'observed' ? -1 : 1) || (a.sortKey < b.sortKey ? -1 : 1),
    );
    items = all.slice(0, input.size).map(({ sortKey: _k, ...item }) => item);
  }
  await record(db, principal, onBehalfOf, 'ai.find_techstacks_for_company', params, trace, understood, items.length);
  if (!companyId) {
    const unknown = q.companies.find((x) => !x.id);
    throw nothingFound(
      unknown ? `Company '${unknown.domain ?? unknown.name ?? unknown.text}' not found` : 'No known company recognized in the prompt; pass companyDomain',
      understood,
    );
  }
  if (items.length === 0)
    throw nothingFound(restricted ? 'No evidenced or likely product of the kind asked for' : 'No evidenced or likely product for this company', understood);
  return { items, understood };
}

export async function findPeopleProfiles(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: PeopleInput,
  deps: AiDeps = {},
): Promise<AiAnswer<PeopleItem>> {
  const params = { prompt: input.prompt, size: input.size };
  return aiCall(db, principal, onBehalfOf, 'ai.find_people_profiles', params, (trace) =>
    peopleProfiles(db, config, principal, onBehalfOf, input, deps, params, trace),
  );
}

async function peopleProfiles(
  db: Db,
  config: Pick<Config, 'ai'>,
  principal: Principal,
  onBehalfOf: string,
  input: PeopleInput,
  deps: AiDeps,
  params: Record<string, unknown>,
  trace: AiCallTrace,
): Promise<AiAnswer<PeopleItem>> {
  const understood = (trace.understood = await understandAiPrompt(db, config, input.prompt, 'people', deps));
  const { asOf } = await currentAsOf(db);
  const search = await peopleSearchOf(db, understood.query, asOf);
  const items = search ? (await rankPeople(db, search, input.size)).map(toPeopleItem) : [];
  await record(db, principal, onBehalfOf, 'ai.find_people_profiles', params, trace, understood, items.length);
  if (!search) throw nothingFound('Nothing in the prompt identifies people (titles, seniority, functions, known companies, places)', understood);
  if (items.length === 0) throw nothingFound('No profile matches', understood);
  return { items, understood };
}
