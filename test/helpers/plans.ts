// Test plans: a small one so quotas run out in a few requests.
import { definePlan } from '../../src/auth/clients.ts';
import type { Db } from '../../src/store/db.ts';

/** 4 requests/min overall, 2 AI, 1 export. */
export async function defineTinyPlan(db: Db): Promise<void> {
  await definePlan(db, {
    id: 'tiny',
    description: 'test plan',
    canExport: true,
    canAi: true,
    canPurchase: false,
    initialCredits: 0,
    requestsPerMinute: 4,
    aiRequestsPerMinute: 2,
    exportRequestsPerMinute: 1,
  });
}
