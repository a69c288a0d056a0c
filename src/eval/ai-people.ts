// People-profile part of `stacklens eval ai`: prompts generated from real people of the
// world with known intent (a title in a country, a title at a company, a seniority in a
// function in a country, anyone at a company), answered by the helper's own pipeline (parser → search →
// confidence). A returned profile is right when it meets every intended criterion.
import type { Db } from '../db/db.ts';
import { peopleSample } from '../store/truth.ts';
import { understandAiPrompt } from '../services/ai-prompt.ts';
import { peopleSearchOf, rankPeople } from '../services/ai-people.ts';
import { matchProfile, peopleFeatures } from '../intelligence/people-match.ts';
import { calibration, mean, type Calibration } from './metrics.ts';

export interface PeopleEval {
  prompts: number;
  /** Prompts with at least one profile returned. */
  answered: number;
  /** Mean share of returned profiles (top 10) that meet the intent. */
  precisionAt10: number;
  /** Share of prompts whose intended person is among the returned profiles. */
  personFound: number;
  calibration: Calibration;
  /** Every returned profile with its label and features (for fitting; not printed). */
  rows: { confidence: number; label: boolean; features: number[] }[];
}

interface Intent {
  title?: string;
  seniority?: string;
  function?: string;
  country?: string;
  companyId?: string;
}

const SENIORITY_PHRASE: Record<string, string> = {
  'C-Level': 'C-level executives',
  VP: 'VPs',
  Director: 'Directors',
  Manager: 'managers',
  Senior: 'senior people',
  Entry: 'entry-level staff',
};

const regionName = new Intl.DisplayNames(['en'], { type: 'region' });

function meets(
  intent: Intent,
  p: { title: string | null; seniority: string | null; function: string | null; country: string | null },
  companyId: string | null,
): boolean {
  const l = (s: string | null | undefined) => (s ?? '').toLowerCase();
  return (
    (!intent.title || l(p.title).includes(l(intent.title))) &&
    (!intent.seniority || l(p.seniority) === l(intent.seniority)) &&
    (!intent.function || l(p.function) === l(intent.function)) &&
    (!intent.country || p.country === intent.country) &&
    (!intent.companyId || companyId === intent.companyId)
  );
}

export async function evaluatePeople(db: Db, count: number, asOf: Date): Promise<PeopleEval> {
  const people = await peopleSample(db, count);
  const domainToId = new Map(people.map((p) => [p.companyDomain, p.companyId]));
  const rows: PeopleEval['rows'] = [];
  const precision: number[] = [];
  let answered = 0,
    found = 0;
  for (const [k, person] of people.entries()) {
    const country = regionName.of(person.country) ?? person.country;
    let prompt: string, intent: Intent;
    if (k % 4 === 0) [prompt, intent] = [`${person.title} in ${country}`, { title: person.title, country: person.country }];
    else if (k % 4 === 1) [prompt, intent] = [`${person.title} at ${person.companyDomain}`, { title: person.title, companyId: person.companyId }];
    else if (k % 4 === 3) [prompt, intent] = [`people at ${person.companyDomain}`, { companyId: person.companyId }];
    else {
      prompt = `${SENIORITY_PHRASE[person.seniority] ?? person.seniority} in ${person.function} in ${country}`;
      intent = { seniority: person.seniority, function: person.function, country: person.country };
    }
    if (k % 2 === 1) prompt = prompt.toLowerCase();
    const understood = await understandAiPrompt(db, { ai: undefined }, prompt, 'people');
    const search = await peopleSearchOf(db, understood.query, asOf);
    if (!search) continue;
    const ranked = await rankPeople(db, search, 10);
    if (ranked.length === 0) continue;
    answered++;
    if (ranked.some((r) => r.id === person.id)) found++;
    let right = 0;
    for (const r of ranked) {
      const label = meets(intent, r, r.companyDomain ? (domainToId.get(r.companyDomain) ?? null) : null);
      if (label) right++;
      rows.push({ confidence: r.confidence, label, features: peopleFeatures(search.ask, matchProfile(search.ask, r)) });
    }
    precision.push(right / ranked.length);
  }
  return {
    prompts: people.length,
    answered,
    precisionAt10: mean(precision),
    personFound: people.length ? found / people.length : 0,
    calibration: calibration(
      rows.map((r) => r.confidence),
      rows.map((r) => r.label),
    ),
    rows,
  };
}
