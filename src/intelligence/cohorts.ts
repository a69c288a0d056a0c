// Default, Competitors and Aspirational peer sets by blocking and ranking: candidates come
// from blocks of alike firmographics (industry × employee band × region, widened step by
// step until there are enough), never from an all-pairs scan; each candidate is then
// scored with the kind's combined similarity and the top K are kept. Default and
// Competitors rank in two stages: the first stage (the pairwise parts) gives every company
// its nearest peers, the second adds the peers two companies share (FirstStage below).
import type { Population } from './features.ts';
import { combineParts, emptyParts, SimilarityProbe, WEIGHTS, type SimilarityParts } from './similarity.ts';

export interface CohortParams {
  /** Most members of a Default cohort. */
  defaultSize: number;
  /** Fewest members of a Default cohort (when that many candidates exist). */
  defaultMinSize: number;
  /**
   * Default members must score (second stage: shared neighbours included) at least this share
   * of the mean of the top 5 scores: a company whose true peer group is small gets a small,
   * pure cohort rather than one padded with poor matches.
   */
  defaultRelativeCut: number;
  competitorsSize: number;
  /** Competitor lists are cut the same way, keeping at least this many. */
  competitorsMinSize: number;
  competitorsRelativeCut: number;
  aspirationalSize: number;
  /** Widen the blocks until at least this many candidates are found. */
  minCandidates: number;
  /** Score at most this many candidates per company (a deterministic sample beyond). */
  maxCandidates: number;
  /** First-stage nearest peers per company that the shared-neighbours part compares. */
  firstStagePeers: number;
}

export const DEFAULT_COHORT_PARAMS: CohortParams = {
  defaultSize: 25,
  defaultMinSize: 10,
  defaultRelativeCut: 0.78,
  competitorsSize: 50,
  competitorsMinSize: 20,
  competitorsRelativeCut: 0.72,
  aspirationalSize: 25,
  minCandidates: 200,
  maxCandidates: 400,
  firstStagePeers: 15,
};

/** The public cap on competitor lists: the API promises at most 50. */
export const MAX_COMPETITORS = 50;

interface Scored {
  member: number;
  score: number;
}

interface CompanyCohorts {
  default: Scored[];
  competitors: Scored[];
  aspirational: Scored[];
}

export type Key = string | null;
const k = (...parts: (string | number)[]) => parts.join(':');

/** Inverted lists from block key to member indices (ascending: gather relies on it), built once per population. */
export class BlockIndex {
  private readonly blocks = new Map<string, number[]>();
  private readonly all: number[];

  constructor(readonly pop: Population) {
    this.all = Array.from({ length: pop.size }, (_, i) => i);
    for (let i = 0; i < pop.size; i++) for (const key of this.keysOf(i)) this.add(key, i);
  }

  private keysOf(i: number): string[] {
    const { industry: ind, sector: sec, emp, rev, region } = this.pop;
    const keys: string[] = [];
    if (ind[i]! >= 0) {
      keys.push(k('i', ind[i]!), k('ie', ind[i]!, emp[i]!), k('ier', ind[i]!, emp[i]!, region[i]!), k('ir', ind[i]!, rev[i]!));
    }
    if (sec[i]! >= 0) keys.push(k('s', sec[i]!), k('se', sec[i]!, emp[i]!), k('sr', sec[i]!, rev[i]!));
    keys.push(k('e', emp[i]!), k('er', emp[i]!, region[i]!));
    return keys;
  }

  private add(key: string, i: number): void {
    const list = this.blocks.get(key);
    if (list) list.push(i);
    else this.blocks.set(key, [i]);
  }

  list(key: Key): number[] {
    if (key === null) return [];
    return key === '*' ? this.all : (this.blocks.get(key) ?? []);
  }
}

/**
 * Gathers candidates tier by tier. A tier that would overflow maxCandidates is sampled
 * with a deterministic stride (seeded by the company) so refreshes are reproducible.
 *
 * The sample is taken without walking the tier: a tier's blocks are disjoint and each
 * lists members in ascending order, so the positions of the members to leave out (the
 * company itself, those picked in earlier tiers) are found by binary search, and each
 * sampled position maps to its member in O(1) amortized. A large population's blocks hold
 * tens of thousands of members; walking them for every company made the refresh
 * quadratic (10 ms per company at 1,000,000 companies, against 1 ms at 50,000). Small
 * tiers are walked, which is cheaper there; both ways pick the same members.
 */
