// Job titles in people prompts, built around a role noun or an acronym: modifiers on the
// left ("senior software engineer"), "of"/"for" + a function on the right ("VP of Sales",
// "Head of Marketing"). Each title also yields a seniority and functions ("CTO" → C-Level,
// Engineering and IT). A bare "directors" is a seniority, not a title.
import { FUNCTION_WORDS } from './vocab.ts';
import { FUNCTIONS, SENIORITIES, type PeopleFunction, type Seniority } from './schema.ts';
import { compactOf, singular, type Token } from './text.ts';

interface Acronym {
  seniority: Seniority | null;
  functions: PeopleFunction[];
  upperOnly?: boolean;
}

// Maps, not object literals: a prompt word such as 'constructor' must not find Object's prototype.
const ACRONYMS = new Map<string, Acronym>(
  Object.entries({
    ceo: { seniority: 'C-Level', functions: ['General Management'] },
    cto: { seniority: 'C-Level', functions: ['Engineering', 'IT'] },
    cio: { seniority: 'C-Level', functions: ['IT'] },
    ciso: { seniority: 'C-Level', functions: ['IT'] },
    cfo: { seniority: 'C-Level', functions: ['Finance'] },
    cmo: { seniority: 'C-Level', functions: ['Marketing'] },
    coo: { seniority: 'C-Level', functions: ['Operations'] },
    cro: { seniority: 'C-Level', functions: ['Sales'] },
    chro: { seniority: 'C-Level', functions: ['HR'] },
    cpo: { seniority: 'C-Level', functions: ['Product'] },
    cdo: { seniority: 'C-Level', functions: ['Engineering'] },
    cso: { seniority: 'C-Level', functions: [] },
    cco: { seniority: 'C-Level', functions: ['Customer Success'] },
    clo: { seniority: 'C-Level', functions: ['Legal'] },
    vp: { seniority: 'VP', functions: [] },
    svp: { seniority: 'VP', functions: [] },
    evp: { seniority: 'VP', functions: [] },
    avp: { seniority: 'VP', functions: [] },
    sdr: { seniority: 'Entry', functions: ['Sales'] },
    bdr: { seniority: 'Entry', functions: ['Sales'] },
    ae: { seniority: null, functions: ['Sales'], upperOnly: true },
    pm: { seniority: null, functions: ['Product'], upperOnly: true },
    sre: { seniority: null, functions: ['Engineering'] },
  } satisfies Record<string, Acronym>),
);

/** "chief X officer" spelled out → the acronym it stands for. */
const CHIEF_FORMS = new Map<string, string>(
  Object.entries({
    executive: 'ceo',
    technology: 'cto',
    information: 'cio',
    informationsecurity: 'ciso',
    security: 'ciso',
    financial: 'cfo',
    finance: 'cfo',
    marketing: 'cmo',
    operating: 'coo',
    operations: 'coo',
    revenue: 'cro',
    humanresources: 'chro',
    people: 'chro',
    product: 'cpo',
    data: 'cdo',
    sales: 'cro',
    legal: 'clo',
    customer: 'cco',
  }),
);

/** Role nouns (singular) → functions they imply. */
const HEADS = new Map<string, PeopleFunction[]>(
  Object.entries({
    officer: [],
    president: [],
    director: [],
    manager: [],
    head: [],
    lead: [],
    leader: [],
    engineer: ['Engineering'],
    developer: ['Engineering'],
    programmer: ['Engineering'],
    architect: ['Engineering'],
    analyst: [],
    scientist: [],
    designer: ['Product'],
    administrator: [],
    admin: [],
    consultant: [],
    specialist: [],
    executive: [],
    representative: [],
    rep: [],
    recruiter: ['HR'],
    accountant: ['Finance'],
    controller: ['Finance'],
    bookkeeper: ['Finance'],
    counsel: ['Legal'],
    attorney: ['Legal'],
    lawyer: ['Legal'],
    paralegal: ['Legal'],
    partner: [],
    founder: [],
    cofounder: [],
    owner: [],
    coordinator: [],
    associate: [],
    intern: [],
    strategist: [],
    marketer: ['Marketing'],
    salesperson: ['Sales'],
    technician: ['IT'],
    advisor: [],
    adviser: [],
    supervisor: [],
    assistant: [],
    buyer: ['Operations'],
    planner: [],
    editor: ['Marketing'],
    writer: ['Marketing'],
    copywriter: ['Marketing'],
    researcher: [],
    tester: ['Engineering'],
  } satisfies Record<string, PeopleFunction[]>),
);

