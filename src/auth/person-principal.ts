// The principal of a person's OAuth access token (authorization code grant): the person,
// acting through the console's API client (its plan, quotas and credits, as in the console),
// with their role and the scopes they granted. Checked on every request: the grant is not
// revoked, belongs to the token's client and person, the person is not disabled, and the
// console client is enabled. Any failure is a 401.
import type { JWTPayload } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { UnauthorizedError } from '../errors.ts';
import { findGrantWithUser } from '../store/oauth.ts';
import { consoleClient } from './console-client.ts';
import { personOf } from './console-sessions.ts';
import type { Principal } from './principal.ts';

export async function personPrincipal(db: Db, config: Config, payload: JWTPayload): Promise<Principal> {
  const { sid, sub, client_id: clientId, scope } = payload as JWTPayload & { sid?: unknown; client_id?: unknown; scope?: unknown };
  if (typeof sid !== 'string' || typeof sub !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string' || sid.length > 100) {
    throw new UnauthorizedError("Invalid access token: a person's token names its grant (sid), person (sub), client (client_id) and scope");
  }
  const grant = await findGrantWithUser(db, sid);
  if (!grant || grant.userId !== sub || grant.clientId !== clientId) throw new UnauthorizedError('Invalid access token: its grant does not exist');
  if (grant.revokedAt) throw new UnauthorizedError('This sign-in was revoked (signed out, or a refresh token was reused); sign in again');
  if (grant.user.disabledAt) throw new UnauthorizedError('Your account is disabled; an admin can enable it');
  const client = await consoleClient(db, config);
  if (client.disabledAt) throw new UnauthorizedError(`The console's API client ${client.id} is disabled, so no one can sign in through it`);
  const person = personOf(grant.user);
  return {
    clientId: client.id,
    clientName: client.name,
    plan: client.plan,
    role: person.role,
    via: 'access_token',
    person,
    scopes: scope.split(' '),
  };
}
