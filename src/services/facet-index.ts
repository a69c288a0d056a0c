// The market-sizing index: the world as market sizing counts it — each company's country,
// industry and bands and its installed products, as typed arrays — held in the server process
// and counted in memory, so that counting 50,000 companies by technology takes milliseconds
// where the SQL path (store/facets.ts) joins a million installs. It answers exactly as the SQL
// path does (a test holds the two equal): the same cells, totals, order of ties and samples.
//
// Freshness: the index remembers the version of the snapshot it was read from
// (store/facet-world.ts: reference_version and the sum of world_changes, which every writer of
// companies or installs adds to in its own transaction: store/change-notes.ts). A request compares it with the
// database's version first; when they differ the index is read again in the background (one
// build at a time, at most one every few seconds) and, meanwhile, the request is answered by
// the old index only if it was read less than the allowed staleness ago
// (FACETS_MAX_STALENESS_SECONDS; the answer's countedAt says when), else by SQL. At a million
// companies a build takes tens of seconds and the SQL path as long, so with writes arriving all
// day an index that must be current would almost never be used.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/db.ts';
import type { FacetDimension } from '../schemas/facets.ts';
import type { FacetRow } from '../store/facets.ts';
import { facetWorldVersion, foldWorldChanges, loadFacetWorld, type FacetWorldRows } from '../store/facet-world.ts';

/** The values of one dimension, in the database's order; a value's position is its rank. */
interface Dictionary {
  values: string[];
  /** The display name of each value (industries, products, categories), else null. */
  names: Array<string | null>;
}

const COMPANY_DIMENSIONS = ['country', 'industry', 'employeeBand', 'revenueBand'] as const;
type CompanyDimension = (typeof COMPANY_DIMENSIONS)[number];
const isCompanyDimension = (d: FacetDimension): d is CompanyDimension => (COMPANY_DIMENSIONS as readonly string[]).includes(d);

/** Above this many installs the index is not built (its arrays take ~3 bytes an install). */
const MAX_INDEXED_INSTALLS = 50_000_000;
/** Companies counted between two turns of the event loop. */
const COMPANIES_PER_TURN = 100_000;

export class FacetIndex {
  private constructor(
    readonly version: string,
    /** When the snapshot was taken (at most this old: it holds every write committed before). */
    readonly readAt: Date,
    /** Company ids, in the order of search samples (lower(name or domain), id). */
    private readonly ids: string[],
    private readonly position: Map<string, number>,
    /** Per company dimension, each company's value (its rank in the dictionary), -1 for null. */
    private readonly values: Record<CompanyDimension, Int32Array>,
    /** Installs of company c: products[offsets[c] .. offsets[c + 1]) (product ranks). */
    private readonly offsets: Uint32Array,
    private readonly products: Uint32Array,
    /** Each product's category rank, -1 for none. */
    private readonly productCategory: Int32Array,
    private readonly dictionaries: Record<FacetDimension, Dictionary>,
  ) {
    this.scratch1 = new Int32Array(productCategory.length + 1);
    this.scratch2 = new Int32Array(productCategory.length + 1);
  }

  // A company's values of one dimension: at most one per product of the catalog.
  private readonly scratch1: Int32Array;
  private readonly scratch2: Int32Array;

