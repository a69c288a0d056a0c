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
  /** Monitors (saved searches) a client may hold; MAX_MONITORS_PER_CLIENT is a ceiling over every plan. */
  maxMonitors: number;
  /** Webhook endpoints a client may hold; MAX_WEBHOOKS_PER_CLIENT is a ceiling over every plan. */
  maxWebhooks: number;
  /** Events a client may receive per UTC day: pull pages, live streams and first webhook attempts together. */
  eventsPerDay: number;
  /** Rows a client may enrich per UTC day (POST /companies/enrich and the enrich_companies tool; found companies only). */
  enrichRowsPerDay: number;
  /** Rows one account list may hold (each version). */
  maxListRows: number;
  /** Market-sizing calls a client may make per UTC day (POST /companies/facets and the search tool's count mode). */
  facetsPerDay: number;
  /** Never-observed accounts a client may send to detection per UTC day (enrichment with observeMissing). */
  detectionsPerDay: number;
}

/** What a new plan allows of the watch features unless it names its own (the column defaults of `plans`: basic's). */
export const NEW_PLAN_SIGNAL_LIMITS = {
  maxMonitors: 10,
  maxWebhooks: 2,
  eventsPerDay: 10_000,
  enrichRowsPerDay: 10_000,
  maxListRows: 10_000,
  facetsPerDay: 1000,
  detectionsPerDay: 100,
} as const;

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
