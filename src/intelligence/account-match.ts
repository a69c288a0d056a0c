// How an uploaded account is matched to a company, as pure rules over plain data: the
// registrable label of a domain (for country-code variants: acme.de, acme.com, acme.co.uk),
// a company name without its legal form, and the decision over scored candidates (confident,
// ambiguous → review, or a miss). The store finds the candidates; services/lists.ts applies these.

/** Second-level labels under a two-letter country code that are part of the suffix (acme.co.uk, acme.com.au). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'ltd', 'plc', 'gv', 'go']);

/** The label a company registers under its suffix: acme.co.uk → acme, shop.acme.de → acme, acme.com → acme. */
export function registrableLabel(domain: string): string {
  const labels = domain.split('.');
  const n = labels.length;
  if (n >= 3 && labels[n - 1]!.length === 2 && SECOND_LEVEL.has(labels[n - 2]!)) return labels[n - 3]!;
  return labels[n - 2] ?? domain;
}

/** Legal forms and filler words dropped before names are compared. */
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'se',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'ab',
  'as',
  'asa',
  'aps',
  'pty',
  'kk',
  'group',
  'holding',
  'holdings',
  'the',
  'and',
]);

/** A company name compared: lowercase, accents and punctuation gone, legal forms dropped ("ACME, Inc." → "acme"). */
export function comparableName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  return (kept.length > 0 ? kept : words).join(' ');
}

/** Trigram similarity as pg_trgm computes it (words padded with two spaces before, one after). */
function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (const w of s.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w === '') continue;
    const p = `  ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  }
  return out;
}

export interface Candidate {
  companyId: string;
  name: string | null;
  country: string | null;
  score: number;
}

/** A name similarity at or above this with a clear lead is a match. */
const CONFIDENT_SCORE = 0.75;
/** The lead over the second candidate a confident match needs. */
const CONFIDENT_MARGIN = 0.15;
/** A best score this high that leads every other by FAIR_MARGIN is a match too (a typo in a one-word name scores about 0.5). */
const FAIR_SCORE = 0.5;
const FAIR_MARGIN = 0.3;
/** Below this, a candidate is not worth a person's review. */
const REVIEW_SCORE = 0.45;

export type Decision = { status: 'matched'; companyId: string; score: number } | { status: 'review'; candidates: Candidate[] } | { status: 'none' };

/**
 * Scores candidates by the names compared without legal forms (the better of that and the
 * database's score) and decides: one exact comparable name, or a best score ≥ CONFIDENT_SCORE
 * leading the next by CONFIDENT_MARGIN, or ≥ FAIR_SCORE leading by FAIR_MARGIN → matched; a best score ≥ REVIEW_SCORE → review with the
 * candidates (best first, up to 5); else none.
 */
export function decideByName(name: string, found: readonly Candidate[]): Decision {
  const wanted = comparableName(name);
  const scored = found
    .map((c) => ({ ...c, score: round(Math.max(c.score, c.name ? trigramSimilarity(wanted, comparableName(c.name)) : 0)) }))
    .sort((a, b) => b.score - a.score || a.companyId.localeCompare(b.companyId));
  const exact = scored.filter((c) => c.name !== null && comparableName(c.name) === wanted);
  if (exact.length === 1) return { status: 'matched', companyId: exact[0]!.companyId, score: 1 };
  if (exact.length > 1) return { status: 'review', candidates: exact.slice(0, 5) };
  const [best, next] = scored;
  if (!best || best.score < REVIEW_SCORE) return { status: 'none' };
  const lead = next ? best.score - next.score : best.score;
  // A clear best (≥ 0.75, 0.15 ahead), or a fair one (a typo's score) far ahead of any other.
  if ((best.score >= CONFIDENT_SCORE && lead >= CONFIDENT_MARGIN) || (best.score >= FAIR_SCORE && lead >= FAIR_MARGIN))
    return { status: 'matched', companyId: best.companyId, score: best.score };
  return { status: 'review', candidates: scored.filter((c) => c.score >= REVIEW_SCORE).slice(0, 5) };
}

/**
 * Among companies whose domain has the row's registrable label under another suffix: one
 * (that agrees with the row's name and country when given) → matched; several → narrowed by
 * country, then by name; still several → review; none left → none.
 */
export function decideByVariant(row: { name: string | null; country: string | null }, variants: readonly Candidate[]): Decision {
  let left = [...variants];
  if (row.country && left.some((c) => c.country === row.country)) left = left.filter((c) => c.country === row.country);
  if (row.name) {
    const wanted = comparableName(row.name);
    const scored = left.map((c) => ({ ...c, score: c.name ? round(trigramSimilarity(wanted, comparableName(c.name))) : 0 }));
    const agreeing = scored.filter((c) => c.score >= REVIEW_SCORE);
    if (agreeing.length === 0) return { status: 'none' };
    left = agreeing.sort((a, b) => b.score - a.score);
  }
  if (left.length === 1) return { status: 'matched', companyId: left[0]!.companyId, score: round(Math.min(0.95, Math.max(0.8, left[0]!.score))) };
  if (left.length > 1) return { status: 'review', candidates: left.slice(0, 5).map((c) => ({ ...c, score: round(c.score || 0.8) })) };
  return { status: 'none' };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
