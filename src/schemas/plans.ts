// Plans and the permissions they grant: part of the contract (operations declare the
// permission they need) and the shape the store reads from the `plans` table. Owned here,
// below auth and store, so neither has to import the other for it.

/** What a plan may grant beyond plain reads. */
export type Permission = 'export' | 'ai' | 'purchase';

/** The quotas a request spends: every request the general one, AI and export calls their own too. */
export type RateClass = 'default' | 'ai' | 'export';

/** Plan permissions and limits; plans are rows of the `plans` table, not code. */
export interface Plan {
  id: string;
  canExport: boolean;
  canAi: boolean;
  canPurchase: boolean;
  requestsPerMinute: number;
  aiRequestsPerMinute: number;
  exportRequestsPerMinute: number;
}

export function hasPermission(plan: Plan, permission: Permission): boolean {
  switch (permission) {
    case 'export':
      return plan.canExport;
    case 'ai':
      return plan.canAi;
    case 'purchase':
      return plan.canPurchase;
  }
}
