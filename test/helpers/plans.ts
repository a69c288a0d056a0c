// Test plans: a small one so quotas run out in a few requests.
import { definePlan } from '../../src/auth/clients.ts';
import type { Db } from '../../src/db/db.ts';
import type { Plan } from '../../src/schemas/plans.ts';

/** Every permission and quotas no test run reaches: for walks over every operation (the fuzzing pass). */
export async function defineUnlimitedPlan(db: Db): Promise<string> {
  await definePlan(db, {
    id: 'unlimited',
    description: 'test plan: every permission, no practical quota',
    canExport: true,
    canAi: true,
    canPurchase: true,
    initialCredits: 1_000_000,
    requestsPerMinute: 1_000_000,
    aiRequestsPerMinute: 1_000_000,
    exportRequestsPerMinute: 1_000_000,
    maxMonitors: 1_000_000,
    maxWebhooks: 1_000_000,
    eventsPerDay: 1_000_000_000,
    enrichRowsPerDay: 1_000_000_000,
    maxListRows: 1_000_000,
    facetsPerDay: 1_000_000_000,
    detectionsPerDay: 1_000_000_000,
  });
  return 'unlimited';
}

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
    maxMonitors: 10,
    maxWebhooks: 2,
    eventsPerDay: 10_000,
    enrichRowsPerDay: 10_000,
    maxListRows: 10_000,
    facetsPerDay: 1000,
    detectionsPerDay: 100,
  });
}

/** The plan of a hand-made principal: every permission, quotas of 1 (what reads a principal's plan needs no more). */
export const PERMISSIVE_PLAN: Plan = {
  id: 'full',
  canExport: true,
  canAi: true,
  canPurchase: true,
  requestsPerMinute: 1,
  aiRequestsPerMinute: 1,
  exportRequestsPerMinute: 1,
  maxMonitors: 1,
  maxWebhooks: 1,
  eventsPerDay: 1,
  enrichRowsPerDay: 1,
  maxListRows: 10_000,
  facetsPerDay: 1,
  detectionsPerDay: 1,
};
