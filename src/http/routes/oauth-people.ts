// Sign-in for people over OAuth 2.1, registered inside the OAuth scope (its form parser, its
// RFC 6749 error answers): GET /oauth/authorize (the consent screen; a browser that is not
// signed in to the console is sent to its sign-in and comes back), POST /oauth/authorize (the
// person's decision, CSRF-protected), POST /oauth/revoke (RFC 7009) and POST /oauth/register
// (RFC 7591, when OAUTH_DYNAMIC_REGISTRATION is on). Not in the OpenAPI document: browsers and
// OAuth clients use them, as their metadata (RFC 8414) says.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { approve, checkAuthorizationRequest, deny, revoke, scopeText, type AuthorizationCheck } from '../../auth/authorization-codes.ts';
import { registerClient } from '../../auth/oauth-clients.ts';
import { OAuthError, presentedClient, readParams } from '../../auth/oauth-params.ts';
import { csrfTokenOf, liveSession, requireCsrf, sessionCookieName, sessionTokenOf } from '../../auth/console-sessions.ts';
import { ForbiddenError } from '../../errors.ts';
import { consentCsp, consentPage, errorPage } from '../consent-page.ts';
import { TOKEN_BODY_LIMIT } from '../../schemas/oauth.ts';

const AUTHORIZE_PATH = '/oauth/authorize';
/** Fields of the consent form that are not the authorization request's. */
const FORM_ONLY = new Set(['csrf_token', 'decision']);

function sendPage(reply: FastifyReply, status: number, html: string, redirectOrigin?: string) {
  return reply.code(status).header('content-security-policy', consentCsp(redirectOrigin)).type('text/html; charset=utf-8').send(html);
}

/** A bad request that cannot go back to the client: told to the person. */
function showOrRedirect(reply: FastifyReply, check: Exclude<AuthorizationCheck, { ok: true }>) {
  return 'show' in check ? sendPage(reply, 400, errorPage(check.show)) : reply.redirect(check.redirect, 302);
}

export async function oauthPeopleRoutes(app: FastifyInstance): Promise<void> {
  const { db, config, counters } = app;
  const cookieName = sessionCookieName(config);
  const session = async (request: FastifyRequest) => {
    const token = sessionTokenOf(request.headers.cookie, cookieName);
    const live = token ? await liveSession(db, config, token) : undefined;
    return live && token ? { token, person: live.person } : undefined;
  };

  app.get(AUTHORIZE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const check = await checkAuthorizationRequest(db, config, request.query);
    if (!check.ok) return showOrRedirect(reply, check);
    const signedIn = await session(request);
    // The console's sign-in page, which comes back here once signed in. Also when a session
    // exists: the cookie is SameSite=Strict, so a browser arriving from the client's site
    // does not send it; the console (same site) sees the session and returns at once.
    if (!signedIn) return reply.redirect(`/console?continue=${encodeURIComponent(request.url)}`, 302);
    const { request: asked } = check;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(request.query as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
    const redirect = new URL(asked.redirectUri);
    return sendPage(
      reply,
      200,
      consentPage({
        clientName: asked.client.name,
        redirectHost: redirect.host,
        person: signedIn.person,
        scopes: asked.scopes.map((name) => ({ name, text: scopeText(name) })),
        resource: asked.resource,
        fields,
        csrfToken: csrfTokenOf(signedIn.token),
      }),
      redirect.origin,
    );
  });

  app.post(AUTHORIZE_PATH, { bodyLimit: TOKEN_BODY_LIMIT, schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const signedIn = await session(request);
    if (!signedIn) return sendPage(reply, 401, errorPage('Your console session has ended. Start the sign-in again from the application.'));
    try {
      requireCsrf('POST', signedIn.token, typeof body.csrf_token === 'string' ? body.csrf_token : undefined);
    } catch (err) {
      if (err instanceof ForbiddenError)
        return sendPage(reply, 403, errorPage('This form did not come from this sign-in page (CSRF check failed). Start again.'));
      throw err;
    }
    const fields = Object.fromEntries(Object.entries(body).filter(([k]) => !FORM_ONLY.has(k)));
    const check = await checkAuthorizationRequest(db, config, fields);
    if (!check.ok) return showOrRedirect(reply, check);
    if (body.decision === 'deny') return reply.redirect(deny(config, check.request), 302);
    if (body.decision !== 'allow') return sendPage(reply, 400, errorPage("decision: must be 'allow' or 'deny'"));
    return reply.redirect(await approve(db, config, check.request, signedIn.person.userId), 302);
  });

  app.post('/oauth/revoke', { bodyLimit: TOKEN_BODY_LIMIT, schema: { hide: true } }, async (request, reply) => {
    // An access token (a JWT) may be sent for revocation: longer than the other parameters.
    const param = readParams(request.body, { token: 8192 });
    await revoke({ db, config, counters }, param, presentedClient(request.headers.authorization, param), request.ip);
    return reply.code(200).send();
  });

  app.post('/oauth/register', { bodyLimit: TOKEN_BODY_LIMIT, schema: { hide: true } }, async (request, reply) => {
    if (!config.auth.people.registration) {
      throw new OAuthError(
        403,
        'access_denied',
        'Dynamic client registration is off on this server (OAUTH_DYNAMIC_REGISTRATION=false); ask its operator for a client id',
      );
    }
    const { client, secret } = await registerClient({ db, config, counters }, request.body, request.ip);
    return reply.code(201).send({
      client_id: client.id,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      ...(secret !== undefined ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: client.authMethod,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  });
}
