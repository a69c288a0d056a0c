// Countries of the demo world: ISO-2 code, realistic weight, region, naming locale, web
// domain suffix, phone prefix, stock exchange, and real cities with state and a postal
// code template (# digit, ? letter) so addresses read right.

export type Region = 'NA' | 'EMEA' | 'APAC' | 'LATAM';
export const REGIONS: readonly Region[] = ['NA', 'EMEA', 'APAC', 'LATAM'];

export type StreetStyle = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt' | 'nordic' | 'pl' | 'jp' | 'num';

export interface City {
  name: string;
  state: string;
  postal: string;
}

export interface Country {
  code: string;
  name: string;
  region: Region;
  weight: number;
  /** Key into names.ts (faker locale or a romanized list). */
  locale: string;
  tld: string;
  phone: string;
  street: StreetStyle;
  exchange: string;
  /** The first city is the best known (it names the country in fallback domains). */
  cities: [City, ...City[]];
}

/** Parses "name|state|postal;…"; a typo in the table fails at load, not as "undefined" in an address. */
const c = (list: string): [City, ...City[]] => {
  const cities = list.split(';').map((entry): City => {
    const [name, state, postal, extra] = entry.split('|').map((s) => s.trim());
    if (!name || !state || !postal || extra !== undefined) throw new Error(`geo: city entry "${entry}" is not name|state|postal`);
    return { name, state, postal };
  });
  const [first, ...rest] = cities;
  if (!first) throw new Error('geo: a country without cities');
  return [first, ...rest];
};

