// Everything under /api: authenticated, then one module per resource.
import type { FastifyInstance } from 'fastify';
import { addAuthHook, principalOf } from '../plugins/auth.ts';
import { addRateLimitHook } from '../plugins/rate-limit.ts';
import { commonErrors } from '../../schemas/common.ts';
import { meSchema } from '../../schemas/account.ts';
import { intelligenceRoutes } from './intelligence.ts';
import { companyRoutes } from './companies.ts';
import { companyProductRoutes } from './company-products.ts';
import { vendorRoutes } from './vendors.ts';
import { categoryRoutes } from './categories.ts';
import { industryRoutes } from './industries.ts';
import { firmographicsRoutes } from './firmographics.ts';
import { feedRoutes } from './feed.ts';
import { profileRoutes } from './profiles.ts';
import { aiRoutes } from './ai.ts';


export async function apiRoutes(app: FastifyInstance): Promise<void> {
  addAuthHook(app);
  addRateLimitHook(app);

  app.get('/me', {
    schema: {
      operationId: 'getMe',
      summary: 'The calling client, its plan, permissions and rate limits',
      tags: ['Account'],
      response: { 200: meSchema, 401: commonErrors[401] },
    },
  }, async (request) => {
    const p = principalOf(request);
    return {
      clientId: p.clientId,
      clientName: p.clientName,
      plan: p.plan.id,
      permissions: { export: p.plan.canExport, ai: p.plan.canAi, purchase: p.plan.canPurchase },
      rateLimits: { requestsPerMinute: p.plan.requestsPerMinute, aiRequestsPerMinute: p.plan.aiRequestsPerMinute, exportRequestsPerMinute: p.plan.exportRequestsPerMinute },
      authenticatedWith: p.via,
    };
  });

  // Resource route modules register below, e.g. `await app.register(companyRoutes);`
  await app.register(intelligenceRoutes);
  await app.register(companyRoutes);
  await app.register(companyProductRoutes);
  await app.register(vendorRoutes);
  await app.register(categoryRoutes);
  await app.register(industryRoutes);
  await app.register(firmographicsRoutes);
  await app.register(feedRoutes);
  await app.register(profileRoutes);
  await app.register(aiRoutes);
}
