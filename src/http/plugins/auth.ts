// Authentication for everything under /api: resolves the Principal before the handler.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, credentialsFromHeaders } from '../../auth/authenticate.ts';
import { requireOnBehalfOf, requirePermission } from '../../auth/attribution.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Permission } from '../../schemas/plans.ts';
import { UnauthorizedError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Adds the authentication hook to the calling (encapsulated) scope. */
export function addAuthHook(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const principal = await authenticate(app.db, app.config, credentialsFromHeaders(request.headers));
    request.principal = principal;
    request.clientId = principal.clientId;
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError('Not authenticated');
  return request.principal;
}

/** For exports, AI calls and purchases: the permission, then the on-behalf user. Returns the user. */
export function requireAttributedAction(request: FastifyRequest, permission: Permission): string {
  requirePermission(principalOf(request), permission);
  const header = request.headers['x-on-behalf-of-user'];
  return requireOnBehalfOf(Array.isArray(header) ? header[0] : header);
}