  /** Reads the world in one snapshot; undefined when it has too many installs to hold. */
  static async load(db: Db): Promise<FacetIndex | undefined> {
    const readAt = new Date();
    let world: FacetWorldRows | undefined;
    const installCompany: number[] = [];
    const installProduct: number[] = [];
    let tooBig = false;
    await loadFacetWorld(db, (w) => {
      world = w;
      const position = new Map(w.companies.map((r, i) => [r[0], i]));
      const productRank = new Map(w.products.map((r, i) => [r[0], i]));
      return (batch) => {
        if (tooBig || installCompany.length + batch.length > MAX_INDEXED_INSTALLS) {
          tooBig = true;
          return;
        }
        for (const [companyId, productId] of batch) {
          const c = position.get(companyId);
          const p = productRank.get(productId);
          if (c === undefined || p === undefined) continue; // the foreign keys make this impossible
          installCompany.push(c);
          installProduct.push(p);
        }
      };
    });
    if (tooBig || !world) return undefined;
    const rows = world;
    // Each step below is one pass over the companies or installs: the event loop turns between them.
    await nextTurn();
    const n = rows.companies.length;
    const rank = (values: readonly string[]) => new Map(values.map((v, i) => [v, i]));
    const dictionaries: Record<FacetDimension, Dictionary> = {
      country: { values: rows.countries, names: rows.countries.map(() => null) },
      industry: { values: rows.industries.map((r) => r[0]), names: rows.industries.map((r) => r[1]) },
      employeeBand: { values: rows.employeeBands, names: rows.employeeBands.map(() => null) },
      revenueBand: { values: rows.revenueBands, names: rows.revenueBands.map(() => null) },
      technology: { values: rows.products.map((r) => r[0]), names: rows.products.map((r) => r[1]) },
      category: { values: rows.categories.map((r) => r[0]), names: rows.categories.map((r) => r[1]) },
    };
    const column = (k: 1 | 2 | 3 | 4, d: CompanyDimension) => {
      const r = rank(dictionaries[d].values);
      const out = new Int32Array(n);
      rows.companies.forEach((row, i) => (out[i] = row[k] === null ? -1 : (r.get(row[k]!) ?? -1)));
      return out;
    };
    const values = {
      country: column(1, 'country'),
      industry: column(2, 'industry'),
      employeeBand: column(3, 'employeeBand'),
      revenueBand: column(4, 'revenueBand'),
    };
    await nextTurn();
    // Installs grouped by company (a counting sort of the pairs).
    const offsets = new Uint32Array(n + 1);
    for (const c of installCompany) offsets[c + 1]!++;
    for (let c = 0; c < n; c++) offsets[c + 1]! += offsets[c]!;
    const products = new Uint32Array(installCompany.length);
    const next = offsets.slice(0, n);
    installCompany.forEach((c, i) => (products[next[c]!++] = installProduct[i]!));
    await nextTurn();
    const categoryRank = rank(dictionaries.category.values);
    const productCategory = Int32Array.from(rows.products, (r) => (r[2] === null ? -1 : (categoryRank.get(r[2]) ?? -1)));
    const ids = rows.companies.map((r) => r[0]);
    return new FacetIndex(rows.version, readAt, ids, new Map(ids.map((id, i) => [id, i])), values, offsets, products, productCategory, dictionaries);
  }

