// Registers every route module. Routes under /api need authentication; the rest are public.
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health.ts';
import { apiRoutes } from './api.ts';
import { oauthRoutes } from './oauth.ts';
import { protectedResourceRoutes } from './protected-resource.ts';
import { consoleRoutes } from './console.ts';
import { consoleSessionRoutes } from './console-session.ts';

export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(oauthRoutes);
  await app.register(protectedResourceRoutes);
  await app.register(consoleSessionRoutes);
  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(consoleRoutes);
}
