// Everything under /api: authenticated (with the operation records' permission checks),
// rate-limited, one empty-body rule, then one module per resource.
import type { FastifyInstance } from 'fastify';
import { getMeOp } from '../../schemas/account.ts';
import { addAuthHook, principalOf } from '../plugins/auth.ts';
import { addRateLimitHook } from '../plugins/rate-limit.ts';
import { allowEmptyJsonBody } from '../empty-body.ts';
import { route, serveOperations } from '../route-config.ts';
import { OPERATIONS, type Covers, type OperationId } from '../../schemas/operations.ts';
import { roleAtLeast } from '../../schemas/roles.ts';
import { intelligenceRoutes } from './intelligence.ts';
import { companyRoutes } from './companies.ts';
import { lookalikeRoutes } from './lookalikes.ts';
import { companyProductRoutes } from './company-products.ts';
import { enrichmentRoutes } from './enrichment.ts';
import { vendorRoutes } from './vendors.ts';
import { categoryRoutes } from './categories.ts';
import { industryRoutes } from './industries.ts';
import { lookupRoutes } from './lookup.ts';
import { firmographicsRoutes } from './firmographics.ts';
import { feedRoutes } from './feed.ts';
import { eventRoutes } from './events.ts';
import { monitorRoutes } from './monitors.ts';
import { listRoutes } from './lists.ts';
import { crmRoutes } from './crm.ts';
import { webhookRoutes } from './webhooks.ts';
import { adoptionRoutes } from './adoption.ts';
import { profileRoutes } from './profiles.ts';
import { aiRoutes } from './ai.ts';
import { detectRoutes } from './detect.ts';
import { adminRoutes } from './admin.ts';
import { settleJobs } from '../../services/jobs.ts';

export async function apiRoutes(app: FastifyInstance): Promise<void> {
  addAuthHook(app);
  addRateLimitHook(app);
  allowEmptyJsonBody(app);

  // Usage per client, day and operation (read by the Admin API): counted here (and by the
  // MCP door, into the same recorder), written in batches; background jobs finish and the
  // last counts are written before the app closes.
  const { usage } = app;
  app.addHook('onResponse', async (request, reply) => {
    const op = request.routeOptions.config?.operation;
    if (op && request.principal) usage.note(request.principal.clientId, op.id, reply.statusCode);
  });
  app.addHook('onClose', async () => {
    await settleJobs(app.db);
    await usage.flush();
  });

  // The routes of every operation, by module; registered in the order of the one list.
  const routes = [
    ...accountRoutes(),
    ...companyRoutes(app),
    ...enrichmentRoutes(app),
    ...lookalikeRoutes(app),
    ...companyProductRoutes(app),
    ...firmographicsRoutes(app),
    ...feedRoutes(app),
    ...eventRoutes(app),
    ...monitorRoutes(app),
    ...listRoutes(app),
    ...crmRoutes(app),
    ...webhookRoutes(app),
    ...adoptionRoutes(app),
    ...intelligenceRoutes(app),
    ...vendorRoutes(app),
    ...categoryRoutes(app),
    ...industryRoutes(app),
    ...lookupRoutes(app),
    ...profileRoutes(app),
    ...aiRoutes(app),
    ...detectRoutes(app),
    ...adminRoutes(app, usage),
  ];
  const everyOperationHasARoute: Covers<OperationId, (typeof routes)[number]['operation']['id']> = true;
  void everyOperationHasARoute;
  serveOperations(app, OPERATIONS, routes);
}

/** GET /me: who the credentials belong to, what its plan allows. */
function accountRoutes() {
  return [
    route(getMeOp, (request) => {
      const { clientId, clientName, plan, role, via, person } = principalOf(request);
      // A console person's exports and purchases also need the analyst role (auth/attribution.ts).
      const analyst = !person || roleAtLeast(person.role, 'analyst');
      return {
        clientId,
        clientName,
        plan: plan.id,
        permissions: { export: plan.canExport && analyst, ai: plan.canAi, purchase: plan.canPurchase && analyst },
        rateLimits: {
          requestsPerMinute: plan.requestsPerMinute,
          aiRequestsPerMinute: plan.aiRequestsPerMinute,
          exportRequestsPerMinute: plan.exportRequestsPerMinute,
        },
        watchLimits: { maxMonitors: plan.maxMonitors, maxWebhooks: plan.maxWebhooks, eventsPerDay: plan.eventsPerDay },
        role: role ?? null,
        authenticatedWith: via,
        ...(person ? { user: { id: person.userId, email: person.email, name: person.name, role: person.role } } : {}),
      };
    }),
  ];
}