  /** The positions of these company ids, ascending (sample order); undefined if one is not in the index. */
  positionsOf(ids: readonly string[]): Int32Array | undefined {
    const out = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const p = this.position.get(ids[i]!);
      if (p === undefined) return undefined;
      out[i] = p;
    }
    return out.sort();
  }

  /**
   * A company's values of a dimension into `out` (ranks; -1: null), each once; returns how
   * many. An install dimension of a company without installs is one null value.
   */
  private valuesOf(c: number, d: FacetDimension, out: Int32Array): number {
    if (isCompanyDimension(d)) {
      out[0] = this.values[d][c]!;
      return 1;
    }
    const from = this.offsets[c]!,
      to = this.offsets[c + 1]!;
    if (from === to) {
      out[0] = -1;
      return 1;
    }
    let k = 0;
    for (let i = from; i < to; i++) {
      const v = d === 'technology' ? this.products[i]! : this.productCategory[this.products[i]!]!;
      // Categories repeat when two products share one: keep each once (stacks are short).
      if (d === 'category' && out.subarray(0, k).includes(v)) continue;
      out[k++] = v;
    }
    return k;
  }

  /**
   * The pairs (v1, v2) of a company, as the SQL path forms them: one per install when a
   * dimension is an install dimension (technology and category of the same install), the
   * cross of the values otherwise; each pair once. Keys: (v1 + 1) * width + (v2 + 1).
   */
  private pairsOf(c: number, d1: FacetDimension, d2: FacetDimension | undefined, width: number, out: number[]): void {
    out.length = 0;
    const a = this.scratch1,
      b = this.scratch2;
    if (d2 && !isCompanyDimension(d1) && !isCompanyDimension(d2)) {
      // technology × category: each install gives (product, its category).
      const from = this.offsets[c]!,
        to = this.offsets[c + 1]!;
      if (from === to) out.push(0);
      for (let i = from; i < to; i++) {
        const p = this.products[i]!;
        const [v1, v2] = d1 === 'technology' ? [p, this.productCategory[p]!] : [this.productCategory[p]!, p];
        const key = (v1 + 1) * width + (v2 + 1);
        if (!out.includes(key)) out.push(key);
      }
      return;
    }
    const n1 = this.valuesOf(c, d1, a);
    const n2 = d2 ? this.valuesOf(c, d2, b) : 1;
    if (!d2) b[0] = -1;
    for (let i = 0; i < n1; i++) for (let j = 0; j < n2; j++) out.push((a[i]! + 1) * width + (b[j]! + 1));
  }

  /**
   * The cells, totals and samples of the companies at `matched` (positions, ascending; null:
   * every company), as store/facets.ts returns them from SQL.
   */
  async count(
    matched: Int32Array | null,
    dimensions: readonly FacetDimension[],
    limit: number,
    sample: number,
    namesOf: (ids: string[]) => Promise<Map<string, { domain: string; name: string | null }>>,
  ): Promise<{ total: number; rows: FacetRow[]; cellCount: number }> {
    const [d1, d2] = dimensions as [FacetDimension, FacetDimension | undefined];
    const total = matched ? matched.length : this.ids.length;
    if (total === 0) return { total: 0, rows: [], cellCount: 0 };
    const size1 = this.dictionaries[d1].values.length + 1;
    const width = d2 ? this.dictionaries[d2].values.length + 1 : 1;
    const cells = new Int32Array(size1 * width);
    const totals1 = new Int32Array(size1);
    const totals2 = new Int32Array(width);
    const pairs: number[] = [];
    const seen1 = new Int32Array(size1).fill(-1);
    const seen2 = new Int32Array(width).fill(-1);
    for (let i = 0; i < total; i++) {
      if (i > 0 && i % COMPANIES_PER_TURN === 0) await nextTurn();
      const c = matched ? matched[i]! : i;
      this.pairsOf(c, d1, d2, width, pairs);
      for (const key of pairs) {
        cells[key]!++;
        // A dimension's totals count a company once per value.
        const v1 = Math.floor(key / width),
          v2 = key % width;
        if (seen1[v1] !== c) ((seen1[v1] = c), totals1[v1]!++);
        if (seen2[v2] !== c) ((seen2[v2] = c), totals2[v2]!++);
      }
    }
    // Largest first; ties by value in the database's order, null last (the SQL path's order).
    const byValue = (a: number, b: number) => (a === 0 ? (b === 0 ? 0 : 1) : b === 0 ? -1 : a - b);
    const nonEmpty: number[] = [];
    for (let key = 0; key < cells.length; key++) if (cells[key]! > 0) nonEmpty.push(key);
    nonEmpty.sort((a, b) => cells[b]! - cells[a]! || byValue(Math.floor(a / width), Math.floor(b / width)) || byValue(a % width, b % width));
    const top = nonEmpty.slice(0, limit);
    const samples = sample > 0 ? await this.samples(matched, top, d1, d2, width, sample, namesOf) : undefined;
    const value = (d: FacetDimension | undefined, v: number): [string | null, string | null] =>
      !d || v === 0 ? [null, null] : [this.dictionaries[d].values[v - 1]!, this.dictionaries[d].names[v - 1]!];
    const rows: FacetRow[] = top.map((key, i) => {
      const [v1, n1] = value(d1, Math.floor(key / width));
      const [v2, n2] = value(d2, key % width);
      return { level: 0, v1, n1, v2, n2, companies: cells[key]!, sample: samples ? samples[i]! : null };
    });
    if (d2) {
      const totalsOf = (level: 1 | 2, d: FacetDimension, counts: Int32Array) => {
        const keys: number[] = [];
        counts.forEach((n, v) => n > 0 && keys.push(v));
        keys.sort((a, b) => counts[b]! - counts[a]! || byValue(a, b));
        for (const v of keys.slice(0, limit)) {
          const [val, name] = value(d, v);
          rows.push(
            level === 1
              ? { level, v1: val, n1: name, v2: null, n2: null, companies: counts[v]!, sample: null }
              : { level, v1: null, n1: null, v2: val, n2: name, companies: counts[v]!, sample: null },
          );
        }
      };
      totalsOf(1, d1, totals1);
      totalsOf(2, d2, totals2);
    }
    return { total, rows, cellCount: nonEmpty.length };
  }

  /** The first `sample` companies of each top cell in sample order (positions ascend in it). */
  private async samples(
    matched: Int32Array | null,
    top: number[],
    d1: FacetDimension,
    d2: FacetDimension | undefined,
    width: number,
    sample: number,
    namesOf: (ids: string[]) => Promise<Map<string, { domain: string; name: string | null }>>,
  ): Promise<Array<Array<{ domain: string; name: string | null }>>> {
    const slot = new Map(top.map((key, i) => [key, i]));
    const picked: number[][] = top.map(() => []);
    let open = top.length;
    const pairs: number[] = [];
    const total = matched ? matched.length : this.ids.length;
    for (let i = 0; i < total && open > 0; i++) {
      if (i > 0 && i % COMPANIES_PER_TURN === 0) await nextTurn();
      const c = matched ? matched[i]! : i;
      this.pairsOf(c, d1, d2, width, pairs);
      for (const key of pairs) {
        const s = slot.get(key);
        if (s === undefined || picked[s]!.length >= sample) continue;
        picked[s]!.push(c);
        if (picked[s]!.length === sample) open--;
      }
    }
    const names = await namesOf([...new Set(picked.flat())].map((c) => this.ids[c]!));
    return picked.map((cs) => cs.map((c) => names.get(this.ids[c]!) ?? { domain: this.ids[c]!, name: null }));
  }
}

