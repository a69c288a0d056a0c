// Numbers in prompts: head counts ("more than 1000 employees", "50-200 staff", "5k+ people"),
// revenue ("over $1B revenue", "$10M-$50M ARR") and time windows ("last 6 months",
// "since March 2024", "in 2023"), each mapped onto the exact band labels or a window.
import { EMPLOYEE_BAND_FLOORS, EMPLOYEE_BANDS, REVENUE_BAND_FLOORS, REVENUE_BANDS, type EmployeeBand, type RevenueBand, type TimeWindow } from './schema.ts';

interface Found<T> {
  start: number;
  end: number;
  value: T;
}

/** A numeric interval [lo, hi); `point` when the prompt gave one number ("about 300"). */
interface Interval {
  lo: number;
  hi: number;
  point?: number;
}

const NUM = String.raw`\d{1,3}(?:[,.]\d{3})+|\d+(?:\.\d+)?`;
const UNIT = String.raw`k|thousand|m|mm|mn|million|b|bn|billion`;
const MORE = String.raw`more than|greater than|over|above|upwards of|in excess of|at least|minimum of|min\.?|>=|>|≥`;
const LESS = String.raw`less than|fewer than|under|below|up to|at most|maximum of|max\.?|<=|<|≤`;
const ABOUT = String.raw`around|about|approximately|approx\.?|roughly|~|between|from`;
const CUR = String.raw`\$|usd\s?|us\$|€|eur\s?|£`;
/** Lets "more  than" (two spaces) match "more than". */
const spaced = (alternatives: string) => alternatives.replace(/ /g, String.raw`\s+`);

// comparator? currency? number unit? ( - | to | and  currency? number unit? )? +? ( or more | or less ...)?
const AMOUNT_RE = new RegExp(
  String.raw`(?<![\w$€£.])(?:(?<cmp>${spaced(`${MORE}|${LESS}|${ABOUT}`)})\s*)?(?<c1>${CUR})?(?<n1>${NUM})\s?(?<u1>${UNIT})?(?![\w])` +
    String.raw`(?:\s*(?:-|–|—|to|and)\s*(?<c2>${CUR})?(?<n2>${NUM})\s?(?<u2>${UNIT})?(?![\w]))?` +
    String.raw`(?<plus>\s?\+)?(?<tail>\s+(?:${spaced('or more|and up|and above|or above|plus|or less|or fewer|and below|or below')}))?`,
  'giu',
);
const EMPLOYEE_AFTER = /^\s*(?:full[- ]time\s+)?(?:employees?|staff|people|persons|workers|ftes?|headcount|team members|heads|seats)\b/i;
const EMPLOYEE_BEFORE = /\b(?:employees?|staff|headcount|workforce|team size|company size)\s*(?:of|:|=|is|with|between|from)?\s*$/i;
const REVENUE_AFTER = /^\s*(?:\+\s*)?(?:usd\s+|dollars\s+)?(?:(?:in|of)\s+)?(?:annual\s+|yearly\s+|total\s+)?(?:revenues?|arr|turnover|sales)\b/i;
const REVENUE_BEFORE = /\b(?:revenues?|arr|turnover|annual sales|sales of|making|earning|earns|makes)\s*(?:of|:|=|is|are|with|between|from)?\s*$/i;

function toNumber(n: string, unit: string | undefined): number {
  let v: number;
  // "1,000" and "1.000" group thousands; "1.5" is a decimal.
  if (/^\d{1,3}(?:[,.]\d{3})+$/.test(n)) v = Number(n.replace(/[,.]/g, ''));
  else v = Number(n);
  switch ((unit ?? '').toLowerCase()) {
    case 'k':
    case 'thousand':
      return v * 1e3;
    case 'm':
    case 'mm':
    case 'mn':
    case 'million':
      return v * 1e6;
    case 'b':
    case 'bn':
    case 'billion':
      return v * 1e9;
    default:
      return v;
  }
}

