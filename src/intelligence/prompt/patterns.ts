// Patterns found in the raw prompt before tokenizing: domains and URLs (company or vendor
// references), and contact details, which are recognized only to be dropped: no e-mail
// address or phone number typed into a prompt is ever echoed back as a term.
import { normalizeDomain } from '../../domain.ts';
import { COUNTRY_CODES } from './countries.ts';
import { STOP_WORDS, tokenize } from './text.ts';

const EMAIL_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
const PHONE_RE = /(?<![\w])\+?\d[\d\s().-]{7,}\d(?![\w])/g;
const DOMAIN_RE =
  /(?<![\p{L}\p{N}@._-])(?:https?:\/\/)?(?:www\.)?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,24}(?::\d{1,5})?(?:\/[^\s,;)]*)?/giu;

/** Top-level domains accepted in prose; file extensions ("node.js", "readme.md") are not domains. */
const TLDS = new Set(
  [
    'com',
    'net',
    'org',
    'edu',
    'gov',
    'mil',
    'int',
    'info',
    'biz',
    'app',
    'dev',
    'tech',
    'cloud',
    'online',
    'site',
    'store',
    'shop',
    'xyz',
    'agency',
    'company',
    'solutions',
    'software',
    'digital',
    'global',
    'group',
    'ventures',
    'capital',
    'health',
    'bank',
    'finance',
    'media',
    'studio',
    'design',
    'works',
    'systems',
    'network',
    'uk',
    'eu',
    'example',
    'test',
    ...COUNTRY_CODES.map((c) => c.toLowerCase()),
  ].filter((t) => !['md', 'sh', 'py', 'rs', 'so'].includes(t)),
);

interface DomainMention {
  domain: string;
  text: string;
  start: number;
  end: number;
}

export function findDomains(text: string): DomainMention[] {
  const out: DomainMention[] = [];
  for (const m of text.matchAll(DOMAIN_RE)) {
    const domain = normalizeDomain(m[0]);
    if (!domain) continue;
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    if (!TLDS.has(tld) && !tld.startsWith('xn--')) continue;
    out.push({ domain, text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}

export function findContactDetails(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const re of [EMAIL_RE, PHONE_RE]) {
    for (const m of text.matchAll(re)) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

interface CompanyCandidates {
  /** Normalized domains written in the prompt. */
  domains: string[];
  /** Word sequences (1-4 words, not starting or ending with a function word) that may be company names. */
  phrases: string[];
}

/**
 * What to look up in the companies table before parsing a people or tech-stack prompt:
 * the parser only recognizes company names it is given, so the store fetches the few
 * companies whose names equal one of these phrases (store/catalog.ts findPromptCompanies).
 */
export function companyCandidates(prompt: string, maxPhrases = 60): CompanyCandidates {
  const text = prompt.slice(0, 2000);
  const domains = [...new Set(findDomains(text).map((d) => d.domain))].slice(0, 20);
  const contacts = findContactDetails(text);
  const tokens = tokenize(text).filter((t) => !contacts.some(([a, b]) => t.start < b && t.end > a));
  const phrases: { phrase: string; capitalized: boolean; start: number; len: number }[] = [];
  const seen = new Set<string>();
  for (let len = 1; len <= 4; len++) {
    for (let i = 0; i + len <= tokens.length; i++) {
      const span = tokens.slice(i, i + len);
      if (STOP_WORDS.has(span[0]!.compact) || STOP_WORDS.has(span[len - 1]!.compact)) continue;
      if (span.some((t, k) => k > 0 && t.start - span[k - 1]!.end > 2)) continue; // not across punctuation runs
      const phrase = text.slice(span[0]!.start, span[len - 1]!.end).replace(/\s+/g, ' ');
      const key = phrase.toLowerCase();
      if (/^[\d\s.,-]+$/.test(phrase) || seen.has(key)) continue;
      // Short names ("IBM", "SAP") only in capitals: "the", "bio" would match half the table.
      const letters = phrase.replace(/[^\p{L}\p{N}]/gu, '');
      if (letters.length < 3 || (letters.length < 4 && !span.every((t) => t.upper))) continue;
      seen.add(key);
      phrases.push({ phrase, capitalized: span[0]!.capitalized || span[0]!.upper, start: span[0]!.start, len });
    }
  }
  // Over budget (long prompts), capitalized phrases and short ones go first.
  phrases.sort((a, b) => Number(b.capitalized) - Number(a.capitalized) || a.len - b.len || a.start - b.start);
  return { domains, phrases: phrases.slice(0, maxPhrases).map((p) => p.phrase) };
}
