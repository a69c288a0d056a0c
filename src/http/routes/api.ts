// Everything under /api: authenticated (with the operation records' permission checks),
// rate-limited, one empty-body rule, then one module per resource.
import type { FastifyInstance } from 'fastify';
import { getMeOp, getMyJobOp } from '../../schemas/account.ts';
import { getClientJob } from '../../services/jobs.ts';
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
import { feedbackRoutes } from './feedback.ts';
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
import { resumeListUploads } from '../../services/list-uploads.ts';

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
  // Large list uploads left by a process that stopped (released, or silent for minutes: it
  // died) continue here after their last committed batch: at start, then every minute.
  let resumer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const resume = () => void resumeListUploads(app.db, app.config.listJobs).catch((err: unknown) => app.log.error({ err }, 'resuming list uploads failed'));
    resume();
    resumer = setInterval(resume, 60_000).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(resumer);
    await settleJobs(app.db);
    await usage.flush();
  });

  // The routes of every operation, by module; registered in the order of the one list.
  const routes = [
    ...accountRoutes(app),
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
    ...feedbackRoutes(app),
    ...profileRoutes(app),
    ...aiRoutes(app),
    ...detectRoutes(app),
    ...adminRoutes(app, usage),
  ];
  const everyOperationHasARoute: Covers<OperationId, (typeof routes)[number]['operation']['id']> = true;
  void everyOperationHasARoute;
  serveOperations(app, OPERATIONS, routes);
}

/** GET /me: who the credentials belong to, what its plan allows; GET /jobs/{jobId}: a job the client started. */
function accountRoutes(app: FastifyInstance) {
  return [
    route(getMyJobOp, (request) => getClientJob(app.db, principalOf(request).clientId, request.params.jobId)),
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
