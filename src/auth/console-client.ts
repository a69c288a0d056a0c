// The console's API client: every person signed in to the web console acts through this one
// client (id cli_console), so the console spends one client's plan, quotas and credits, and
// shows up as one client in usage. It is made on demand, on the plan CONSOLE_PLAN (default
// full); afterwards it is an ordinary client an admin manages like any other (change its
// plan, grant credits, disable it to shut the console). Nobody knows its secret: it is reached
// only through console sessions. Rate limits count per person (auth/rate-limit.ts).
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { findPlan, type ClientWithPlan } from '../store/access.ts';
import { insertConsoleClient } from '../store/console-users.ts';
import { cachedClient, forgetCachedClients } from './client-cache.ts';
import { hashSecret, randomToken } from './secrets.ts';

export const CONSOLE_CLIENT_ID = 'cli_console';
const CONSOLE_CLIENT_NAME = 'Web console';

export async function consoleClient(db: Db, config: Config): Promise<ClientWithPlan> {
  const found = await cachedClient(db, CONSOLE_CLIENT_ID);
  if (found) return found;
  const plan = await findPlan(db, config.console.plan);
  if (!plan) throw new Error(`CONSOLE_PLAN: no plan named '${config.console.plan}'; define it (stacklens plans set) or set CONSOLE_PLAN to an existing plan`);
  await insertConsoleClient(db, {
    id: CONSOLE_CLIENT_ID,
    name: CONSOLE_CLIENT_NAME,
    planId: plan.id,
    secretHash: hashSecret(randomToken(32)),
    credits: plan.initialCredits,
  });
  forgetCachedClients(db);
  const created = await cachedClient(db, CONSOLE_CLIENT_ID);
  if (!created) throw new Error('the console client could not be created');
  return created;
}
