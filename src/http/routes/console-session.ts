// The web console's session: POST signs in (email + password → session cookie and
// CSRF token), GET answers who is signed in (and the CSRF token again, after a reload), DELETE
// signs out. The cookie is stacklens_session (__Host-stacklens_session when the service is
// published over https): HttpOnly, SameSite=Strict, Path=/, Secure over https. With it, the /api routes accept the person (plugins/
// auth.ts). Never cached; never a credential for /mcp.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../schemas/common.ts';
import { sessionSchema, signInBody } from '../../schemas/console.ts';
import { signIn } from '../../services/console-users.ts';
import {
  clearedSessionCookie,
  cookieIsSecure,
  CSRF_HEADER,
  csrfTokenOf,
  endSession,
  liveSession,
  requireCsrf,
  SESSION_ENDED,
  sessionCookie,
  sessionCookieName,
  sessionTokenOf,
} from '../../auth/console-sessions.ts';
import type { ConsolePerson } from '../../auth/principal.ts';
import { UnauthorizedError } from '../../errors.ts';

const SESSION_PATH = '/console/api/session';

const body = (person: ConsolePerson, token: string, expiresAt: Date) => ({
  user: { id: person.userId, email: person.email, name: person.name, role: person.role },
  csrfToken: csrfTokenOf(token),
  expiresAt: expiresAt.toISOString(),
});

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };

export async function consoleSessionRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;
  const secure = (request: FastifyRequest) => cookieIsSecure(config, request.protocol);
  const cookieName = sessionCookieName(config);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(SESSION_PATH, { schema: { hide: true, body: signInBody, response: { 200: sessionSchema, ...errors } } }, async (request, reply) => {
    const { person, session } = await signIn({ db, config, counters: app.counters }, { ...request.body, address: request.ip });
    reply.header('set-cookie', sessionCookie(cookieName, session.token, config.console.sessionTtlSeconds, secure(request)));
    return body(person, session.token, session.expiresAt);
  });

  app.get(SESSION_PATH, { schema: { hide: true, response: { 200: sessionSchema, ...errors } } }, async (request, reply) => {
    const token = sessionTokenOf(request.headers.cookie, cookieName);
    const session = token ? await liveSession(db, config, token) : undefined;
    if (!token || !session) {
      if (token) reply.header('set-cookie', clearedSessionCookie(cookieName, secure(request)));
      throw new UnauthorizedError(token ? SESSION_ENDED : 'Not signed in: POST /console/api/session with your email and password', {});
    }
    return body(session.person, token, session.expiresAt);
  });

  app.delete(SESSION_PATH, { schema: { hide: true, response: { 204: { type: 'null' }, ...errors } } }, async (request, reply: FastifyReply) => {
    const token = sessionTokenOf(request.headers.cookie, cookieName);
    // Signing out of a live session needs its CSRF token (no other page can sign a person out);
    // an ended one is only forgotten.
    if (token && (await liveSession(db, config, token))) {
      requireCsrf(request.method, token, request.headers[CSRF_HEADER]);
      await endSession(db, token);
    }
    reply.header('set-cookie', clearedSessionCookie(cookieName, secure(request)));
    return reply.code(204).send();
  });
}
