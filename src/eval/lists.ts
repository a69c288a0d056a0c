// `stacklens eval lists`: matching of a noisy account list made from the world's companies, with
// known answers. Each sampled company becomes one row of one kind of noise — www and a scheme,
// a country-code variant of its domain, a subdomain, a typo in its name, its name with a legal
// form, its name in capitals without a country — and made-up accounts that exist nowhere are
// mixed in. Precision: matched rows that name the right company; recall: rows of real companies
// matched to the right one (rows left in review count as not matched).
import type { Db } from '../db/db.ts';
import { matchRows, type ParsedRow } from '../services/lists.ts';
import { sampleNamedCompanies } from '../store/lists.ts';
import { registrableLabel } from '../intelligence/account-match.ts';

/** The figures the issue asks for. */
export const LIST_MATCH_GOALS = { precision: 0.97, recall: 0.92 } as const;

const KINDS = ['www', 'cctld', 'subdomain', 'typo', 'legal_form', 'no_country'] as const;

export interface ListsEvalReport {
  rows: number;
  real: number;
  matched: number;
  correct: number;
  review: number;
  precision: number;
  recall: number;
  byKind: Record<string, { rows: number; correct: number; wrong: number; review: number }>;
}

/** Swaps two letters in the middle of the longest word (a typo that keeps the name readable). */
function typo(name: string): string {
  const words = name.split(' ');
  let at = 0;
  words.forEach((w, i) => {
    if (w.length > words[at]!.length) at = i;
  });
  const w = words[at]!;
  if (w.length < 5) return `${name}s`;
  const i = Math.floor(w.length / 2);
  words[at] = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  return words.join(' ');
}

function variantDomain(domain: string): string {
  const label = registrableLabel(domain);
  return domain.endsWith('.com') ? `${label}.de` : `${label}.com`;
}

export async function evaluateListMatching(db: Db, options: { companies?: number } = {}): Promise<ListsEvalReport> {
  const companies = await sampleNamedCompanies(db, options.companies ?? 2000);
  const rows: (ParsedRow & { truth: string | null; kind: string })[] = [];
  companies.forEach((c, i) => {
    const kind = KINDS[i % KINDS.length]!;
    const line = rows.length + 2;
    const base = { line, data: {}, truth: c.id, kind, country: c.country };
    if (kind === 'www') rows.push({ ...base, key: c.domain, domain: c.domain, name: null });
    else if (kind === 'cctld') rows.push({ ...base, key: variantDomain(c.domain), domain: variantDomain(c.domain), name: c.name });
    else if (kind === 'subdomain') rows.push({ ...base, key: `shop.${c.domain}`, domain: `shop.${c.domain}`, name: null, country: null });
    else if (kind === 'typo') rows.push({ ...base, key: `t${i}`, domain: null, name: typo(c.name!) });
    else if (kind === 'legal_form') rows.push({ ...base, key: `l${i}`, domain: null, name: `${c.name} ${c.country === 'DE' ? 'GmbH' : 'Inc.'}` });
    else rows.push({ ...base, key: `n${i}`, domain: null, name: c.name!.toUpperCase(), country: null });
    if (i % 10 === 0) {
      const fake = `Zqx${i} Vrolmant Plexidor`;
      rows.push({
        line: rows.length + 2,
        key: `f${i}`,
        domain: `zqx${i}-vrolmant.example`,
        name: fake,
        country: c.country,
        data: {},
        truth: null,
        kind: 'made_up',
      });
    }
  });
  const result = await matchRows(db, rows);
  const byKind: ListsEvalReport['byKind'] = {};
  let matched = 0;
  let correct = 0;
  let review = 0;
  result.forEach((r, i) => {
    const row = rows[i]!;
    const k = (byKind[row.kind] ??= { rows: 0, correct: 0, wrong: 0, review: 0 });
    k.rows++;
    if (r.status === 'review') {
      review++;
      k.review++;
    }
    if (r.status !== 'matched') return;
    matched++;
    if (r.companyId === row.truth) {
      correct++;
      k.correct++;
    } else k.wrong++;
  });
  const real = rows.filter((r) => r.truth !== null).length;
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    rows: rows.length,
    real,
    matched,
    correct,
    review,
    precision: round(matched ? correct / matched : 1),
    recall: round(real ? correct / real : 0),
    byKind,
  };
}

export function formatListsEval(r: ListsEvalReport): string {
  const lines = [
    `Account-list matching: ${r.rows} rows (${r.real} of real companies), ${r.matched} matched, ${r.review} in review`,
    `precision ${r.precision} (goal ≥ ${LIST_MATCH_GOALS.precision}), recall ${r.recall} (goal ≥ ${LIST_MATCH_GOALS.recall})`,
  ];
  for (const [k, v] of Object.entries(r.byKind)) lines.push(`  ${k.padEnd(11)} rows ${v.rows}  correct ${v.correct}  wrong ${v.wrong}  review ${v.review}`);
  return lines.join('\n');
}
