// Fixed vocabularies: company-size words, people seniority and function words, and the
// everyday names of industries ("fintech", "banks", "SaaS") mapped onto catalog industries.
import { Lexicon } from './lexicon.ts';
import type { PeopleFunction, Seniority } from './schema.ts';

const SMB = ['Less than 10', '10 - 49', '50 - 199'];
const MID = ['200 - 499', '500 - 999'];
const ENTERPRISE = ['1,000 - 4,999', '5,000 - 9,999', 'Above 10,000'];

/** Size words → employee bands. SMB < 200, mid-market 200-999, enterprise 1,000+. */
const SIZE_WORDS: [string[], string[]][] = [
  [['micro business', 'micro businesses', 'microbusiness', 'microbusinesses', 'micro companies', 'very small', 'tiny'], ['Less than 10']],
  [
    ['startup', 'startups', 'early stage', 'early-stage', 'seed stage'],
    ['Less than 10', '10 - 49'],
  ],
  [
    [
      'small business',
      'small businesses',
      'small companies',
      'small company',
      'small firms',
      'smb',
      'smbs',
      'sme',
      'smes',
      'small and medium businesses',
      'small and medium-sized businesses',
      'small and medium sized businesses',
      'small and midsize businesses',
      'small and medium enterprises',
      'small',
      'smaller',
    ],
    SMB,
  ],
  [
    [
      'mid-market',
      'mid market',
      'mid-size',
      'mid size',
      'mid-sized',
      'mid sized',
      'medium',
      'medium-sized',
      'medium sized',
      'medium size',
      'mid-tier',
      'midmarket',
      'midsize',
      'midsized',
    ],
    MID,
  ],
  [
    [
      'enterprise',
      'enterprises',
      'enterprise-level',
      'enterprise level',
      'enterprise-grade',
      'large',
      'larger',
      'large companies',
      'large enterprises',
      'big companies',
      'big firms',
      'big corporations',
      'corporations',
      'corporates',
      'large organizations',
      'large organisations',
      'large businesses',
      'large company',
    ],
    ENTERPRISE,
  ],
  [
    ['fortune 500', 'fortune 1000', 'fortune 100', 'global 2000', 'ftse 100', 'dax 40'],
    ['5,000 - 9,999', 'Above 10,000'],
  ],
];

/** Words naming a seniority on their own ("directors", "C-suite"). */
const SENIORITY_WORDS: [string[], Seniority[]][] = [
  [
    ['c-level', 'c level', 'c-suite', 'c suite', 'csuite', 'cxo', 'cxos', 'executives', 'execs', 'top executives', 'senior executives', 'chiefs', 'chief'],
    ['C-Level'],
  ],
  [['vp', 'vps', 'vice president', 'vice presidents', 'svp', 'svps', 'evp', 'evps', 'vp-level', 'vp level'], ['VP']],
  [['director', 'directors', 'director-level', 'director level', 'heads'], ['Director']],
  [['manager', 'managers', 'manager-level', 'supervisors', 'supervisor'], ['Manager']],
  [['senior', 'seniors', 'sr', 'principal'], ['Senior']],
  [['junior', 'juniors', 'jr', 'entry level', 'entry-level', 'intern', 'interns', 'trainee', 'trainees', 'graduates', 'graduate'], ['Entry']],
  [
    ['decision makers', 'decision-makers', 'decision maker', 'buyers committee'],
    ['C-Level', 'VP', 'Director'],
  ],
  [
    ['leadership team', 'senior leadership', 'executive team', 'management team'],
    ['C-Level', 'VP'],
  ],
];

/** Words and phrases naming a function; the single words double as title modifiers. */
export const FUNCTION_WORDS: [string[], PeopleFunction[]][] = [
  [['sales', 'selling', 'business development', 'biz dev', 'bizdev', 'account', 'revenue', 'inside sales', 'field sales'], ['Sales']],
  [
    [
      'marketing',
      'marketer',
      'growth',
      'demand generation',
      'demand gen',
      'brand',
      'content',
      'communications',
      'comms',
      'seo',
      'social media',
      'product marketing',
      'digital marketing',
      'events',
      'community',
    ],
    ['Marketing'],
  ],
  [
    [
      'information technology',
      'it department',
      'it team',
      'helpdesk',
      'help desk',
      'infosec',
      'information security',
      'cybersecurity',
      'security',
      'network',
      'systems',
      'infrastructure',
      'sysadmin',
      'technology',
      'information',
    ],
    ['IT'],
  ],
  [
    [
      'engineering',
      'software',
      'software engineering',
      'devops',
      'frontend',
      'front-end',
      'backend',
      'back-end',
      'full-stack',
      'fullstack',
      'full stack',
      'r&d',
      'research and development',
      'platform',
      'cloud',
      'mobile',
      'qa',
      'quality assurance',
      'site reliability',
      'sre',
      'web',
      'technical',
    ],
    ['Engineering'],
  ],
  [['finance', 'financial', 'accounting', 'fp&a', 'treasury', 'tax', 'audit', 'payroll', 'controlling'], ['Finance']],
  [
    [
      'hr',
      'human resources',
      'people operations',
      'people ops',
      'talent',
      'talent acquisition',
      'recruiting',
      'recruitment',
      'human capital',
      'people and culture',
    ],
    ['HR'],
  ],
  [['operations', 'ops', 'supply chain', 'logistics', 'procurement', 'purchasing', 'facilities', 'revops', 'revenue operations'], ['Operations']],
  [['legal', 'compliance', 'legal department', 'privacy', 'regulatory'], ['Legal']],
  [['product', 'product management'], ['Product']],
  [['customer success', 'customer support', 'support', 'customer service', 'customer experience', 'cx', 'client success'], ['Customer Success']],
  // Designers sit with Product, data scientists with Engineering (the demo world's functions).
  [['design', 'ux', 'ui', 'user experience', 'creative'], ['Product']],
  [['data', 'analytics', 'data science', 'business intelligence', 'bi', 'machine learning', 'ml', 'ai', 'insights'], ['Engineering']],
  [['general management', 'management', 'strategy', 'executive office'], ['General Management']],
];

