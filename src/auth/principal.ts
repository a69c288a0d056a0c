// Who is calling: the authenticated API client, its plan and its role. Shared by REST and MCP.
import type { Plan } from '../schemas/plans.ts';
import { roleAtLeast, type Role } from '../schemas/roles.ts';
import { ForbiddenError } from '../errors.ts';

export interface Principal {
  clientId: string;
  clientName: string;
  plan: Plan;
  /** What the caller may administer (admin: the Admin API); null or absent for a plain API client. */
  role?: Role | null;
  /** How the caller proved who it is. */
  via: 'api_key' | 'access_token' | 'console_session';
  /**
   * A console session: the person acting through the console's API client. Their role is the
   * principal's role; they are the on-behalf user of every attributed call.
   */
  person?: ConsolePerson;
  /**
   * A person's OAuth access token: the scopes the person granted the client (read, write).
   * Absent: not limited by scope (API keys, client tokens, console sessions).
   */
  scopes?: readonly string[];
}

export interface ConsolePerson {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

/** The principal of a verified client row (one place, whichever credential proved it). */
export function principalOfClient(client: { id: string; name: string; plan: Plan; role: Role | null }, via: Principal['via']): Principal {
  return { clientId: client.id, clientName: client.name, plan: client.plan, role: client.role, via };
}

/** The one "role ≥ required" rule of every door: a 403 naming the missing role otherwise. */
export function requireRole(principal: Principal, required: Role): void {
  if (roleAtLeast(principal.role, required)) return;
  if (principal.person) {
    throw new ForbiddenError(
      `Role '${required}' is required for this operation; your role is '${principal.person.role}'. An admin can change it (Admin: users, or stacklens users set-role)`,
    );
  }
  const held = principal.role ? `this client's role is '${principal.role}'` : 'this client has no role';
  throw new ForbiddenError(
    `Role '${required}' is required for this operation; ${held}. An operator grants it with: stacklens clients set-role ${principal.clientId} ${required}`,
  );
}