export function gather(index: BlockIndex, self: number, tiers: Key[][], min: number, max: number): number[] {
  const picked = new Set<number>();
  for (const tier of tiers) {
    const lists = [...new Set(tier)].map((key) => index.list(key)).filter((list) => list.length > 0);
    const total = lists.reduce((sum, list) => sum + list.length, 0);
    const room = max - picked.size;
    if (total <= WALK_FACTOR * (room + picked.size + 1)) walkTier(lists, self, picked, room);
    else sampleTier(lists, total, self, picked, room);
    if (picked.size >= min) break;
  }
  return [...picked];
}

/** Below this many members per candidate slot a tier is walked rather than searched. */
const WALK_FACTOR = 4;

/** The stride's start: the same company always starts at the same place. */
const strideOffset = (self: number, stride: number) => ((self * 2654435761) >>> 0) % Math.max(1, Math.floor(stride));

function walkTier(lists: number[][], self: number, picked: Set<number>, room: number): void {
  const fresh: number[] = [];
  for (const list of lists) for (const m of list) if (m !== self && !picked.has(m)) fresh.push(m);
  if (fresh.length <= room) {
    for (const m of fresh) picked.add(m);
    return;
  }
  const stride = fresh.length / room;
  const offset = strideOffset(self, stride);
  for (let t = 0; t < room; t++) picked.add(fresh[Math.min(fresh.length - 1, offset + Math.floor(t * stride))]!);
}

function sampleTier(lists: number[][], total: number, self: number, picked: Set<number>, room: number): void {
  // Positions, in the tier's lists laid end to end, of the members that are not candidates.
  const skip: number[] = [];
  let base = 0;
  for (const list of lists) {
    const at = ascendingIndexOf(list, self);
    if (at >= 0) skip.push(base + at);
    for (const m of picked) {
      const pos = ascendingIndexOf(list, m);
      if (pos >= 0) skip.push(base + pos);
    }
    base += list.length;
  }
  skip.sort((a, b) => a - b);
  const fresh = total - skip.length;
  if (fresh <= room) {
    walkTier(lists, self, picked, room);
    return;
  }
  const stride = fresh / room;
  const offset = strideOffset(self, stride);
  let skipped = 0,
    list = 0,
    listStart = 0;
  for (let t = 0; t < room; t++) {
    // The t-th sampled candidate is the p-th member that is not skipped.
    const p = Math.min(fresh - 1, offset + Math.floor(t * stride));
    let q = p + skipped;
    while (skipped < skip.length && skip[skipped]! <= q) q = p + ++skipped;
    while (q >= listStart + lists[list]!.length) listStart += lists[list++]!.length;
    picked.add(lists[list]![q - listStart]!);
  }
}

