// 405 Method Not Allowed with an Allow header for a known path called with a method it does
// not serve (instead of a 404 that says the path does not exist). Every route is also added
// to a second router, so the not-found handler can ask which methods the URL has.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Router from 'find-my-way';
import { notServed } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods served at this URL (path and query), e.g. ['GET', 'HEAD']; empty when the path is unknown. */
    allowedMethods(url: string): string[];
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const methodsPlugin = fp(async (app: FastifyInstance, options: { ignoreTrailingSlash: boolean; maxParamLength: number }) => {
  const router = Router({ ignoreTrailingSlash: options.ignoreTrailingSlash, maxParamLength: options.maxParamLength });
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    // Fastify answers HEAD for every GET route (exposeHeadRoutes).
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    for (const method of methods) {
      if (!router.hasRoute(method as 'GET', route.url)) router.on(method as 'GET', route.url, () => {});
    }
  });
  // A method no route serves (QUERY, PROPFIND...) goes to the not-found handler before its
  // body is parsed: 405 with Allow on a known path, 404 elsewhere, never a parser's 400.
  app.addHook('onRequest', async (request, reply) => {
    if ((METHODS as readonly string[]).includes(request.method)) return;
    return notServed(app, request, reply);
  });
  app.decorate('allowedMethods', (url: string) => {
    const path = url.split('?', 1)[0]!;
    return METHODS.filter((m) => router.find(m, path) !== null);
  });
});
