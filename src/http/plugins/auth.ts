// Authentication and the operation record's access rules for everything under /api: the
// Principal is resolved before anything else; then, from the route's operation record
// (config.operation, see route-config.ts), the permission and the on-behalf user — one
// check for every route, none in handlers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, credentialsFromHeaders } from '../../auth/authenticate.ts';
import { requireAttribution } from '../../auth/attribution.ts';
import { requireRole, type Principal } from '../../auth/principal.ts';
import type { Role } from '../../schemas/roles.ts';
import { auditDenied } from '../../services/audit.ts';
import { ForbiddenError, UnauthorizedError } from '../../errors.ts';
import { isUnconditional, permissionFor, type Operation } from '../../schemas/operation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The user an attributed call is made for (X-On-Behalf-Of-User), once checked. */
    onBehalfOf?: string;
  }
}

/** Adds authentication and the record's permission checks to the calling (encapsulated) scope. */
export function addAuthHook(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const principal = await authenticate(app.db, app.config, credentialsFromHeaders(request.headers, request.raw.rawHeaders));
    request.principal = principal;
    request.clientId = principal.clientId;
  });
  // The role (admin operations) and a permission every call needs (AI, purchase) are checked
  // before input validation: a client that may not make the call learns nothing more from
  // its request. A refused admin call is audited (outcome denied).
  app.addHook('preValidation', async (request) => {
    const op = request.routeOptions.config?.operation;
    if (op?.role) await checkRole(app, request, op, op.role);
    if (op && isUnconditional(op.permission)) checkAccess(request, op, undefined);
  });
  // A permission that depends on an argument (export=true) is checked on the validated input.
  app.addHook('preHandler', async (request) => {
    const op = request.routeOptions.config?.operation;
    if (op && op.permission !== undefined && !isUnconditional(op.permission)) checkAccess(request, op, request.query as Record<string, unknown>);
  });
}

async function checkRole(app: FastifyInstance, request: FastifyRequest, op: Operation, role: Role): Promise<void> {
  const principal = principalOf(request);
  try {
    requireRole(principal, role);
  } catch (err) {
    await auditDenied(app.db, principal, op.id, role);
    throw err;
  }
}

function checkAccess(request: FastifyRequest, op: Operation, args: Record<string, unknown> | undefined): void {
  const permission = permissionFor(op, args);
  if (!permission) return;
  const header = request.headers['x-on-behalf-of-user'];
  const user = requireAttribution(principalOf(request), permission, op.attributed, Array.isArray(header) ? header[0] : header);
  if (user) request.onBehalfOf = user;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError('Not authenticated');
  return request.principal;
}

/** The checked on-behalf user of an attributed call (set by the hooks above). */
export function onBehalfOf(request: FastifyRequest): string {
  if (!request.onBehalfOf) throw new ForbiddenError('The X-On-Behalf-Of-User header is required for this action');
  return request.onBehalfOf;
}
