// A synthetic segmented world for the refresh benchmark (and a stand-in evaluation world):
// companies belong to hidden segments (industry × size tier × region) whose core products
// drive their stacks; installs carry noisy evidence; truth tables record the segments and
// the true in-use flags. Fast bulk inserts with unnest; deterministic per seed.
import type { Db } from '../src/db/db.ts';
import { EMPLOYEE_BAND_LABELS as EMPLOYEE_BANDS, REVENUE_BAND_LABELS as REVENUE_BANDS } from '../src/bands.ts';

export interface BenchWorldOptions {
  companies: number;
  seed?: number;
  asOf?: Date;
}

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const REGIONS: Record<string, string[]> = { NA: ['US', 'CA'], EU: ['GB', 'DE', 'FR', 'NL', 'ES'], APAC: ['JP', 'AU', 'SG', 'IN'] };
const TIERS: Record<string, number[]> = { small: [0, 1, 2], mid: [3, 4], large: [5, 6, 7] };
const DAY = 86_400_000;
const FLUSH_EVERY = 50_000;

async function insert(db: Db, table: string, columns: string[], types: string[], rows: unknown[][], select = '*'): Promise<void> {
  for (let i = 0; i < rows.length; i += 20_000) {
    const chunk = rows.slice(i, i + 20_000);
    const arrays = columns.map((_, c) => chunk.map((r) => r[c]));
    const args = types.map((t, c) => `$${c + 1}::${t}[]`).join(', ');
    const names = columns.map((_, c) => `c${c}`).join(', ');
    await db.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select} FROM unnest(${args}) AS t(${names})`, arrays);
  }
}

export async function generateBenchWorld(db: Db, options: BenchWorldOptions): Promise<{ installs: number }> {
  const rand = rng(options.seed ?? 42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const asOf = (options.asOf ?? new Date()).getTime();
  const sectors = ['Technology', 'Finance', 'Health', 'Retail', 'Industry', 'Services'];
  const industries = Array.from({ length: 24 }, (_, i) => ({ id: `ind_b${i}`, name: `Industry ${i}`, sector: sectors[i % sectors.length]! }));
  await insert(
    db,
    'industries',
    ['id', 'name', 'sector'],
    ['text', 'text', 'text'],
    industries.map((r) => [r.id, r.name, r.sector]),
  );
  const cats = Array.from({ length: 40 }, (_, i) => `cat_b${i}`);
  await insert(
    db,
    'categories',
    ['id', 'name', 'level'],
    ['text', 'text', 'int'],
    cats.map((c, i) => [c, `Category ${i}`, 0]),
  );
  const vendors = Array.from({ length: 200 }, (_, i) => `ven_b${i}`);
  await insert(
    db,
    'vendors',
    ['id', 'domain', 'name'],
    ['text', 'text', 'text'],
    vendors.map((v, i) => [v, `vendor${i}.example`, `Vendor ${i}`]),
  );
  const products = Array.from({ length: 600 }, (_, i) => ({ id: `prd_b${i}`, cat: cats[i % cats.length]!, vendor: vendors[i % vendors.length]! }));
  await insert(
    db,
    'products',
    ['id', 'vendor_id', 'category_id', 'name'],
    ['text', 'text', 'text', 'text'],
    products.map((p, i) => [p.id, p.vendor, p.cat, `Product ${i}`]),
  );

  // Segments: each has its own core products; three products are near-universal.
  const universal = products.slice(0, 3).map((p) => p.id);
  const segments: { id: string; industry: (typeof industries)[number]; tier: string; region: string; core: string[]; words: string[] }[] = [];
  for (const industry of industries)
    for (const tier of Object.keys(TIERS))
      for (const region of Object.keys(REGIONS)) {
        const core = new Set<string>();
        while (core.size < 12) core.add(pick(products.slice(3)).id);
        const words = [`${industry.name.replace(' ', '').toLowerCase()}`, `vertical${industry.id.slice(5)}`, `niche${Math.floor(rand() * 5)}`];
        segments.push({ id: `seg_${industry.id}_${tier}_${region}`, industry, tier, region, core: [...core], words });
      }
  let companies: unknown[][] = [],
    truthSeg: unknown[][] = [],
    installs: unknown[][] = [],
    truth: unknown[][] = [];
  let installCount = 0;
  // Written every FLUSH_EVERY companies: a world of a million companies (15 M installs) does not fit in one heap.
  const flush = async () => {
    await insert(
      db,
      'companies',
      ['id', 'domain', 'name', 'industry_id', 'employee_band', 'revenue_band', 'country', 'description'],
      ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text'],
      companies,
    );
    await insert(
      db,
      'installs',
      ['company_id', 'product_id', 'first_verified', 'last_verified', 'hit_count', 'intensity', 'sources'],
      ['text', 'text', 'timestamptz', 'timestamptz', 'int', 'int', 'text'],
      installs,
      "c0, c1, c2, c3, c4, c5, string_to_array(c6, ',')",
    );
    await insert(
      db,
      'truth_segments',
      ['company_id', 'segment_id', 'industry_id', 'size_tier', 'region', 'maturity'],
      ['text', 'text', 'text', 'text', 'text', 'text'],
      truthSeg,
    );
    await insert(db, 'truth_installs', ['company_id', 'product_id', 'in_use', 'kind'], ['text', 'text', 'bool', 'text'], truth);
    installCount += installs.length;
    companies = [];
    truthSeg = [];
    installs = [];
    truth = [];
  };
  for (let i = 0; i < options.companies; i++) {
    if (companies.length >= FLUSH_EVERY) await flush();
    const seg = pick(segments);
    const id = `cmp_b${String(i).padStart(7, '0')}`;
    const band = pick(TIERS[seg.tier]!);
    const rev = Math.min(REVENUE_BANDS.length - 1, Math.max(0, band + Math.floor(rand() * 3) - 1));
    companies.push([
      id,
      `b${i}.example`,
      `Company ${i}`,
      seg.industry.id,
      EMPLOYEE_BANDS[band],
      REVENUE_BANDS[rev],
      pick(REGIONS[seg.region]!),
      `${seg.words.join(' ')} ${pick(['cloud', 'platform', 'network', 'studio'])}`,
    ]);
    truthSeg.push([id, seg.id, seg.industry.id, seg.tier, seg.region, pick(['early', 'growing', 'mature'])]);
    const used = new Map<string, boolean>();
    for (const p of universal) if (rand() < 0.6) used.set(p, true);
    for (const p of seg.core) if (rand() < 0.6) used.set(p, true);
    for (let k = 0; k < 3; k++) used.set(pick(products).id, true);
    for (let k = 0; k < 4; k++) {
      const p = pick(products).id;
      if (!used.has(p)) used.set(p, false);
    } // churned
    for (const [p, inUse] of used) {
      truth.push([id, p, inUse, inUse ? 'active' : 'churned']);
      if (rand() < 0.1) continue; // not observed
      const age = inUse ? -Math.log(1 - rand()) * 45 : 60 + -Math.log(1 - rand()) * 300;
      const last = asOf - age * DAY;
      const first = last - rand() * 900 * DAY;
      const hits = Math.max(1, Math.round((inUse ? 30 : 8) * -Math.log(1 - rand())));
      const intensity = Math.min(100, Math.max(0, Math.round((inUse ? 55 : 30) + (rand() - 0.5) * 60)));
      const sources = ['website', 'jobs', 'dns', 'social'].slice(0, 1 + Math.floor(rand() * (inUse ? 4 : 2)));
      installs.push([id, p, new Date(first).toISOString(), new Date(last).toISOString(), hits, intensity, sources.join(',')]);
    }
  }
  await flush();
  return { installs: installCount };
}
