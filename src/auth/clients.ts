// API clients: creation with a one-time secret, lookup with plan.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { findPlan, insertClient } from '../store/access.ts';
import { BadRequestError } from '../errors.ts';
import { hashSecret, randomToken } from './secrets.ts';

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
  name: string;
  plan: string;
  credits: number;
}

export async function createClient(db: Db, input: { name: string; plan: string; credits?: number }): Promise<CreatedClient> {
  const plan = await findPlan(db, input.plan);
  if (!plan) throw new BadRequestError(`plan: no plan named '${input.plan}'`);
  const clientId = `cli_${randomBytes(9).toString('base64url')}`;
  const clientSecret = randomToken(32);
  const credits = input.credits ?? plan.initialCredits;
  if (!Number.isInteger(credits) || credits < 0) throw new BadRequestError('credits: must be a whole number ≥ 0');
  await insertClient(db, { id: clientId, name: input.name, planId: plan.id, secretHash: hashSecret(clientSecret), credits });
  return { clientId, clientSecret, name: input.name, plan: plan.id, credits };
}
