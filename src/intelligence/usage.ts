// Usage share in a cohort: for each product at least one member uses, the share of
// members using it, as a whole percentage 1-100 (a product used by anyone is never 0).

interface UsageShare {
  productId: string;
  companiesUsing: number;
  cohortSize: number;
  percentage: number;
}

/** `stacks` holds each member's in-use product ids; cohortSize is the member count. */
export function usageShares(stacks: Iterable<string>[], cohortSize = stacks.length): UsageShare[] {
  const counts = new Map<string, number>();
  for (const stack of stacks) for (const p of new Set(stack)) counts.set(p, (counts.get(p) ?? 0) + 1);
  const size = Math.max(cohortSize, 1);
  return [...counts]
    .map(([productId, n]) => ({ productId, companiesUsing: n, cohortSize, percentage: sharePercent(n, size) }))
    .sort((a, b) => b.companiesUsing - a.companiesUsing || (a.productId < b.productId ? -1 : 1));
}

/** Rounds to a whole percent, clamped to 1-100 so any use shows. */
export function sharePercent(using: number, size: number): number {
  if (using <= 0 || size <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((100 * using) / size)));
}
