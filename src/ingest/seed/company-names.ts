// Company names and web domains that read like real ones: surname, coined and place
// names per industry wording; public bodies and schools named as such; names and domains
// deduped in generation order (the domain is the join key of the whole API; the name is
// what a reader tells companies apart by).
import type { Country } from './geo.ts';
import type { Industry } from './industries.ts';
import { namePool } from './names.ts';
import type { Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import { foldName } from '../../intelligence/features.ts';

const HEADS =
  'North Blue Silver Red Green Bright Clear Summit Pioneer Harbor Granite Cedar Oak Maple River Lake Stone Iron Golden Evergreen Crescent Keystone Liberty Sterling Pacific Atlantic Alpine Prairie Coastal Highland Meadow Falcon Eagle Lion Fox Bear Wolf Aurora Horizon Compass Anchor Beacon Vista Crest Ridge Valley Orchard Bay Willow Birch Aspen Juniper Sunrise Polar Union Heritage Frontier Cardinal Patriot Monarch Regent Premier Vertex Apex Nova Orion Vector Quantum Helix Zenith Lumen Sigma Delta Atlas Titan'.split(
    ' ',
  );
const TAILS = 'wind point field gate brook wood crest ridge stone haven bridge view peak line works way side mark port shore light well vale ford star'.split(
  ' ',
);

const LEGAL: Record<string, string[]> = {
  US: ['Inc.', 'LLC', 'Corp.'],
  CA: ['Inc.', 'Ltd.'],
  GB: ['Ltd', 'Limited'],
  IE: ['Ltd', 'DAC'],
  DE: ['GmbH', 'GmbH & Co. KG'],
  AT: ['GmbH'],
  CH: ['AG', 'GmbH'],
  FR: ['SAS', 'SARL'],
  NL: ['B.V.'],
  BE: ['BV', 'SRL'],
  ES: ['S.L.', 'S.A.'],
  IT: ['S.r.l.', 'S.p.A.'],
  SE: ['AB'],
  DK: ['ApS', 'A/S'],
  NO: ['AS'],
  FI: ['Oy'],
  PL: ['Sp. z o.o.'],
  PT: ['Lda.'],
  CZ: ['s.r.o.'],
  IL: ['Ltd.'],
  AE: ['LLC', 'FZ-LLC'],
  ZA: ['(Pty) Ltd'],
  AU: ['Pty Ltd'],
  NZ: ['Limited'],
  IN: ['Pvt. Ltd.'],
  JP: ['K.K.', 'Co., Ltd.'],
  SG: ['Pte. Ltd.'],
  CN: ['Co., Ltd.'],
  KR: ['Co., Ltd.'],
  HK: ['Limited'],
  BR: ['Ltda.'],
  MX: ['S.A. de C.V.'],
  AR: ['S.R.L.', 'S.A.'],
  CO: ['S.A.S.'],
  CL: ['SpA'],
};
const PUBLIC_LEGAL: Record<string, string> = {
  US: 'Inc.',
  CA: 'Inc.',
  GB: 'plc',
  IE: 'plc',
  DE: 'AG',
  AT: 'AG',
  CH: 'AG',
  FR: 'SA',
  NL: 'N.V.',
  BE: 'NV',
  ES: 'S.A.',
  IT: 'S.p.A.',
  SE: 'AB (publ)',
  DK: 'A/S',
  NO: 'ASA',
  FI: 'Oyj',
  PL: 'S.A.',
  PT: 'S.A.',
  BR: 'S.A.',
  MX: 'S.A.B. de C.V.',
  JP: 'Corporation',
  AU: 'Limited',
  IN: 'Limited',
};

function companyName(rng: Rng, industry: Industry, country: Country, city: string, isPublic: boolean): { name: string; legalName: string } {
  const surname = () => rng.pick(namePool(country.locale).last).split(' ')[0]!; // split always gives one part
  const coined = () => rng.pick(HEADS) + rng.pick(TAILS);
  const noun = () => rng.pick(industry.nouns);
  let name: string;
  switch (industry.kind) {
    case 'government':
      name = rng.pick([
        `City of ${city}`,
        `${city} County`,
        `${city} Transit Authority`,
        `${city} Water Authority`,
        `${city} Department of Public Works`,
        `${city} Port Authority`,
      ]);
      return { name, legalName: name };
    case 'education':
      name = rng.pick([
        `University of ${city}`,
        `${city} State University`,
        `${surname()} College`,
        `${city} Institute of Technology`,
        `${coined()} University`,
        `${city} Community College`,
      ]);
      return { name, legalName: name };
    case 'nonprofit':
      name = rng.pick([
        `${surname()} Foundation`,
        `${city} Community Trust`,
        `${coined()} Alliance`,
        `${coined()} Foundation`,
        `Friends of ${city}`,
        `${city} Food Bank`,
      ]);
      return { name, legalName: name };
    default: {
      const r = rng.next();
      const n = noun();
      if (n.startsWith('&')) name = `${surname()} ${n}`;
      else if (r < 0.3) name = `${surname()} ${n}`;
      else if (r < 0.62) name = rng.chance(0.5) ? coined() : `${coined()} ${n}`;
      else if (r < 0.72) name = `${city} ${n}`;
      else if (r < 0.82 && ['ind_legal', 'ind_accounting', 'ind_consulting', 'ind_architecture'].includes(industry.id)) name = `${surname()} & ${surname()}`;
      else name = `${rng.pick(HEADS)} ${n}`;
      const legal = isPublic ? (PUBLIC_LEGAL[country.code] ?? 'Ltd.') : rng.pick(LEGAL[country.code] ?? ['Ltd.']);
      return { name, legalName: `${name} ${legal}` };
    }
  }
}

/** Draws before a taken name gets a qualifier; most collisions clear on the first redraw. */
const NAME_DRAWS = 6;

/**
 * A company name no earlier company of the world has (compared folded: case, spaces and
 * punctuation aside); `taken` holds the folded names handed out so far. A name is redrawn a
 * few times, then qualified by the city, then the country, then numbered — so two domains
 * never share a display name and a company cannot be mistaken for its own competitor.
 */
export function uniqueCompanyName(
  rng: Rng,
  industry: Industry,
  country: Country,
  city: string,
  isPublic: boolean,
  taken: Set<string>,
): { name: string; legalName: string } {
  let drawn = companyName(rng, industry, country, city, isPublic);
  for (let i = 1; i < NAME_DRAWS && taken.has(foldName(drawn.name)); i++) drawn = companyName(rng, industry, country, city, isPublic);
  const suffix = drawn.legalName.slice(drawn.name.length);
  const qualified = [drawn.name, ...[city, country.name].filter((q) => !drawn.name.includes(q)).map((q) => `${drawn.name} ${q}`)];
  let name = qualified.find((n) => !taken.has(foldName(n)));
  for (let n = 2; name === undefined; n++) if (!taken.has(foldName(`${drawn.name} ${n}`))) name = `${drawn.name} ${n}`;
  taken.add(foldName(name));
  return { name, legalName: name + suffix };
}

function tldFor(rng: Rng, industry: Industry, country: Country): string {
  if (industry.kind === 'government') return country.code === 'US' ? 'gov' : country.code === 'GB' ? 'gov.uk' : country.code === 'AU' ? 'gov.au' : country.tld;
  if (industry.kind === 'education') return country.code === 'US' ? 'edu' : country.code === 'GB' ? 'ac.uk' : country.code === 'AU' ? 'edu.au' : country.tld;
  if (industry.kind === 'nonprofit') return country.code === 'US' || rng.chance(0.5) ? 'org' : country.tld;
  if (industry.sector === 'Technology' && rng.chance(0.18)) return rng.pick(['io', 'ai', 'tech', 'co']);
  if (country.code === 'US') return 'com';
  return rng.chance(0.6) ? country.tld : 'com';
}

/** Picks a free domain for the name; `taken` is the set of domains handed out so far. */
export function companyDomain(rng: Rng, name: string, industry: Industry, country: Country, taken: Set<string>): string {
  const base = slugify(name.replace(/^(City|University) of /, '$1of '), '');
  const tld = tldFor(rng, industry, country);
  const hyphen = slugify(name);
  const candidates = [
    `${base}.${tld}`,
    `${hyphen}.${tld}`,
    `${base}${country.code.toLowerCase()}.${tld === 'com' ? country.tld : 'com'}`,
    `${base}group.${tld}`,
    `${base}-${slugify(country.cities[0].name, '')}.${tld}`,
  ];
  for (const d of candidates) {
    if (d.length <= 63 + tld.length + 1 && !taken.has(d)) {
      taken.add(d);
      return d;
    }
  }
  for (let n = 2; ; n++) {
    const d = `${base}${n}.${tld}`;
    if (!taken.has(d)) {
      taken.add(d);
      return d;
    }
  }
}
