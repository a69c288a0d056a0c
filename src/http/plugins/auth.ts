// Authentication and the operation record's access rules for everything under /api: the
// Principal is resolved before anything else (an API key or bearer token; without one, the
// web console's session cookie: auth/console-sessions.ts); then, from the route's operation record
// (config.operation, see route-config.ts), the permission and the on-behalf user — one
// check for every route, none in handlers.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, credentialsFromHeaders } from '../../auth/authenticate.ts';
import { authenticateSession, CSRF_HEADER, requireCsrf, sessionCookieName, sessionTokenOf } from '../../auth/console-sessions.ts';
import { requireAttribution, requireWriteAccess } from '../../auth/attribution.ts';
import { countFailedAuthentication } from '../../auth/failed-auth.ts';
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
  const cookieName = sessionCookieName(app.config);
  const delayMs = app.config.overload.rateLimitedReplyDelayMs;
  app.addHook('onRequest', async (request) => {
    try {
      const credentials = credentialsFromHeaders(request.headers, request.raw.rawHeaders);
      // An API key or a bearer token wins; without one, the console's session cookie counts.
      const sessionToken =
        credentials.apiKey === undefined && credentials.bearerToken === undefined ? sessionTokenOf(request.headers.cookie, cookieName) : undefined;
      const principal =
        sessionToken === undefined ? await authenticate(app.db, app.config, credentials) : await authenticateConsoleRequest(app, request, sessionToken);
      request.principal = principal;
      request.clientId = principal.clientId;
    } catch (err) {
      // A credential that was sent and refused counts against the address (auth/failed-auth.ts);
      // a request that sent none is only told how to authenticate.
      const presented =
        request.headers.authorization !== undefined ||
        request.headers['x-api-key'] !== undefined ||
        sessionTokenOf(request.headers.cookie, cookieName) !== undefined;
      if (!(err instanceof UnauthorizedError) || !presented) throw err;
      const answer = await countFailedAuthentication(app.counters, app.config, request.ip, err);
      // Held back like the quota's 429 (plugins/rate-limit.ts): a client retrying at once is slowed to its own pace.
      if (answer !== err && delayMs > 0) await sleep(delayMs);
      throw answer;
    }
  });
  // The role (admin operations) and a permission every call needs (AI, purchase) are checked
  // before input validation: a client that may not make the call learns nothing more from
  // its request. A refused admin call is audited (outcome denied).
  app.addHook('preValidation', async (request) => {
    const op = request.routeOptions.config?.operation;
    if (op?.role) await checkRole(app, request, op, op.role);
    if (op && isUnconditional(op.permission)) checkAccess(request, op, undefined);
    if (op) requireWriteAccess(principalOf(request), op);
  });
  // A permission that depends on an argument (export=true) is checked on the validated input.
  app.addHook('preHandler', async (request) => {
    const op = request.routeOptions.config?.operation;
    if (op && op.permission !== undefined && !isUnconditional(op.permission)) checkAccess(request, op, request.query as Record<string, unknown>);
  });
}

/**
 * A request signed in with the console's cookie: the live session's person (401 otherwise),
 * the CSRF header on anything but GET/HEAD (403), and the person as the on-behalf user of
 * every attributed call (a header naming someone else is a 403).
 */
async function authenticateConsoleRequest(app: FastifyInstance, request: FastifyRequest, token: string): Promise<Principal> {
  const principal = await authenticateSession(app.db, app.config, token);
  requireCsrf(request.method, token, request.headers[CSRF_HEADER]);
  const person = principal.person!;
  const header = request.headers['x-on-behalf-of-user'];
  const named = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  if (named && named !== person.email) {
    throw new ForbiddenError(`X-On-Behalf-Of-User: a console session acts for its own person (${person.email}) only; leave the header out`);
  }
  request.headers['x-on-behalf-of-user'] = person.email;
  return principal;
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
