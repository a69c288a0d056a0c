// Permission and on-behalf-of checks, shared by REST routes and MCP tools: each door calls
// requireAttribution once per call, from the operation record.
import { z } from 'zod';
import { BadRequestError, ForbiddenError } from '../errors.ts';
import type { Principal } from './principal.ts';
import { hasPermission, type Permission } from '../schemas/plans.ts';
import { roleAtLeast, type Role } from '../schemas/roles.ts';

const PERMISSION_TEXT: Record<Permission, string> = {
  export: 'exports',
  ai: 'AI helpers',
  purchase: 'profile purchases',
};

/** What a console person's role must be for a permission: exports and purchases are the analyst's. */
const PERSON_ROLE: Partial<Record<Permission, Role>> = { export: 'analyst', purchase: 'analyst' };

function requirePermission(principal: Principal, permission: Permission): void {
  const role = PERSON_ROLE[permission];
  if (principal.person && role && !roleAtLeast(principal.person.role, role)) {
    throw new ForbiddenError(`Role '${role}' is required for ${PERMISSION_TEXT[permission]}; your role is '${principal.person.role}'. An admin can change it`);
  }
  if (!hasPermission(principal.plan, permission)) {
    throw new ForbiddenError(
      `Permission '${permission}' is required: the '${principal.plan.id}' plan of this client does not include ${PERMISSION_TEXT[permission]}`,
    );
  }
}

/**
 * An operation that changes something (not read-only: a purchase, a list upload, a monitor):
 * a person needs the analyst role (a viewer reads), and a person's OAuth token the `write`
 * scope they granted. API clients are limited by their plan only. 403 naming what is missing.
 */
export function requireWriteAccess(principal: Principal, operation: { id: string; readOnly: boolean }): void {
  if (operation.readOnly) return;
  const person = principal.person;
  if (person && !roleAtLeast(person.role, 'analyst')) {
    throw new ForbiddenError(
      `Role 'analyst' is required for ${operation.id}, which changes something; your role is '${person.role}' (viewer: read only). An admin can change it`,
    );
  }
  if (principal.scopes && !principal.scopes.includes('write')) {
    throw new ForbiddenError(
      `Scope 'write' is required for ${operation.id}, which changes something; this sign-in granted '${principal.scopes.join(' ')}'. Sign in again and allow write access`,
    );
  }
}

const email = z.email();

/** The user an action is attributed to: 403 when absent, 400 when not an email address. */
function requireOnBehalfOf(value: string | undefined, source = 'X-On-Behalf-Of-User header'): string {
  const v = value?.trim();
  if (!v) throw new ForbiddenError(`The ${source} is required for this action: name the user (an email address) it is done for`);
  if (v.length > 254 || !email.safeParse(v).success) throw new BadRequestError(`${source}: '${v.slice(0, 80)}' is not a valid email address`);
  return v.toLowerCase();
}

/**
 * The permission, then (for attributed operations) the on-behalf user: returns the user,
 * or undefined when the operation is not attributed.
 */
export function requireAttribution(
  principal: Principal,
  permission: Permission,
  attributed: boolean,
  onBehalfOf: string | undefined,
  source?: string,
): string | undefined {
  requirePermission(principal, permission);
  if (!attributed) return undefined;
  // A signed-in person acts for themselves only (console session or OAuth token).
  const person = principal.person;
  if (person) {
    const named = onBehalfOf?.trim().toLowerCase();
    if (named && named !== person.email)
      throw new ForbiddenError(`${source ?? 'X-On-Behalf-Of-User header'}: a signed-in person acts for themselves (${person.email}) only; leave it out`);
    return person.email;
  }
  return requireOnBehalfOf(onBehalfOf, source);
}