/** Function words read only in capitals: "IT", "BI", "AI" (lowercase "it" is a pronoun). */
const UPPER_FUNCTION_WORDS: Record<string, PeopleFunction[]> = { IT: ['IT'], BI: ['Engineering'], AI: ['Engineering'] };

/** Function words that are too vague alone outside a title ("account", "content", "web"...). */
const TITLE_ONLY_FUNCTION_WORDS = new Set([
  'account',
  'revenue',
  'content',
  'brand',
  'events',
  'community',
  'information',
  'technology',
  'network',
  'systems',
  'infrastructure',
  'platform',
  'cloud',
  'mobile',
  'web',
  'technical',
  'tax',
  'audit',
  'product',
  'support',
  'creative',
  'insights',
  'security',
  'data',
  'ai',
  'ml',
  'growth',
  'selling',
  'bi',
  'it',
  'software',
  'financial',
  'management',
  'strategy',
]);

/** Everyday industry words → catalog industry names (the first one present is used). */
export const INDUSTRY_SYNONYMS: [string[], string[]][] = [
  [
    ['fintech', 'fintechs', 'financial companies', 'financial institutions'],
    ['Financial Services', 'Fintech', 'Banking', 'Finance'],
  ],
  [
    ['bank', 'banks', 'banking'],
    ['Banking', 'Financial Services'],
  ],
  [['insurers', 'insurance companies', 'insurtech'], ['Insurance']],
  [['investment firms', 'asset managers', 'hedge funds', 'private equity', 'wealth managers'], ['Investment Management']],
  [['accounting firms', 'accountancies'], ['Accounting']],
  [
    ['saas', 'saas companies', 'software companies', 'software vendors', 'software firms', 'isvs'],
    ['Software', 'Computer Software', 'SaaS', 'Information Technology'],
  ],
  [
    ['tech companies', 'technology companies', 'tech firms'],
    ['Technology', 'Information Technology', 'Software'],
  ],
  [
    ['it services', 'it consulting', 'msps', 'managed service providers', 'system integrators'],
    ['IT Services & Consulting', 'Information Technology'],
  ],
  [
    ['internet companies', 'online services'],
    ['Internet & Online Services', 'Internet'],
  ],
  [
    ['hardware companies', 'hardware makers'],
    ['Computer Hardware', 'Hardware'],
  ],
  [['chipmakers', 'chip makers', 'semiconductor companies'], ['Semiconductors']],
  [
    ['hospitals', 'health care', 'healthcare', 'healthtech', 'medical', 'clinics', 'health systems'],
    ['Hospitals & Health Care', 'Healthcare', 'Health Care', 'Hospital & Health Care'],
  ],
  [['medtech', 'medical device makers', 'medical devices'], ['Medical Devices']],
  [['retailers', 'retail'], ['Retail']],
  [
    ['ecommerce', 'e-commerce', 'online stores', 'online retailers', 'webshops', 'd2c', 'dtc brands'],
    ['E-Commerce', 'Ecommerce', 'Retail'],
  ],
  [
    ['manufacturers', 'manufacturing', 'industrial', 'factories', 'machine builders'],
    ['Manufacturing', 'Industrial Machinery', 'Industrial'],
  ],
  [
    ['universities', 'colleges', 'higher ed', 'higher education', 'schools', 'education'],
    ['Higher Education', 'Education', 'Education Management'],
  ],
  [
    ['edtech', 'online learning', 'elearning'],
    ['E-Learning', 'Education'],
  ],
  [
    ['hotels', 'hospitality'],
    ['Hospitality', 'Travel & Hospitality'],
  ],
  [
    ['travel', 'travel companies', 'tour operators'],
    ['Travel & Leisure', 'Hospitality'],
  ],
  [
    ['law firms', 'legal services'],
    ['Legal Services', 'Law Practice', 'Legal'],
  ],
  [
    ['consultancies', 'consulting firms', 'consulting', 'management consultancies'],
    ['Management Consulting', 'Consulting', 'Professional Services'],
  ],
  [
    ['agencies', 'marketing agencies', 'ad agencies', 'advertising agencies'],
    ['Marketing & Advertising', 'Advertising', 'Marketing'],
  ],
  [['staffing agencies', 'recruitment agencies', 'staffing firms'], ['Staffing & Recruiting']],
  [
    ['telcos', 'telecom', 'telecoms', 'carriers'],
    ['Telecommunications', 'Telecom'],
  ],
  [
    ['pharma', 'pharmaceutical companies', 'drugmakers'],
    ['Pharmaceuticals', 'Life Sciences'],
  ],
  [
    ['biotech', 'biotechs', 'life sciences'],
    ['Biotechnology', 'Life Sciences', 'Pharmaceuticals'],
  ],
  [
    ['logistics', 'logistics companies', 'shipping companies', 'transportation', 'freight companies'],
    ['Transportation & Logistics', 'Logistics', 'Transportation', 'Logistics & Supply Chain'],
  ],
  [
    ['media companies', 'publishers', 'publishing', 'media'],
    ['Media & Publishing', 'Media', 'Publishing', 'Media & Entertainment'],
  ],
  [
    ['entertainment', 'studios'],
    ['Entertainment', 'Media & Entertainment'],
  ],
  [['real estate', 'proptech', 'property'], ['Real Estate']],
  [['automotive', 'carmakers', 'car makers', 'automakers'], ['Automotive']],
  [['aerospace', 'defense contractors', 'defence contractors'], ['Aerospace & Defense']],
  [['chemical companies'], ['Chemicals']],
  [['cpg', 'consumer goods', 'consumer brands'], ['Consumer Goods']],
  [['fashion brands', 'fashion', 'apparel'], ['Apparel & Fashion']],
  [
    ['food companies', 'food and beverage', 'beverage companies'],
    ['Food & Beverage', 'Food & Beverages', 'Food and Beverage'],
  ],
  [
    ['oil and gas', 'energy companies', 'energy'],
    ['Oil & Energy', 'Energy'],
  ],
  [['renewables', 'cleantech', 'solar companies', 'climate tech'], ['Renewables & Environment']],
  [
    ['utilities', 'utility companies'],
    ['Utilities', 'Energy'],
  ],
  [
    ['government', 'public sector', 'governments', 'government agencies'],
    ['Government Administration', 'Government', 'Public Sector'],
  ],
  [
    ['nonprofits', 'non-profits', 'nonprofit', 'non-profit', 'ngos', 'charities'],
    ['Nonprofit Organizations', 'Non-profit', 'Nonprofit'],
  ],
  [['mining companies', 'miners', 'metals'], ['Mining & Metals']],
  [['wholesalers', 'distributors', 'distribution'], ['Wholesale & Distribution']],
  [['architects', 'engineering firms'], ['Architecture & Engineering']],
  [['farms', 'agtech', 'agribusiness'], ['Agriculture']],
  [
    ['gaming', 'game studios', 'video games'],
    ['Gaming', 'Computer Games', 'Video Games', 'Entertainment'],
  ],
  [
    ['restaurants', 'restaurant chains'],
    ['Restaurants', 'Food & Beverage'],
  ],
  [
    ['airlines', 'aviation'],
    ['Airlines', 'Aviation', 'Airlines/Aviation'],
  ],
];

/** Size words and time words, read in every mode. */
export function buildSizeLexicon(): Lexicon {
  const lex = new Lexicon();
  for (const [surfaces, bands] of SIZE_WORDS) {
    for (const s of surfaces) lex.add(s, 'employees', bands.join('|'), s, { data: bands, guarded: false, allowGeneric: true });
  }
  return lex;
}

/** Seniority and function words standing alone (people mode). */
export function buildPeopleLexicon(): Lexicon {
  const lex = new Lexicon();
  for (const [surfaces, values] of SENIORITY_WORDS) {
    for (const s of surfaces) lex.add(s, 'seniority', values.join('|'), s, { data: values, guarded: false, allowGeneric: true });
  }
  for (const [surfaces, values] of FUNCTION_WORDS) {
    for (const s of surfaces) {
      if (TITLE_ONLY_FUNCTION_WORDS.has(s)) continue;
      lex.add(s, 'function', values.join('|'), s, { data: values, guarded: false, allowGeneric: true });
    }
  }
  for (const [s, values] of Object.entries(UPPER_FUNCTION_WORDS)) {
    lex.add(s, 'function', values.join('|'), s, { data: values, guarded: false, allowGeneric: true, upperOnly: true });
  }
  return lex;
}