/** Role nouns that, bare, only say how senior someone is ("directors", "executives"). */
const BARE_SENIORITY = new Set(['director', 'manager', 'head', 'lead', 'leader', 'executive', 'vp', 'svp', 'evp', 'avp', 'supervisor', 'intern']);
/** Heads that take "of X" ("VP of Sales"); the VP family also takes a function directly ("VP Sales"). */
const TAKES_OF = new Set(['vp', 'svp', 'evp', 'avp', 'head', 'director', 'manager', 'officer', 'president', 'lead', 'leader']);
const TAKES_DIRECT = new Set(['vp', 'svp', 'evp', 'avp']);

const SENIORITY_MODIFIERS = new Set([
  'senior',
  'sr',
  'junior',
  'jr',
  'lead',
  'principal',
  'staff',
  'chief',
  'vice',
  'executive',
  'associate',
  'assistant',
  'deputy',
  'regional',
  'global',
  'group',
  'general',
  'managing',
  'co',
  'entry',
  'level',
  'entrylevel',
  'head',
  'team',
]);

const FUNCTION_OF = new Map<string, PeopleFunction[]>();
for (const [words, fns] of FUNCTION_WORDS) for (const w of words) FUNCTION_OF.set(compactOf(w), fns);
FUNCTION_OF.set('people', ['HR']);
FUNCTION_OF.set('it', ['IT']);
for (const extra of [
  'success',
  'customer',
  'business',
  'development',
  'demand',
  'generation',
  'field',
  'inside',
  'solutions',
  'human',
  'resources',
  'supply',
  'chain',
  'quality',
  'machine',
  'learning',
  'social',
  'media',
  'performance',
  'project',
  'program',
  'research',
  'science',
  'partnerships',
  'channel',
  'enterprise',
  'office',
  'test',
  'automation',
  'release',
  'database',
  'site',
  'reliability',
  'user',
  'experience',
  'ios',
  'android',
]) {
  if (!FUNCTION_OF.has(extra)) FUNCTION_OF.set(extra, []);
}

const UPPER_WORDS = new Set([...ACRONYMS.keys(), 'it', 'hr', 'ux', 'ui', 'qa', 'bi', 'ai', 'ml', 'seo', 'pr', 'cx', 'r&d', 'fp&a', 'ios']);
const LOWER_WORDS = new Set(['of', 'for', 'and']);
const SENIORITY_RANK = new Map(SENIORITIES.map((s, i) => [s, i]));

export interface TitleFinding {
  start: number;
  end: number;
  /** Canonical title ("VP of Sales"), or null when the words only give a seniority. */
  title: string | null;
  seniority: Seniority[];
  functions: PeopleFunction[];
}

const isHead = (t: Token | undefined) => t !== undefined && !t.used && (HEADS.has(singular(t.compact)) || acronymOf(t) !== undefined);
// A role noun right before another one modifies it ("lead engineer", "executive assistant").
const isModifier = (t: Token) => !t.used && (SENIORITY_MODIFIERS.has(t.compact) || FUNCTION_OF.has(t.compact) || HEADS.has(t.compact));
const isFunctionWord = (t: Token | undefined) =>
  t !== undefined && !t.used && !t.breakBefore && FUNCTION_OF.has(t.compact) && !SENIORITY_MODIFIERS.has(t.compact);

function acronymOf(t: Token): Acronym | undefined {
  const a = ACRONYMS.get(singular(t.compact));
  return a && (!a.upperOnly || t.upper) ? a : undefined;
}

