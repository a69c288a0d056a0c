// The news feed of one company over the last three years, consistent with its record:
// every funding round and acquisition in the window has its item (same day, same
// amount), executive appointments name people of the company, "selects" releases name
// products it really adopted, around the day the evidence first saw them.
import type { Catalog } from './catalog.ts';
import type { Company } from './companies.ts';
import type { Person } from './people.ts';
import { rngFor, type Rng } from './rng.ts';
import { slugify } from '../../slug.ts';
import type { Install } from './stacks.ts';

export const FEED_CATEGORIES = ['NEWS', 'PRESS', 'FUNDING', 'ACQUISITION', 'PEOPLE', 'BLOG', 'VIDEOS'] as const;
type FeedCategory = (typeof FEED_CATEGORIES)[number];

interface FeedItem {
  id: string;
  publishedAt: number;
  title: string;
  description: string;
  sourceUrl: string;
  publisherName: string;
  publisherLogoUrl: string;
  enclosureImageUrl: string | null;
  category: FeedCategory;
}

interface Publisher {
  name: string;
  domain: string;
}
const NEWS_PUBLISHERS: Publisher[] = [
  { name: 'The Business Ledger', domain: 'businessledger.news' },
  { name: 'TechBeat', domain: 'techbeat.news' },
  { name: 'Market Watchtower', domain: 'marketwatchtower.news' },
  { name: 'Industry Pulse', domain: 'industrypulse.news' },
  { name: 'Enterprise Times Online', domain: 'enterprisetimes.news' },
  { name: 'Regional Business Review', domain: 'regionalbusinessreview.news' },
  { name: 'Capital Street Journal', domain: 'capitalstreet.news' },
  { name: 'Startup Digest', domain: 'startupdigest.news' },
];
const WIRES: Publisher[] = [
  { name: 'NewsWire Today', domain: 'newswiretoday.news' },
  { name: 'PR Distribution Network', domain: 'prdistribution.news' },
  { name: 'GlobeWire', domain: 'globewire.news' },
];
const VIDEO: Publisher[] = [
  { name: 'YouTube', domain: 'youtube.com' },
  { name: 'Vimeo', domain: 'vimeo.com' },
];
const DAY = 86_400_000;
const WINDOW_DAYS = 1095;
const COUNT_RANGE = { small: [5, 12], mid: [8, 20], large: [15, 35], enterprise: [25, 50] } as const;

const money = (usd: number) => (usd >= 1e9 ? `$${(usd / 1e9).toFixed(1)}B` : `$${Math.round(usd / 1e5) / 10}M`);
const logo = (p: Publisher) => `https://logos.stacklens.example/${p.domain}.png`;