interface IndexState {
  index?: FacetIndex;
  building?: Promise<void>;
  lastBuild: number;
  /** The world has too many installs for an index: SQL only. */
  tooBig?: boolean;
}
const states = new WeakMap<Db, IndexState>();
/** A stale index is read again at most this often (a crawl writing all day rebuilds it every few seconds, not at each write). */
const MIN_REBUILD_MS = 5_000;

function build(db: Db, state: IndexState): Promise<void> {
  state.lastBuild = Date.now();
  state.building = (async () => {
    await foldWorldChanges(db).catch(() => {}); // a read replica cannot write: its primary folds
    const index = await FacetIndex.load(db);
    if (index) state.index = index;
    else state.tooBig = true;
  })()
    .catch(() => {}) // a failed build leaves the SQL path in charge; the next request tries again
    .finally(() => (state.building = undefined));
  return state.building;
}

/**
 * The index if it holds the database's current world, or one read less than `maxStalenessMs`
 * ago; else undefined. Unless one is under way or too recent, a stale index starts a rebuild in
 * the background. The first request of a process waits for the first build.
 */
export async function currentFacetIndex(db: Db, maxStalenessMs = 0): Promise<FacetIndex | undefined> {
  let state = states.get(db);
  if (!state) states.set(db, (state = { lastBuild: 0 }));
  if (state.tooBig) return undefined;
  if (!state.index && !state.building && Date.now() - state.lastBuild >= MIN_REBUILD_MS) void build(db, state);
  if (!state.index && state.building) await state.building;
  const version = await facetWorldVersion(db);
  if (state.index?.version === version) return state.index;
  if (!state.building && Date.now() - state.lastBuild >= MIN_REBUILD_MS) void build(db, state);
  if (state.index && Date.now() - state.index.readAt.getTime() < maxStalenessMs) return state.index;
  return undefined;
}