/** Finds titles and marks their tokens used. */
export function findTitles(tokens: Token[]): TitleFinding[] {
  const out: TitleFinding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.used) continue;
    const head = singular(t.compact);
    const acronym = acronymOf(t);
    if (!acronym && !HEADS.has(head)) continue;
    if (!acronym && isHead(tokens[i + 1]) && !tokens[i + 1]!.breakBefore) continue;
    let s = i;
    while (s > 0 && !tokens[s]!.breakBefore && isModifier(tokens[s - 1]!)) s--;
    let e = i;
    const next = tokens[i + 1];
    if (TAKES_OF.has(head) && next && !next.breakBefore && ['of', 'for'].includes(next.compact) && isFunctionWord(tokens[i + 2])) {
      e = i + 2;
      while (isFunctionWord(tokens[e + 1]) || (tokens[e + 1]?.compact === 'and' && isFunctionWord(tokens[e + 2]))) e++;
    } else if (TAKES_DIRECT.has(head)) {
      while (isFunctionWord(tokens[e + 1])) e++;
    }
    const span = tokens.slice(s, e + 1);
    const modifiers = span.filter((x) => x !== t);
    const onlySeniority = modifiers.every((m) => SENIORITY_MODIFIERS.has(m.compact) && !FUNCTION_OF.has(m.compact));
    for (const x of span) x.used = true;
    const words = span.map((x) => (x === t ? head : x.compact));
    const bare = BARE_SENIORITY.has(head) && onlySeniority && !words.includes('chief');
    const meaning = meaningOf(words, head, acronym);
    const seniority = bare && head === 'executive' ? (['C-Level'] as Seniority[]) : meaning.seniority;
    const functions = meaning.functions;
    out.push({ start: span[0]!.start, end: span[span.length - 1]!.end, title: bare ? null : display(span, t, head), seniority, functions });
    i = e;
  }
  return out;
}

function meaningOf(words: string[], head: string, acronym: Acronym | undefined): { seniority: Seniority[]; functions: PeopleFunction[] } {
  const fns = new Set<PeopleFunction>(HEADS.get(head) ?? []);
  let sen: Seniority | null = acronym?.seniority ?? null;
  for (const f of acronym?.functions ?? []) fns.add(f);
  const joined = words.join(' ');
  const chief = /^chief (.+) officer$/.exec(joined);
  const chiefAcronym = chief ? ACRONYMS.get(CHIEF_FORMS.get(chief[1]!.replace(/ /g, '')) ?? '') : undefined;
  if (chiefAcronym) {
    sen = chiefAcronym.seniority;
    for (const f of chiefAcronym.functions) fns.add(f);
  }
  // Two-word function phrases first ("customer success"), then single words.
  for (let k = 0; k < words.length && !chiefAcronym; k++) {
    const pair = k + 1 < words.length ? FUNCTION_OF.get(words[k]! + words[k + 1]!) : undefined;
    if (pair && pair.length > 0) {
      for (const f of pair) fns.add(f);
      k++;
      continue;
    }
    for (const f of FUNCTION_OF.get(words[k]!) ?? []) fns.add(f);
  }
  if (!sen) sen = seniorityOfWords(words);
  const functions = FUNCTIONS.filter((f) => fns.has(f));
  return { seniority: sen ? [sen] : [], functions };
}

function seniorityOfWords(words: string[]): Seniority | null {
  const has = (...w: string[]) => w.some((x) => words.includes(x));
  if (has('chief', 'founder', 'cofounder', 'owner') || (has('president') && !has('vice'))) return 'C-Level';
  if (has('vp', 'svp', 'evp', 'avp') || (has('vice') && has('president'))) return 'VP';
  if (has('director', 'head')) return 'Director';
  if (has('manager', 'supervisor') || words[words.length - 1] === 'lead' || words[words.length - 1] === 'leader') return 'Manager';
  if (has('senior', 'sr', 'principal', 'staff', 'lead')) return 'Senior';
  if (has('junior', 'jr', 'intern', 'trainee', 'entry', 'graduate', 'assistant', 'associate')) return 'Entry';
  return null;
}

function display(span: Token[], headToken: Token, head: string): string {
  return span
    .map((x) => {
      const w = x === headToken ? head : x.key;
      if (UPPER_WORDS.has(w)) return w.toUpperCase();
      if (LOWER_WORDS.has(w)) return w;
      return w.replace(/(^|-)(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());
    })
    .join(' ');
}

/** Sorts seniority values from the highest. */
export function sortSeniority(values: Iterable<Seniority>): Seniority[] {
  return [...new Set(values)].sort((a, b) => SENIORITY_RANK.get(a)! - SENIORITY_RANK.get(b)!);
}