function intervalOf(g: Record<string, string | undefined>, sharedUnit: boolean): Interval | null {
  const u1 = g.u1 ?? (sharedUnit ? g.u2 : undefined);
  const a = toNumber(g.n1!, u1);
  if (!Number.isFinite(a)) return null;
  const cmp = (g.cmp ?? '').toLowerCase().replace(/\s+/g, ' ');
  const tail = (g.tail ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (g.n2 !== undefined) {
    const b = toNumber(g.n2, g.u2);
    if (!Number.isFinite(b)) return null;
    return { lo: Math.min(a, b), hi: Math.max(a, b) };
  }
  if (new RegExp(`^(?:${MORE})$`, 'i').test(cmp) || g.plus || /more|up|above|plus/.test(tail)) {
    const strict = /than|over|above|excess|^>$/.test(cmp);
    return { lo: strict ? a + 1e-9 : a, hi: Infinity };
  }
  if (new RegExp(`^(?:${LESS})$`, 'i').test(cmp) || /less|fewer|below/.test(tail)) {
    const inclusive = /up to|at most|maximum|max|<=|≤/.test(cmp) || tail !== '';
    return { lo: 0, hi: inclusive ? a + 1e-9 : a };
  }
  return { lo: a, hi: a, point: a };
}

/** Bands overlapping an interval; a range's upper end excludes a band starting exactly there ("50-200" → 50 - 199). */
function bandsFor<T extends string>(iv: Interval, floors: readonly number[], labels: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < labels.length; i++) {
    const lo = floors[i]!;
    const hi = floors[i + 1] ?? Infinity;
    const hit = iv.point !== undefined ? iv.point >= lo && iv.point < hi : lo < iv.hi && hi > iv.lo;
    if (hit) out.push(labels[i]!);
  }
  return out;
}

interface SizeFindings {
  employees: Found<EmployeeBand[]>[];
  revenue: Found<RevenueBand[]>[];
}