export const COUNTRIES: readonly Country[] = [
  { code: 'US', name: 'United States', region: 'NA', weight: 34, locale: 'en_US', tld: 'com', phone: '+1', street: 'en', exchange: 'NASDAQ', cities: c('New York|NY|100##;San Francisco|CA|941##;Austin|TX|787##;Chicago|IL|606##;Boston|MA|021##;Seattle|WA|981##;Atlanta|GA|303##;Denver|CO|802##;Los Angeles|CA|900##;Dallas|TX|752##;Miami|FL|331##;Minneapolis|MN|554##;Raleigh|NC|276##;Columbus|OH|432##;Phoenix|AZ|850##;Nashville|TN|372##;Pittsburgh|PA|152##;Salt Lake City|UT|841##;San Diego|CA|921##;Portland|OR|972##') },
  { code: 'CA', name: 'Canada', region: 'NA', weight: 4, locale: 'en_CA', tld: 'ca', phone: '+1', street: 'en', exchange: 'TSX', cities: c('Toronto|ON|M5? #?#;Vancouver|BC|V6? #?#;Montreal|QC|H2? #?#;Calgary|AB|T2? #?#;Ottawa|ON|K1? #?#;Waterloo|ON|N2? #?#') },
  { code: 'GB', name: 'United Kingdom', region: 'EMEA', weight: 7, locale: 'en_GB', tld: 'co.uk', phone: '+44', street: 'en', exchange: 'LSE', cities: c('London|England|EC#? #??;Manchester|England|M# #??;Birmingham|England|B# #??;Edinburgh|Scotland|EH# #??;Bristol|England|BS# #??;Leeds|England|LS# #??;Cambridge|England|CB# #??;Glasgow|Scotland|G# #??') },
  { code: 'DE', name: 'Germany', region: 'EMEA', weight: 6, locale: 'de', tld: 'de', phone: '+49', street: 'de', exchange: 'XETRA', cities: c('Berlin|Berlin|10###;Munich|Bavaria|80###;Hamburg|Hamburg|20###;Frankfurt am Main|Hesse|60###;Cologne|North Rhine-Westphalia|50###;Stuttgart|Baden-Württemberg|70###;Düsseldorf|North Rhine-Westphalia|40###;Leipzig|Saxony|04###') },
  { code: 'FR', name: 'France', region: 'EMEA', weight: 4, locale: 'fr', tld: 'fr', phone: '+33', street: 'fr', exchange: 'Euronext Paris', cities: c('Paris|Île-de-France|750##;Lyon|Auvergne-Rhône-Alpes|690##;Toulouse|Occitanie|310##;Nantes|Pays de la Loire|440##;Bordeaux|Nouvelle-Aquitaine|330##;Lille|Hauts-de-France|590##') },
  { code: 'NL', name: 'Netherlands', region: 'EMEA', weight: 2.5, locale: 'nl', tld: 'nl', phone: '+31', street: 'nl', exchange: 'Euronext Amsterdam', cities: c('Amsterdam|North Holland|10## ??;Rotterdam|South Holland|30## ??;Utrecht|Utrecht|35## ??;Eindhoven|North Brabant|56## ??;The Hague|South Holland|25## ??') },
  { code: 'ES', name: 'Spain', region: 'EMEA', weight: 2, locale: 'es', tld: 'es', phone: '+34', street: 'es', exchange: 'BME', cities: c('Madrid|Madrid|280##;Barcelona|Catalonia|080##;Valencia|Valencia|460##;Seville|Andalusia|410##;Bilbao|Basque Country|480##') },
  { code: 'IT', name: 'Italy', region: 'EMEA', weight: 2, locale: 'it', tld: 'it', phone: '+39', street: 'it', exchange: 'Borsa Italiana', cities: c('Milan|Lombardy|201##;Rome|Lazio|001##;Turin|Piedmont|101##;Bologna|Emilia-Romagna|401##;Florence|Tuscany|501##') },
  { code: 'SE', name: 'Sweden', region: 'EMEA', weight: 1.5, locale: 'sv', tld: 'se', phone: '+46', street: 'nordic', exchange: 'Nasdaq Stockholm', cities: c('Stockholm|Stockholm County|111 ##;Gothenburg|Västra Götaland|411 ##;Malmö|Skåne|211 ##;Uppsala|Uppsala County|753 ##') },
  { code: 'CH', name: 'Switzerland', region: 'EMEA', weight: 1.3, locale: 'de_CH', tld: 'ch', phone: '+41', street: 'de', exchange: 'SIX', cities: c('Zurich|Zurich|80##;Geneva|Geneva|12##;Basel|Basel-Stadt|40##;Bern|Bern|30##;Lausanne|Vaud|10##') },
  { code: 'IE', name: 'Ireland', region: 'EMEA', weight: 1, locale: 'en_IE', tld: 'ie', phone: '+353', street: 'en', exchange: 'Euronext Dublin', cities: c('Dublin|Leinster|D0# ?#?#;Cork|Munster|T12 ?#?#;Galway|Connacht|H91 ?#?#;Limerick|Munster|V94 ?#?#') },
  { code: 'BE', name: 'Belgium', region: 'EMEA', weight: 1, locale: 'nl_BE', tld: 'be', phone: '+32', street: 'nl', exchange: 'Euronext Brussels', cities: c('Brussels|Brussels-Capital|10##;Antwerp|Flanders|20##;Ghent|Flanders|90##;Leuven|Flanders|30##') },
  { code: 'DK', name: 'Denmark', region: 'EMEA', weight: 0.8, locale: 'da', tld: 'dk', phone: '+45', street: 'nordic', exchange: 'Nasdaq Copenhagen', cities: c('Copenhagen|Capital Region|1###;Aarhus|Central Jutland|8000;Odense|Southern Denmark|5000') },
  { code: 'NO', name: 'Norway', region: 'EMEA', weight: 0.7, locale: 'nb_NO', tld: 'no', phone: '+47', street: 'nordic', exchange: 'Oslo Børs', cities: c('Oslo|Oslo|0###;Bergen|Vestland|50##;Trondheim|Trøndelag|70##;Stavanger|Rogaland|40##') },
  { code: 'FI', name: 'Finland', region: 'EMEA', weight: 0.6, locale: 'fi', tld: 'fi', phone: '+358', street: 'nordic', exchange: 'Nasdaq Helsinki', cities: c('Helsinki|Uusimaa|00###;Espoo|Uusimaa|02###;Tampere|Pirkanmaa|33###;Oulu|North Ostrobothnia|90###') },
  { code: 'AT', name: 'Austria', region: 'EMEA', weight: 0.8, locale: 'de_AT', tld: 'at', phone: '+43', street: 'de', exchange: 'Wiener Börse', cities: c('Vienna|Vienna|1###;Graz|Styria|80##;Linz|Upper Austria|40##;Salzburg|Salzburg|50##') },
  { code: 'PL', name: 'Poland', region: 'EMEA', weight: 1.2, locale: 'pl', tld: 'pl', phone: '+48', street: 'pl', exchange: 'GPW', cities: c('Warsaw|Masovia|00-###;Kraków|Lesser Poland|30-###;Wrocław|Lower Silesia|50-###;Gdańsk|Pomerania|80-###;Poznań|Greater Poland|60-###') },
  { code: 'PT', name: 'Portugal', region: 'EMEA', weight: 0.6, locale: 'pt_PT', tld: 'pt', phone: '+351', street: 'pt', exchange: 'Euronext Lisbon', cities: c('Lisbon|Lisbon|1###-###;Porto|Porto|4###-###;Braga|Braga|47##-###') },
  { code: 'CZ', name: 'Czechia', region: 'EMEA', weight: 0.5, locale: 'cs_CZ', tld: 'cz', phone: '+420', street: 'num', exchange: 'Prague Stock Exchange', cities: c('Prague|Prague|1## ##;Brno|South Moravia|6## ##;Ostrava|Moravia-Silesia|7## ##') },
  { code: 'IL', name: 'Israel', region: 'EMEA', weight: 0.9, locale: 'il', tld: 'co.il', phone: '+972', street: 'num', exchange: 'TASE', cities: c('Tel Aviv|Tel Aviv District|6######;Jerusalem|Jerusalem District|9######;Haifa|Haifa District|3######;Herzliya|Tel Aviv District|46#####') },
  { code: 'AE', name: 'United Arab Emirates', region: 'EMEA', weight: 0.7, locale: 'ae', tld: 'ae', phone: '+971', street: 'num', exchange: 'DFM', cities: c('Dubai|Dubai|00000;Abu Dhabi|Abu Dhabi|00000;Sharjah|Sharjah|00000') },
  { code: 'ZA', name: 'South Africa', region: 'EMEA', weight: 0.7, locale: 'en_ZA', tld: 'co.za', phone: '+27', street: 'en', exchange: 'JSE', cities: c('Johannesburg|Gauteng|2###;Cape Town|Western Cape|8###;Durban|KwaZulu-Natal|4###;Pretoria|Gauteng|0###') },
  { code: 'AU', name: 'Australia', region: 'APAC', weight: 3, locale: 'en_AU', tld: 'com.au', phone: '+61', street: 'en', exchange: 'ASX', cities: c('Sydney|NSW|2###;Melbourne|VIC|3###;Brisbane|QLD|4###;Perth|WA|6###;Adelaide|SA|5###') },
  { code: 'NZ', name: 'New Zealand', region: 'APAC', weight: 0.5, locale: 'en_AU', tld: 'co.nz', phone: '+64', street: 'en', exchange: 'NZX', cities: c('Auckland|Auckland|10##;Wellington|Wellington|60##;Christchurch|Canterbury|80##') },
  { code: 'IN', name: 'India', region: 'APAC', weight: 3, locale: 'en_IN', tld: 'in', phone: '+91', street: 'num', exchange: 'NSE', cities: c('Bengaluru|Karnataka|560###;Mumbai|Maharashtra|400###;New Delhi|Delhi|110###;Hyderabad|Telangana|500###;Pune|Maharashtra|411###;Chennai|Tamil Nadu|600###') },
  { code: 'JP', name: 'Japan', region: 'APAC', weight: 2.5, locale: 'jp', tld: 'co.jp', phone: '+81', street: 'jp', exchange: 'TSE', cities: c('Tokyo|Tokyo|1##-####;Osaka|Osaka|5##-####;Yokohama|Kanagawa|2##-####;Nagoya|Aichi|4##-####;Fukuoka|Fukuoka|8##-####') },
  { code: 'SG', name: 'Singapore', region: 'APAC', weight: 1.2, locale: 'sg', tld: 'com.sg', phone: '+65', street: 'en', exchange: 'SGX', cities: c('Singapore|Singapore|0#####') },
  { code: 'CN', name: 'China', region: 'APAC', weight: 1.5, locale: 'cn', tld: 'cn', phone: '+86', street: 'num', exchange: 'SSE', cities: c('Shanghai|Shanghai|200###;Beijing|Beijing|100###;Shenzhen|Guangdong|518###;Hangzhou|Zhejiang|310###') },
  { code: 'KR', name: 'South Korea', region: 'APAC', weight: 1, locale: 'kr', tld: 'co.kr', phone: '+82', street: 'num', exchange: 'KRX', cities: c('Seoul|Seoul|0####;Busan|Busan|4####;Incheon|Incheon|2####;Seongnam|Gyeonggi|13###') },
  { code: 'HK', name: 'Hong Kong', region: 'APAC', weight: 0.6, locale: 'hk', tld: 'com.hk', phone: '+852', street: 'en', exchange: 'HKEX', cities: c('Hong Kong|Hong Kong Island|000000;Kowloon|Kowloon|000000') },
  { code: 'BR', name: 'Brazil', region: 'LATAM', weight: 2, locale: 'pt_BR', tld: 'com.br', phone: '+55', street: 'pt', exchange: 'B3', cities: c('São Paulo|SP|01###-###;Rio de Janeiro|RJ|20###-###;Belo Horizonte|MG|30###-###;Curitiba|PR|80###-###;Porto Alegre|RS|90###-###') },
  { code: 'MX', name: 'Mexico', region: 'LATAM', weight: 1.2, locale: 'es_MX', tld: 'com.mx', phone: '+52', street: 'es', exchange: 'BMV', cities: c('Mexico City|CDMX|06###;Guadalajara|Jalisco|44###;Monterrey|Nuevo León|64###;Puebla|Puebla|72###') },
  { code: 'AR', name: 'Argentina', region: 'LATAM', weight: 0.5, locale: 'es', tld: 'com.ar', phone: '+54', street: 'es', exchange: 'BYMA', cities: c('Buenos Aires|Buenos Aires|C1###???;Córdoba|Córdoba|X5###???;Rosario|Santa Fe|S2###???') },
  { code: 'CO', name: 'Colombia', region: 'LATAM', weight: 0.5, locale: 'es', tld: 'com.co', phone: '+57', street: 'es', exchange: 'BVC', cities: c('Bogotá|Bogotá D.C.|110###;Medellín|Antioquia|050###;Cali|Valle del Cauca|760###') },
  { code: 'CL', name: 'Chile', region: 'LATAM', weight: 0.4, locale: 'es', tld: 'cl', phone: '+56', street: 'es', exchange: 'Santiago Stock Exchange', cities: c('Santiago|Santiago Metropolitan|83#####;Valparaíso|Valparaíso|23#####;Concepción|Biobío|40#####') },
];

export const COUNTRIES_BY_REGION = new Map(
  REGIONS.map((r) => [r, COUNTRIES.filter((k) => k.region === r)] as const),
);
