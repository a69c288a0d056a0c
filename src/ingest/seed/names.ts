// Person names and street names per country. Latin-script locales take faker's name
// lists (used as plain data with our own PRNG, so output stays seed-stable); the others
// use short romanized lists, as B2B profile data is written.
import { allFakers } from '@faker-js/faker';
import type { Rng } from './rng.ts';
import type { Country } from './geo.ts';

interface NamePool {
  female: readonly string[];
  male: readonly string[];
  last: readonly string[];
}

const split = (s: string) => s.trim().split(/\s+/);

const ROMANIZED: Record<string, NamePool> = {
  jp: {
    female: split('Yui Aoi Hina Yuna Sakura Haruka Misaki Ayaka Emi Naomi Keiko Yoko Mai Rina Saki Yuko'),
    male: split('Haruto Sota Yuto Hiroshi Takeshi Kenji Daisuke Shota Ryo Kazuki Naoki Satoshi Takumi Yusuke Kenta Akira'),
    last: split(
      'Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu Mori',
    ),
  },
  cn: {
    female: split('Wei Fang Jing Li Ying Xiu Min Hui Yan Lin Na Xin Yue Qian Lan'),
    male: split('Wei Jun Hao Lei Yang Tao Ming Jie Peng Bo Hui Qiang Chen Long Feng'),
    last: split('Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao'),
  },
  kr: {
    female: split('Ji-woo Seo-yeon Min-ji Ha-eun Soo-jin Ye-jin Eun-ji Hye-jin Yuna Ji-hye'),
    male: split('Min-jun Seo-jun Ji-hoon Hyun-woo Dong-hyun Jae-won Sung-min Joon-ho Tae-yang Woo-jin'),
    last: split('Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon'),
  },
  sg: {
    female: split('Mei Ling Hui Min Priya Nur Siti Rachel Grace Jia Hui Sarah Aisyah Michelle'),
    male: split('Wei Jie Jun Hao Ravi Muhammad Daniel Marcus Kelvin Ryan Arjun Benjamin Jonathan'),
    last: split('Tan Lim Lee Ng Ong Wong Goh Chua Chan Koh Teo Ang Yeo Tay Ho Kumar Rahman Nair'),
  },
  hk: {
    female: split('Cheryl Karen Winnie Mandy Grace Vivian Ivy Joyce Michelle Candy'),
    male: split('Kelvin Raymond Wilson Eric Dennis Alan Kenneth Patrick Stanley Ivan'),
    last: split('Chan Wong Leung Lau Cheung Lee Ho Ng Tsang Chow Yip Lam Kwok Mak'),
  },
  il: {
    female: split('Noa Maya Tamar Yael Shira Michal Dana Rotem Adi Lior'),
    male: split('Yosef David Daniel Ariel Itai Omer Eitan Noam Amit Yonatan'),
    last: split('Cohen Levi Mizrahi Peretz Biton Dahan Avraham Friedman Katz Azoulay Shapiro Goldberg'),
  },
  ae: {
    female: split('Fatima Mariam Aisha Noura Layla Hessa Sara Reem Amna Dana'),
    male: split('Mohammed Ahmed Omar Khalid Rashid Saeed Hamdan Yousef Ali Faisal'),
    last: split('Al Mansoori Al Nuaimi Al Shamsi Al Mazrouei Al Hashimi Al Suwaidi Khan Haddad Nasser Aziz'),
  },
};

const pools = new Map<string, NamePool>();

/** The name pool of a locale key from geo.ts. */
export function namePool(locale: string): NamePool {
  let pool = pools.get(locale);
  if (pool) return pool;
  pool = ROMANIZED[locale];
  if (!pool) {
    const person = (allFakers as Record<string, { definitions: { person?: any } }>)[locale]?.definitions.person;
    const first = person?.first_name ?? {};
    const last = person?.last_name ?? {};
    const clean = (xs: unknown): string[] => (Array.isArray(xs) ? xs.filter((x) => typeof x === 'string' && !x.includes('{')) : []);
    const female = clean(first.female).length ? clean(first.female) : clean(first.generic);
    const male = clean(first.male).length ? clean(first.male) : clean(first.generic);
    const lastNames = [...clean(last.generic), ...clean(last.male)];
    pool = { female, male, last: lastNames };
    if (!pool.female.length || !pool.male.length || !pool.last.length) pool = namePool('en_US');
  }
  pools.set(locale, pool);
  return pool;
}