export function generateFeed(
  seed: string,
  asOfMs: number,
  company: Company,
  people: Person[],
  installs: Install[],
  catalog: Catalog,
  density: number,
  feedId: (n: number) => string,
): FeedItem[] {
  const rng = rngFor(seed, 'feed', company.index);
  const [lo, hi] = COUNT_RANGE[company.segment.tier];
  const target = Math.max(5, Math.min(50, Math.round(rng.int(lo, hi) * density * (company.segment.maturity === 'leading' ? 1.15 : 1))));
  const windowStart = asOfMs - WINDOW_DAYS * DAY;
  const at = (dayIso: string) => Date.parse(`${dayIso}T00:00:00Z`) + rng.int(6, 20) * 3_600_000;
  const drafts: Omit<FeedItem, 'id'>[] = [];
  const news = (category: FeedCategory, publishedAt: number, title: string, description: string, pub: Publisher, url?: string) =>
    drafts.push({
      category,
      publishedAt,
      title,
      description,
      publisherName: pub.name,
      publisherLogoUrl: logo(pub),
      sourceUrl: url ?? `https://www.${pub.domain}/${new Date(publishedAt).toISOString().slice(0, 7).replace('-', '/')}/${slugify(title).slice(0, 80)}`,
      enclosureImageUrl: rng.chance(0.6) ? `https://images.${pub.domain.replace(/^www\./, '')}/${slugify(title).slice(0, 40)}-${rng.token(6)}.jpg` : null,
    });
  const c = company.name;
  for (const round of company.funding) {
    const t = at(round.date);
    if (t < windowStart || t > asOfMs) continue;
    const amount = round.amount === null ? 'an undisclosed amount' : money(round.amount);
    news(
      'FUNDING',
      t,
      round.amount === null ? `${c} closes ${round.type} round` : `${c} raises ${amount} in ${round.type} funding`,
      `${c} has raised ${amount} in a ${round.type} round to expand its ${rng.pick(company.industry.offerings)} business.`,
      rng.pick(NEWS_PUBLISHERS),
    );
  }
  for (const a of company.acquisitions) {
    const t = at(a.date);
    if (t < windowStart || t > asOfMs) continue;
    news(
      'ACQUISITION',
      t,
      `${c} acquires ${a.name}`,
      `${c} announced the acquisition of ${a.name}${a.amount ? ` for ${money(a.amount)}` : ''}, adding capabilities in ${rng.pick(company.industry.offerings)}.`,
      rng.pick(NEWS_PUBLISHERS),
    );
  }
  const execs = people.filter((p) => p.seniority === 'C-Level' || p.seniority === 'VP');
  for (const p of rng.sample(execs, Math.min(execs.length, rng.int(1, 3)))) {
    news(
      'PEOPLE',
      windowStart + rng.uniform(0, WINDOW_DAYS) * DAY,
      `${c} appoints ${p.fullName} as ${p.title}`,
      `${p.fullName} joins ${c} as ${p.title}, based in ${p.city}.`,
      rng.pick(rng.chance(0.5) ? WIRES : NEWS_PUBLISHERS),
    );
  }
  const adopted = installs.filter((i) => i.kind === 'active' && i.firstVerified > windowStart + 10 * DAY);
  for (const inst of rng.sample(adopted, Math.min(adopted.length, rng.int(0, 2)))) {
    const product = catalog.products[inst.product]!; // installs hold indexes into this catalog
    const vendor = catalog.vendorById.get(product.vendorId)!;
    news(
      'PRESS',
      inst.firstVerified - rng.int(1, 10) * DAY,
      `${c} selects ${product.name} to modernize ${catalog.categoryById.get(product.categoryId)!.name.toLowerCase()}`,
      `${vendor.name} announced that ${c} has chosen ${product.name}.`,
      { name: `${vendor.name} Newsroom`, domain: `www.${vendor.domain}` },
      `https://www.${vendor.domain}/newsroom/${slugify(c)}-selects-${slugify(product.name)}`,
    );
  }
  if (company.stock) {
    for (let q = 1; q <= 12 && drafts.length < target; q += rng.int(1, 3)) {
      const t = asOfMs - (q * 91 - rng.int(0, 20)) * DAY;
      news(
        'NEWS',
        t,
        `${c} (${company.stock.exchange}: ${company.stock.ticker}) reports quarterly results`,
        `${c} reported revenue in line with guidance and reaffirmed its outlook.`,
        rng.pick(NEWS_PUBLISHERS),
      );
    }
  }
  while (drafts.length < target) filler(rng, company, windowStart + rng.uniform(0, WINDOW_DAYS - 1) * DAY, news);
  drafts.sort((a, b) => a.publishedAt - b.publishedAt || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return drafts.slice(0, 50).map((d, j) => ({ ...d, id: feedId(company.index * 64 + j) }));
}

type Emit = (category: FeedCategory, t: number, title: string, description: string, pub: Publisher, url?: string) => void;

function filler(rng: Rng, company: Company, t: number, news: Emit): void {
  const c = company.name;
  const offering = rng.pick(company.industry.offerings);
  const customers = rng.pick(company.industry.customers);
  const blog: Publisher = { name: `${c} Blog`, domain: `www.${company.domain}` };
  switch (rng.weighted([30, 22, 18, 12, 8])) {
    case 0:
      news(
        'NEWS',
        t,
        rng.pick([
          `${c} expands ${offering} for ${customers}`,
          `${c} opens new office in ${company.city}`,
          `${c} named a leader in ${company.industry.name.toLowerCase()}`,
          `How ${c} is growing in ${company.country.name}`,
          `${c} partners with regional players on ${offering}`,
        ]),
        `Coverage of ${c}, ${company.industry.name.toLowerCase()} company based in ${company.city}.`,
        rng.pick(NEWS_PUBLISHERS),
      );
      break;
    case 1:
      news(
        'PRESS',
        t,
        rng.pick([
          `${c} launches new ${offering}`,
          `${c} announces strategic partnership`,
          `${c} wins industry award for ${offering}`,
          `${c} achieves ISO 27001 certification`,
        ]),
        `${c} today announced news about its ${offering}.`,
        rng.pick(WIRES),
      );
      break;
    case 2: {
      const title = rng.pick([
        `5 trends shaping ${company.industry.name.toLowerCase()} this year`,
        `What ${customers} expect from ${offering}`,
        `Inside our team: building ${offering}`,
        `Lessons from a year of ${offering}`,
      ]);
      news('BLOG', t, title, `From the ${c} blog.`, blog, `https://www.${company.domain}/blog/${slugify(title)}`);
      break;
    }
    case 3: {
      const pub = rng.pick(VIDEO);
      const url = pub.name === 'YouTube' ? `https://www.youtube.com/watch?v=${rng.token(11)}` : `https://vimeo.com/${rng.int(100_000_000, 999_999_999)}`;
      news(
        'VIDEOS',
        t,
        rng.pick([`Webinar: ${offering} best practices`, `${c} customer story`, `${c} at the ${company.industry.name} Summit`]),
        `Video from ${c}.`,
        pub,
        url,
      );
      break;
    }
    default:
      news(
        'PEOPLE',
        t,
        rng.pick([`${c} is hiring across ${company.city}`, `${c} grows its team by ${rng.int(5, 40)}%`, `${c} named a great place to work`]),
        `Workforce news about ${c}.`,
        rng.pick(NEWS_PUBLISHERS),
      );
  }
}
