// Countries in prompts: English names (from the ICU data Node ships, plus common aliases),
// ISO-2 codes written in capitals, demonyms ("German") and a few regions ("DACH").
// Two-letter codes that are also English words or job acronyms (IN, IT, IS, AT, HR, AE...)
// are never read as countries: "IT managers in Germany" means Germany, not Italy.
import { Lexicon } from './lexicon.ts';

export const COUNTRY_CODES: readonly string[] = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO
JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR
MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO
RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV
TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);
const CODE_SET = new Set(COUNTRY_CODES);

/** Codes read when written in capitals ("companies in the US"); the rest are too ambiguous. */
const CODES_IN_TEXT = `US GB DE FR ES NL CH AU NZ JP CN KR BR MX IE PL PT DK FI SE SG HK TW ZA CZ HU RO GR TR RU UA
EG NG KE TH VN PH PK CL`
  .trim()
  .split(/\s+/);

const ALIASES: Record<string, string[]> = {
  US: ['USA', 'U.S.A', 'United States of America', 'America', 'the States'],
  GB: ['UK', 'U.K', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  AE: ['UAE', 'U.A.E', 'Emirates'],
  KR: ['Korea', 'Republic of Korea'],
  CZ: ['Czech Republic'],
  TR: ['Turkey', 'Turkiye'],
  NL: ['Holland', 'The Netherlands'],
  RU: ['Russian Federation'],
  VN: ['Viet Nam'],
  CI: ['Ivory Coast'],
  CD: ['DR Congo', 'DRC', 'Democratic Republic of the Congo'],
  CG: ['Republic of the Congo', 'Congo'],
  HK: ['Hong Kong'],
  MO: ['Macao', 'Macau'],
  MM: ['Myanmar', 'Burma'],
  SZ: ['Swaziland'],
  MK: ['Macedonia'],
  CV: ['Cabo Verde'],
  TL: ['East Timor'],
  PS: ['Palestine'],
  VA: ['Vatican', 'Holy See'],
  TW: ['Republic of China'],
  CN: ["People's Republic of China", 'PRC', 'Mainland China'],
};

const DEMONYMS: Record<string, string[]> = {
  US: ['American'],
  GB: ['British', 'English', 'Scottish', 'Welsh'],
  DE: ['German'],
  FR: ['French'],
  ES: ['Spanish'],
  IT: ['Italian'],
  NL: ['Dutch'],
  BE: ['Belgian'],
  CH: ['Swiss'],
  AT: ['Austrian'],
  SE: ['Swedish'],
  NO: ['Norwegian'],
  DK: ['Danish'],
  FI: ['Finnish'],
  IS: ['Icelandic'],
  IE: ['Irish'],
  PL: ['Polish'],
  PT: ['Portuguese'],
  CZ: ['Czech'],
  SK: ['Slovak', 'Slovakian'],
  HU: ['Hungarian'],
  GR: ['Greek'],
  RO: ['Romanian'],
  BG: ['Bulgarian'],
  HR: ['Croatian'],
  RS: ['Serbian'],
  SI: ['Slovenian'],
  EE: ['Estonian'],
  LV: ['Latvian'],
  LT: ['Lithuanian'],
  UA: ['Ukrainian'],
  RU: ['Russian'],
  TR: ['Turkish'],
  IL: ['Israeli'],
  CA: ['Canadian'],
  MX: ['Mexican'],
  BR: ['Brazilian'],
  AR: ['Argentinian', 'Argentine'],
  CL: ['Chilean'],
  CO: ['Colombian'],
  PE: ['Peruvian'],
  JP: ['Japanese'],
  CN: ['Chinese'],
  KR: ['Korean', 'South Korean'],
  IN: ['Indian'],
  PK: ['Pakistani'],
  BD: ['Bangladeshi'],
  AU: ['Australian', 'Aussie'],
  NZ: ['Kiwi'],
  SG: ['Singaporean'],
  MY: ['Malaysian'],
  ID: ['Indonesian'],
  TH: ['Thai'],
  VN: ['Vietnamese'],
  PH: ['Filipino', 'Philippine'],
  TW: ['Taiwanese'],
  ZA: ['South African'],
  NG: ['Nigerian'],
  KE: ['Kenyan'],
  EG: ['Egyptian'],
  MA: ['Moroccan'],
  SA: ['Saudi', 'Saudi Arabian'],
  AE: ['Emirati'],
  QA: ['Qatari'],
  LU: ['Luxembourgish'],
  MT: ['Maltese'],
  CY: ['Cypriot'],
  GH: ['Ghanaian'],
  ET: ['Ethiopian'],
  UY: ['Uruguayan'],
};

const REGIONS: Record<string, string[]> = {
  DACH: ['DE', 'AT', 'CH'],
  Benelux: ['BE', 'NL', 'LU'],
  Nordics: ['SE', 'NO', 'DK', 'FI', 'IS'],
  Nordic: ['SE', 'NO', 'DK', 'FI', 'IS'],
  'Nordic countries': ['SE', 'NO', 'DK', 'FI', 'IS'],
  Scandinavia: ['SE', 'NO', 'DK'],
  Scandinavian: ['SE', 'NO', 'DK'],
  Baltics: ['EE', 'LV', 'LT'],
  'Baltic states': ['EE', 'LV', 'LT'],
  Iberia: ['ES', 'PT'],
  Iberian: ['ES', 'PT'],
  'North America': ['US', 'CA'],
  'North American': ['US', 'CA'],
  'Central America': ['BZ', 'CR', 'SV', 'GT', 'HN', 'NI', 'PA'],
  'South America': ['AR', 'BO', 'BR', 'CL', 'CO', 'EC', 'GY', 'PY', 'PE', 'SR', 'UY', 'VE'],
  'Latin America': ['AR', 'BO', 'BR', 'CL', 'CO', 'CR', 'EC', 'SV', 'GT', 'HN', 'MX', 'NI', 'PA', 'PY', 'PE', 'UY', 'VE'],
  'Gulf states': ['AE', 'SA', 'QA', 'KW', 'BH', 'OM'],
};

/** Region names and acronyms read only in capitals (a lowercase "gcc" is a compiler). */
const UPPER_REGIONS: Record<string, string[]> = { ANZ: ['AU', 'NZ'], GCC: ['AE', 'SA', 'QA', 'KW', 'BH', 'OM'] };

/** Country names that are also everyday words or first names: capitalized or after a cue only. */
const GUARDED = new Set(['chad', 'jersey', 'turkey', 'jordan', 'georgia', 'guinea', 'niger', 'mali', 'togo', 'reunion', 'china', 'polish', 'kiwi']);

// Made on first use: loading ICU's region names costs about 0.4 s of a server's start.
let displayNames: Intl.DisplayNames | undefined;

/** English name of a country code ("DE" → "Germany"). */
function countryName(code: string): string {
  try {
    displayNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return displayNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function isCountryCode(code: string): boolean {
  return CODE_SET.has(code);
}

function namesOf(code: string): string[] {
  const name = countryName(code);
  const out = [name];
  const paren = /^(.*?)\s*\((.*)\)$/.exec(name);
  if (paren) out.push(paren[1]!, paren[2]!);
  if (name.endsWith(' SAR China')) out.push(name.replace(' SAR China', ''));
  if (name.startsWith('St. ')) out.push(`Saint ${name.slice(4)}`, `St ${name.slice(4)}`);
  return out.filter((n) => !n.includes(' - '));
}

export function buildCountryLexicon(): Lexicon {
  const lex = new Lexicon();
  const add = (surface: string, code: string, kind: string, options: { upperOnly?: boolean; alias?: boolean } = {}) => {
    const guarded = GUARDED.has(surface.toLowerCase());
    lex.add(surface, 'country', code, countryName(code), {
      kind: options.alias ? 'alias' : 'exact',
      data: [kind],
      upperOnly: options.upperOnly,
      guarded,
      fuzzy: !options.upperOnly && surface.length >= 6,
    });
  };
  for (const code of COUNTRY_CODES) {
    for (const name of namesOf(code)) add(name, code, 'name');
    for (const alias of ALIASES[code] ?? []) add(alias, code, /^[A-Z.]+$/.test(alias) ? 'code' : 'name', { alias: true });
    for (const demonym of DEMONYMS[code] ?? []) add(demonym, code, 'demonym', { alias: true });
  }
  for (const code of CODES_IN_TEXT) add(code, code, 'code', { upperOnly: true });
  for (const [region, codes] of Object.entries(REGIONS)) {
    lex.add(region, 'country', region, region, { kind: 'exact', data: ['region', ...codes], fuzzy: region.length >= 6 });
  }
  for (const [region, codes] of Object.entries(UPPER_REGIONS)) {
    lex.add(region, 'country', region, region, { kind: 'exact', data: ['region', ...codes], upperOnly: true });
  }
  return lex;
}
