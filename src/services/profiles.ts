// People profiles: search (a page, or every match streamed for an export) and one profile,
// with contact details only once this client has bought them. Transport-free: the REST
// routes and the MCP tools call these with the same validated input.
import type { Db } from '../db/db.ts';
import type { Principal } from '../auth/principal.ts';
import { normalizeCountry } from '../countries.ts';
import { BadRequestError } from '../errors.ts';
import { checkResultWindow, toPage, type Page } from '../schemas/common.ts';
import { PROFILE_CSV_COLUMNS, type ProfileDetail, type ProfileSearchInput, type ProfileSummary } from '../schemas/profiles.ts';
import { countProfiles, findProfile, findProfileBatch, findProfilePage, type ProfileFilter } from '../store/profiles.ts';
import { findContacts, findPurchase } from '../store/purchases.ts';
import { audited } from './exports.ts';
import { nowDate } from '../clock.ts';
import { notFound, requireCompanies, requireIndustries } from './resolve.ts';
import { expandTitles } from '../intelligence/people-match.ts';

/** Rows read per query while streaming an export. */
const EXPORT_BATCH_SIZE = 1000;

type FilterInput = Omit<ProfileSearchInput, 'page' | 'size'>;

const FILTER_NAMES = 'query, titles, seniority, functions, countries, companyDomains, industries';

/** Trimmed, non-blank, de-duplicated values of a list filter. */
function values(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map((s) => s.trim()).filter((s) => s !== ''))];
}

/**
 * Validates and resolves the filters: at least one meaningful filter (400), countries
 * well-formed (400), referenced companies and industries known (404). Domains arrive
 * normalized by the schema.
 */
async function resolveProfileFilter(db: Db, input: FilterInput): Promise<ProfileFilter> {
  const terms = values((input.query ?? '').split(/\s+/));
  // Whole words or phrases; a C-level acronym also finds its spelled-out form (CTO → Chief Technology Officer).
  const titles = expandTitles(values(input.titles));
  const seniority = values(input.seniority).map((s) => s.toLowerCase());
  const functions = values(input.functions).map((s) => s.toLowerCase());
  const countryValues = values(input.countries);
  const domainValues = values(input.companyDomains);
  const industryValues = values(input.industries);
  const meaningful = [terms, titles, seniority, functions, countryValues, domainValues, industryValues].some((l) => l.length > 0);
  if (!meaningful) {
    throw new BadRequestError(`body: at least one meaningful filter is required (${FILTER_NAMES}); empty lists and blank strings do not count`);
  }

  const countries = countryValues.map((c) => {
    const code = normalizeCountry(c);
    if (!code) throw new BadRequestError(`countries: '${c.slice(0, 80)}' is neither an ISO 3166-1 alpha-2 code nor a country name`);
    return code;
  });

  const companyIds = (await requireCompanies(db, domainValues, 'companyDomains')).map((c) => c.id);
  const industryIds = [...new Set((await requireIndustries(db, industryValues, 'industries')).map((r) => r.id))];

  return { terms, titles, seniority, functions, countries: [...new Set(countries)], companyIds, industryIds };
}

/** A page of profile summaries, ordered by id. Never includes emails or phones. */
export async function searchProfiles(db: Db, input: ProfileSearchInput): Promise<Page<ProfileSummary>> {
  checkResultWindow(input.page, input.size);
  const filter = await resolveProfileFilter(db, input);
  const total = await countProfiles(db, filter);
  const offset = input.page * input.size;
  const content = offset < total ? await findProfilePage(db, filter, offset, input.size) : [];
  return toPage(content, total, input.size);
}

interface ProfileExport {
  fileName: string;
  columns: readonly (keyof ProfileSummary)[];
  /** Every match, read in keyset batches; audited when the stream ends (or breaks off). */
  rows: AsyncIterable<ProfileSummary>;
}

/**
 * Every matching profile, for a CSV export. Filters are checked before anything streams,
 * so bad input is still a clean 4xx. The audit entry records the rows actually delivered.
 */
export async function exportProfiles(db: Db, principal: Principal, onBehalfOf: string, input: FilterInput): Promise<ProfileExport> {
  const filter = await resolveProfileFilter(db, input);
  const params = { ...stripPaging(input) };
  async function* batches(): AsyncGenerator<ProfileSummary> {
    let after: string | null = null;
    for (;;) {
      const batch = await findProfileBatch(db, filter, after, EXPORT_BATCH_SIZE);
      yield* batch;
      if (batch.length < EXPORT_BATCH_SIZE) break;
      after = batch[batch.length - 1]!.id;
    }
  }
  const rows = audited(db, batches(), { actor: { clientId: principal.clientId, onBehalfOf }, action: 'profiles.export', params });
  const stamp = nowDate().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return { fileName: `profiles-${stamp}.csv`, columns: PROFILE_CSV_COLUMNS, rows };
}

function stripPaging(input: FilterInput & { page?: unknown; size?: unknown }): FilterInput {
  const { page: _page, size: _size, ...filters } = input;
  return filters;
}

/** One profile; emails and phones only when this client has purchased it. */
export async function getProfile(db: Db, clientId: string, profileId: string): Promise<ProfileDetail> {
  const profile = await findProfile(db, profileId);
  if (!profile) throw notFound('profileId', 'profile', profileId);
  const purchase = await findPurchase(db, clientId, profileId);
  if (!purchase) return { ...profile, purchased: false, purchasedAt: null };
  const contacts = await findContacts(db, [profileId]);
  return {
    ...profile,
    purchased: true,
    purchasedAt: purchase.purchasedAt.toISOString(),
    emails: contacts.filter((c) => c.kind === 'email').map((c) => ({ value: c.value, type: c.type, verified: c.verified })),
    phones: contacts.filter((c) => c.kind === 'phone').map((c) => ({ value: c.value, type: c.type })),
  };
}