/** Head counts and revenue figures; a number counts only next to a unit or a cue word. */
export function findSizes(text: string, skip: (start: number, end: number) => boolean): SizeFindings {
  const employees: Found<EmployeeBand[]>[] = [];
  const revenue: Found<RevenueBand[]>[] = [];
  for (const m of text.matchAll(AMOUNT_RE)) {
    const g = m.groups as Record<string, string | undefined>;
    const start = m.index;
    let end = start + m[0].length;
    if (skip(start, end)) continue;
    const before = text.slice(Math.max(0, start - 40), start);
    const after = text.slice(end, end + 50);
    const money = Boolean(g.c1 || g.c2);
    const bounded = Boolean(g.cmp || g.n2 || g.plus || g.tail);
    let emp = EMPLOYEE_AFTER.exec(after);
    // "10 people" or "50 seats" alone is a count of results or licences, not a company size.
    if (emp && !bounded && /people|persons|heads|seats/i.test(emp[0])) emp = null;
    let rev = REVENUE_AFTER.exec(after);
    // "50 sales reps" is not revenue; "$5M in sales" is.
    if (rev && /sales\b/i.test(rev[0]) && !money && !g.u1 && !g.u2) rev = null;
    if (emp && !money) {
      const iv = intervalOf(g, true);
      end += emp[0].length;
      if (iv) employees.push({ start, end, value: bandsFor(iv, EMPLOYEE_BAND_FLOORS, EMPLOYEE_BANDS) });
    } else if (rev || (money && (g.u1 || g.u2)) || REVENUE_BEFORE.test(before)) {
      const iv = intervalOf(g, true);
      if (rev) end += rev[0].length;
      // The cue before the figure ("revenue under $5M") belongs to it too.
      const cue = REVENUE_BEFORE.exec(before);
      const from = !rev && cue ? start - (before.length - cue.index) : start;
      if (iv) revenue.push({ start: from, end, value: bandsFor(iv, REVENUE_BAND_FLOORS, REVENUE_BANDS) });
    } else if (EMPLOYEE_BEFORE.test(before) && !money) {
      const iv = intervalOf(g, true);
      const cue = EMPLOYEE_BEFORE.exec(before)!;
      if (iv) employees.push({ start: start - (before.length - cue.index), end, value: bandsFor(iv, EMPLOYEE_BAND_FLOORS, EMPLOYEE_BANDS) });
    }
  }
  return { employees, revenue };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WORD_NUMBERS = new Map<string, number>(
  Object.entries({
    a: 1,
    an: 1,
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
    eighteen: 18,
    'twenty-four': 24,
    'couple of': 2,
    couple: 2,
    few: 3,
    'a few': 3,
    several: 3,
  }),
);
const UNIT_DAYS = new Map<string, number>(Object.entries({ day: 1, week: 7, month: 30.5, quarter: 91.5, year: 365 }));

const RELATIVE_RE = new RegExp(
  String.raw`\b(?:(?:in|within|during|over|for)\s+)?(?:the\s+)?(?:last|past|previous|recent|prior)\s+` +
    String.raw`(?:(?<n>\d{1,4}|a few|couple of|${[...WORD_NUMBERS.keys()].join('|')})\s+)?(?<unit>day|week|month|quarter|year)s?\b`,
  'gi',
);
const AGO_RE = /\b(?:within|in)\s+(?:the\s+)?(?<n>\d{1,4})\s+(?<unit>day|week|month|quarter|year)s?(?:\s+ago)?\b/gi;
const SINCE_RE = new RegExp(
  String.raw`\b(?:since|after|from)\s+(?:(?<month>${MONTHS.join('|')})[a-z]*\.?\s+)?(?<year>(?:19|20)\d{2})(?:-(?<mm>\d{2})(?:-(?<dd>\d{2}))?)?\b`,
  'gi',
);
const IN_YEAR_RE = /(?<!(?:founded|established|incorporated|created|born)\s)\b(?:in|during|throughout)\s+(?<year>(?:19|20)\d{2})\b/gi;
// "Recently" alone ("recently raised money") says nothing about adoption; it must come with a verb of adopting.
const RECENT_RE =
  /\b(?:recently|newly|just|lately)\s+(?:adopted|added|started using|began using|started with|switched to|moved to|migrated to|deployed|implemented|rolled out|bought|purchased|signed up for|installed|onboarded|using|use)\b|\b(?:adopted|added|started using|switched to|moved to|deployed|implemented|bought|installed)\s+(?:\S+\s+){0,4}?(?:recently|lately)\b|\b(?:recent|new)\s+(?:adopters?|adoptions?|customers|users|clients|installs?)\b/gi;

/** How many days "recently" means. */
const RECENT_DAYS = 90;

const pad = (n: number) => String(n).padStart(2, '0');

interface TimeFindings {
  window: TimeWindow | null;
  /** Every time phrase found, so none of their words is read as anything else. */
  ranges: [number, number][];
}

/**
 * The time window the prompt names. Relative windows stay relative (days), so the parse does
 * not depend on the clock. `field` is 'verified' when the prompt speaks of being seen or
 * still active, else 'adopted'. An explicit window wins over a bare "recently"; among
 * explicit ones the earliest mention (at one position, the longest phrase).
 */
export function findTimeWindow(text: string): TimeFindings {
  const field: TimeWindow['field'] =
    /\b(?:verified|seen|detected|observed|active|still)\b/i.test(text) && !/\badopt|\badded\b|\bswitched\b|\bnew(?:ly)?\b|\bstarted\b/i.test(text)
      ? 'verified'
      : 'adopted';
  const found: (Found<TimeWindow> & { vague: boolean })[] = [];
  const push = (m: RegExpMatchArray, value: TimeWindow, vague = false) => found.push({ start: m.index!, end: m.index! + m[0].length, value, vague });
  for (const m of text.matchAll(RELATIVE_RE)) {
    const n = m.groups!.n ? (WORD_NUMBERS.get(m.groups!.n.toLowerCase()) ?? Number(m.groups!.n)) : 1;
    const days = Math.round(n * UNIT_DAYS.get(m.groups!.unit!.toLowerCase())!);
    if (days >= 1 && days <= 36_500) push(m, { field, withinDays: days });
  }
  for (const m of text.matchAll(AGO_RE)) {
    const days = Math.round(Number(m.groups!.n) * UNIT_DAYS.get(m.groups!.unit!.toLowerCase())!);
    if (days >= 1 && days <= 36_500) push(m, { field, withinDays: days });
  }
  for (const m of text.matchAll(SINCE_RE)) {
    const g = m.groups!;
    const month = g.month ? MONTHS.indexOf(g.month.toLowerCase().slice(0, 3)) + 1 : Number(g.mm ?? 1);
    const day = Number(g.dd ?? 1);
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    push(m, { field, since: `${g.year}-${pad(month)}-${pad(day)}` });
  }
  for (const m of text.matchAll(IN_YEAR_RE)) {
    const y = m.groups!.year!;
    push(m, { field, since: `${y}-01-01`, until: `${y}-12-31` });
  }
  for (const m of text.matchAll(RECENT_RE)) {
    push(m, { field: 'adopted', withinDays: RECENT_DAYS }, true);
  }
  const ranges = found.map((f) => [f.start, f.end] as [number, number]);
  if (found.length === 0) return { window: null, ranges };
  found.sort((a, b) => Number(a.vague) - Number(b.vague) || a.start - b.start || b.end - a.end);
  return { window: found[0]!.value, ranges };
}
