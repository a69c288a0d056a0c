// The caller a per-caller share counts against (requests in flight, bulkhead slots), the
// same on both doors: a console user (console sessions all act through one API client), or
// the API client.
import type { Principal } from './principal.ts';

export function callerKey(principal: Principal): string {
  return principal.person ? `user:${principal.person.userId}` : `client:${principal.clientId}`;
}