export function personName(rng: Rng, locale: string): { first: string; last: string } {
  const pool = namePool(locale);
  const first = rng.chance(0.5) ? rng.pick(pool.female) : rng.pick(pool.male);
  return { first, last: rng.pick(pool.last) };
}

const EN_SUFFIX = ['Street', 'Avenue', 'Road', 'Drive', 'Lane', 'Boulevard', 'Way', 'Place', 'Court', 'Parkway'];
const EN_ROOT = [
  'Main',
  'Oak',
  'Maple',
  'Park',
  'Cedar',
  'Pine',
  'Elm',
  'Washington',
  'Lake',
  'Hill',
  'Market',
  'Church',
  'Mill',
  'River',
  'King',
  'Queen',
  'Victoria',
  'Station',
  'Harbour',
  'Bridge',
  'Spring',
  'Union',
  'Franklin',
  'Madison',
  'Highland',
];

/** A street line in the style of the country, using surnames of its locale as roots. */
export function streetLine(rng: Rng, country: Country): string {
  const surname = () => rng.pick(namePool(country.locale).last);
  const n = rng.int(1, 250);
  switch (country.street) {
    case 'en':
      return `${n} ${rng.chance(0.6) ? rng.pick(EN_ROOT) : surname()} ${rng.pick(EN_SUFFIX)}`;
    case 'de':
      return `${surname()}${rng.pick(['straße', 'weg', 'allee', 'ring', 'platz'])} ${rng.int(1, 120)}`;
    case 'fr':
      return `${rng.int(1, 90)} ${rng.pick(['rue', 'avenue', 'boulevard', 'place'])} ${rng.pick(['Victor Hugo', 'de la République', 'Jean Jaurès', 'du Général de Gaulle', 'Pasteur', 'de la Paix', 'Voltaire', 'des Lilas'])}`;
    case 'es':
      return `${rng.pick(['Calle', 'Avenida', 'Paseo'])} ${rng.pick(['Mayor', 'de la Constitución', 'del Sol', 'Real', 'de Colón', 'San Martín', 'Reforma', 'de los Insurgentes'])} ${rng.int(1, 200)}`;
    case 'it':
      return `${rng.pick(['Via', 'Corso', 'Piazza'])} ${rng.pick(['Roma', 'Garibaldi', 'Mazzini', 'Dante', 'Verdi', 'Cavour', 'Marconi', 'della Repubblica'])} ${rng.int(1, 150)}`;
    case 'nl':
      return `${surname()}${rng.pick(['straat', 'laan', 'weg', 'gracht', 'plein'])} ${rng.int(1, 200)}`;
    case 'pt':
      return `${rng.pick(['Rua', 'Avenida', 'Praça'])} ${rng.pick(['das Flores', 'da Liberdade', 'Paulista', 'Augusta', 'do Comércio', 'Brasil', 'da República'])}, ${rng.int(10, 2500)}`;
    case 'nordic':
      return `${surname()}${rng.pick(['gatan', 'vägen', 'gade', 'veien', 'katu'])} ${rng.int(1, 80)}`;
    case 'pl':
      return `ul. ${rng.pick(['Marszałkowska', 'Długa', 'Floriańska', 'Piotrkowska', 'Mickiewicza', 'Kościuszki', 'Sienkiewicza'])} ${rng.int(1, 150)}`;
    case 'jp':
      return `${rng.int(1, 9)}-${rng.int(1, 30)}-${rng.int(1, 20)} ${rng.pick(['Marunouchi', 'Shibuya', 'Roppongi', 'Umeda', 'Shinjuku', 'Minato Mirai', 'Sakae', 'Tenjin'])}`;
    case 'num':
      return `${rng.int(1, 400)} ${rng.pick(['Business Park', 'Tech Park', 'Tower', 'Plaza', 'Center', 'Corporate Square'])}, ${rng.pick(['Level', 'Floor'])} ${rng.int(1, 40)}`;
  }
}

/** Fills a postal template: # → digit, ? → uppercase letter. */
export function postalCode(rng: Rng, template: string): string {
  let out = '';
  for (const ch of template) {
    if (ch === '#') out += String(rng.int(0, 9));
    else if (ch === '?') out += 'ABCDEFGHJKLMNPRSTUVWXYZ'[rng.int(0, 22)];
    else out += ch;
  }
  return out;
}
