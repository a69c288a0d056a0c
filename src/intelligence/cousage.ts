// Global co-usage statistics over the whole population, materialized by the refresh job:
// how many companies use each product, and for each anchor product how many of its users
// also use each other product (the top pairs per anchor by support).

interface CoUsageStats {
  population: number;
  /** Per product index: companies using it. */
  users: Int32Array;
  /** Per anchor index: [productIndex, together] pairs, most shared first. */
  pairs: Map<number, [number, number][]>;
}

/** Pairs kept per anchor; request-time ranking never looks deeper than this. */
const PAIRS_PER_ANCHOR = 200;
/** Pairs seen together fewer times than this are noise and not stored. */
const MIN_PAIR_SUPPORT = 2;

/**
 * Counts over sorted in-use stacks (product indices). A dense triangular counter is used
 * while the catalog is small enough (≤ 4,000 products, 32 MB); a sparse map beyond.
 */
export function computeCoUsage(stacks: Int32Array[], productCount: number, perAnchor = PAIRS_PER_ANCHOR): CoUsageStats {
  const users = new Int32Array(productCount);
  let population = 0;
  const dense = productCount <= 4000 ? new Uint32Array(productCount * productCount) : null;
  const sparse = dense ? null : new Map<number, number>();
  for (const stack of stacks) {
    if (stack.length === 0) continue;
    population++;
    for (let i = 0; i < stack.length; i++) {
      const a = stack[i]!;
      users[a]!++;
      for (let j = i + 1; j < stack.length; j++) {
        const key = a * productCount + stack[j]!;
        if (dense) dense[key]!++;
        else sparse!.set(key, (sparse!.get(key) ?? 0) + 1);
      }
    }
  }
  const lists = new Map<number, [number, number][]>();
  const push = (a: number, b: number, n: number) => {
    const list = lists.get(a);
    if (list) list.push([b, n]);
    else lists.set(a, [[b, n]]);
  };
  const visit = (key: number, n: number) => {
    if (n < MIN_PAIR_SUPPORT) return;
    const a = Math.floor(key / productCount),
      b = key % productCount;
    push(a, b, n);
    push(b, a, n);
  };
  if (dense) {
    for (let key = 0; key < dense.length; key++) if (dense[key]! >= MIN_PAIR_SUPPORT) visit(key, dense[key]!);
  } else {
    for (const [key, n] of sparse!) visit(key, n);
  }
  for (const [a, list] of lists) {
    list.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    if (list.length > perAnchor) lists.set(a, list.slice(0, perAnchor));
  }
  return { population, users, pairs: lists };
}