/** Index of `value` in an ascending array, or -1. */
function ascendingIndexOf(sorted: number[], value: number): number {
  let lo = 0,
    hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The best `size` of the scored candidates; ties break on the member's id so results do not depend on load order. */
function topK(pop: Population, scored: Scored[], size: number): Scored[] {
  scored.sort((a, b) => b.score - a.score || (pop.ids[a.member]! < pop.ids[b.member]! ? -1 : 1));
  return scored.slice(0, size).map((s) => ({ member: s.member, score: Math.round(s.score * 10_000) / 10_000 }));
}

function relativeCut(ranked: Scored[], min: number, cut: number): Scored[] {
  if (cut <= 0 || ranked.length <= min) return ranked;
  const top = ranked.slice(0, 5);
  const bar = (cut * top.reduce((s, x) => s + x.score, 0)) / top.length;
  let keep = min;
  while (keep < ranked.length && ranked[keep]!.score >= bar) keep++;
  return ranked.slice(0, keep);
}

/**
 * The first stage of the Default and Competitors ranking: each company's `firstStagePeers`
 * best candidates by the firstStage row of WEIGHTS (the Default row's pairwise parts with
 * more weight on the stack), computed on first use and kept, in one flat array (bounded
 * memory: k numbers a company).
 *
 * Why a second stage: one company's stack is a noisy sample of its segment's, so the pairwise
 * score confuses neighbouring segments (same industry, size and region, another tech
 * maturity). Two companies of one segment tend to have the same nearest peers even when their
 * own stacks overlap little; the shared-neighbour count pools those peers' stacks. A company's
 * list costs one scoring of its candidates, so a full refresh does the cohort work about
 * twice; an incremental one computes the lists of the changed companies' candidates.
 */
export class FirstStage {
  private readonly lists: Int32Array;
  private readonly known: Uint8Array;
  private readonly probe: SimilarityProbe;
  private readonly marks: Int32Array;
  private marked = -1;

  constructor(
    readonly index: BlockIndex,
    readonly params: CohortParams = DEFAULT_COHORT_PARAMS,
  ) {
    const n = index.pop.size;
    this.lists = new Int32Array(n * params.firstStagePeers).fill(-1);
    this.known = new Uint8Array(n);
    this.probe = new SimilarityProbe(index.pop);
    this.marks = new Int32Array(n).fill(-1);
  }

  /** Company i's first-stage peers (fewer than k, padded with -1, when it has fewer candidates). */
  peersOf(i: number): Int32Array {
    const k = this.params.firstStagePeers;
    if (!this.known[i]) {
      const parts = emptyParts();
      this.probe.from(i);
      const scored = peerCandidates(this.index, i, this.params).map((m) => ({
        member: m,
        score: combineParts(this.probe.parts(m, parts), WEIGHTS.firstStage),
      }));
      this.remember(i, topK(this.index.pop, scored, k));
    }
    return this.lists.subarray(i * k, (i + 1) * k);
  }

  /** Records company i's first-stage ranking, when it was computed elsewhere (best first). */
  remember(i: number, ranked: Scored[]): void {
    if (this.known[i]) return;
    const k = this.params.firstStagePeers;
    for (let j = 0; j < k && j < ranked.length; j++) this.lists[i * k + j] = ranked[j]!.member;
    this.known[i] = 1;
  }

  /**
   * The shared-neighbours part of `self` and `m`: how many of self's first-stage peers m also
   * counts among its own, plus 1 when m is one of them, over k + 1; in [0, 1].
   */
  shared(self: number, m: number): number {
    const k = this.params.firstStagePeers;
    if (this.marked !== self) {
      for (const p of this.peersOf(self)) if (p >= 0) this.marks[p] = self;
      this.marked = self;
    }
    let count = this.marks[m] === self ? 1 : 0;
    for (const p of this.peersOf(m)) if (p >= 0 && this.marks[p] === self) count++;
    return count / (k + 1);
  }
}

/** Peers by combined similarity: Default and Competitors share one candidate set. */
function peerCandidates(index: BlockIndex, self: number, params: CohortParams): number[] {
  const { industry, sector, emp, region } = index.pop;
  const ind = industry[self]! >= 0 ? industry[self]! : null;
  const sec = sector[self]! >= 0 ? sector[self]! : null;
  const e = emp[self]!,
    r = region[self]!;
  const iKey = (...p: number[]) => (ind === null ? null : k(...(p.length === 1 ? ['ie', ind, ...p] : ['ier', ind, ...p])));
  const tiers: Key[][] = [
    [iKey(e, r)],
    [iKey(e)],
    [iKey(e - 1), iKey(e + 1)],
    [sec === null ? null : k('se', sec, e)],
    [sec === null ? null : k('se', sec, e - 1), sec === null ? null : k('se', sec, e + 1)],
    [ind === null ? null : k('i', ind)],
    [k('er', e, r)],
    [sec === null ? null : k('s', sec)],
    [k('e', e)],
    ['*'],
  ];
  return gather(index, self, tiers, params.minCandidates, params.maxCandidates);
}

/**
 * Aspirational candidates: same industry (then sector), one or two employee bands larger
 * (revenue bands when the employee band is unknown); at the top band, the same band.
 */
function aspirationalCandidates(index: BlockIndex, self: number, params: CohortParams): number[] {
  const { industry, sector, emp, rev, region } = index.pop;
  const ind = industry[self]! >= 0 ? industry[self]! : null;
  const sec = sector[self]! >= 0 ? sector[self]! : null;
  const useRev = emp[self]! < 0;
  const band = useRev ? rev[self]! : emp[self]!;
  if (band < 0) return [];
  const top = useRev ? 8 : 7;
  const up = band >= top ? [band] : [band + 1, band + 2].filter((b) => b <= top);
  const r = region[self]!;
  const byInd = (b: number) => (ind === null ? null : useRev ? k('ir', ind, b) : k('ie', ind, b));
  const bySec = (b: number) => (sec === null ? null : useRev ? k('sr', sec, b) : k('se', sec, b));
  const tiers: Key[][] = [useRev || ind === null ? [] : up.map((b) => k('ier', ind, b, r)), up.map(byInd), up.map(bySec)];
  return gather(index, self, tiers, params.minCandidates, params.maxCandidates);
}

/**
 * All three computed peer sets of one company. Pass one probe and one first stage for a whole
 * refresh: the probe holds dense arrays the size of the product catalog and the term
 * vocabulary, the first stage every company's nearest peers computed so far.
 */
export function computeCohorts(
  index: BlockIndex,
  self: number,
  params: CohortParams = DEFAULT_COHORT_PARAMS,
  probe = new SimilarityProbe(index.pop),
  firstStage = new FirstStage(index, params),
): CompanyCohorts {
  const pop = index.pop;
  probe.from(self);
  // Default and Competitors rank one candidate set with different weights: compare once.
  const peers = peerCandidates(index, self, params);
  const defaults: Scored[] = [];
  const nearest: Scored[] = [];
  const competitors: Scored[] = [];
  const parts: SimilarityParts = emptyParts();
  // A company under another domain with the same name is the company itself (a second site,
  // a regional domain), never its competitor.
  const ownName = pop.name[self]!;
  for (const m of peers) {
    probe.parts(m, parts);
    defaults.push({ member: m, score: combineParts(parts, WEIGHTS.default) });
    nearest.push({ member: m, score: combineParts(parts, WEIGHTS.firstStage) });
    if (ownName < 0 || pop.name[m] !== ownName) competitors.push({ member: m, score: combineParts(parts, WEIGHTS.competitors) });
  }
  const own = pop.stackWeight[self]!;
  let aspiring = aspirationalCandidates(index, self, params);
  // "More mature stack": keep candidates whose stack outweighs the company's, unless
  // that leaves too few to fill the cohort.
  const mature = aspiring.filter((m) => pop.stackWeight[m]! > own);
  if (mature.length >= params.aspirationalSize) aspiring = mature;
  const gain = (m: number) => 0.1 * Math.min(1, Math.max(0, pop.stackWeight[m]! - own) / Math.max(1, own));
  const aspirational = aspiring.map((m) => ({ member: m, score: combineParts(probe.parts(m, parts), WEIGHTS.aspirational) + gain(m) }));
  // The company's own first-stage peers come from the comparisons just made.
  firstStage.remember(self, topK(pop, nearest, params.firstStagePeers));
  // The second stage adds the shared nearest neighbours; the relative cut then reads its
  // scores, so who and how many are decided together: a company whose segment is small shares
  // few peers with the candidates past it, and its cohort ends there (purity 0.887 → 0.898 at
  // the same mean size on the fitting seed, against the cut over the pairwise parts alone).
  const { neighbours: wd } = WEIGHTS.default,
    { neighbours: wc } = WEIGHTS.competitors;
  for (const d of defaults) if (wd) d.score += wd * firstStage.shared(self, d.member);
  for (const c of competitors) if (wc) c.score += wc * firstStage.shared(self, c.member);
  return {
    default: relativeCut(topK(pop, defaults, params.defaultSize), params.defaultMinSize, params.defaultRelativeCut),
    competitors: relativeCut(
      topK(pop, competitors, Math.min(MAX_COMPETITORS, params.competitorsSize)),
      params.competitorsMinSize,
      params.competitorsRelativeCut,
    ),
    aspirational: topK(pop, aspirational, params.aspirationalSize),
  };
}
