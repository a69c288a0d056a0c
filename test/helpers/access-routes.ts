// Test-only routes behind the real auth and rate-limit hooks, standing in for the
// resource routes other issues add: a plain read, an AI helper (/api/ai/...), an
// export via ?export=true, and a route marked `config: { rateClass: 'export' }`.
import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { addAuthHook, principalOf } from '../../src/http/plugins/auth.ts';
import { requireAttribution } from '../../src/auth/attribution.ts';
import type { Permission } from '../../src/auth/principal.ts';
import { addRateLimitHook } from '../../src/http/plugins/rate-limit.ts';
import { audit } from '../../src/services/audit.ts';
import { definePlan } from '../../src/auth/clients.ts';
import type { Db } from '../../src/store/db.ts';

function requireAttributedAction(request: FastifyRequest, permission: Permission): string {
  const header = request.headers['x-on-behalf-of-user'];
  return requireAttribution(principalOf(request), permission, true, Array.isArray(header) ? header[0] : header)!;
}

export async function accessTestRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (api) => {
      addAuthHook(api);
      addRateLimitHook(api);
      api.get('/t/ping', async (request) => ({ clientId: principalOf(request).clientId }));
      api.get('/t/rows', async (request) => {
        const exporting = (request.query as Record<string, string>).export === 'true';
        if (!exporting) return { rows: 3 };
        const user = requireAttributedAction(request, 'export');
        await audit(app.db, { clientId: principalOf(request).clientId, onBehalfOf: user, action: 'rows.export', params: { ...(request.query as object) }, resultCount: 3 });
        return { rows: 3, exportedFor: user };
      });
      api.get('/t/rows.csv', { config: { rateClass: 'export' } }, async () => 'a,b\n1,2\n');
      api.post('/ai/t-suggest', async (request) => {
        const user = requireAttributedAction(request, 'ai');
        await audit(app.db, { clientId: principalOf(request).clientId, onBehalfOf: user, action: 'ai.suggest', params: { prompt: (request.query as Record<string, string>).prompt }, resultCount: 2 });
        return [{ name: 'a' }, { name: 'b' }];
      });
      api.post('/t/purchase', async (request) => {
        const user = requireAttributedAction(request, 'purchase');
        return { purchasedFor: user };
      });
    },
    { prefix: '/api' },
  );
}

/** A small plan so quotas run out in a few requests: 4/min overall, 2 AI, 1 export. */
export async function defineTinyPlan(db: Db): Promise<void> {
  await definePlan(db, {
    id: 'tiny',
    description: 'test plan',
    canExport: true,
    canAi: true,
    canPurchase: false,
    initialCredits: 0,
    requestsPerMinute: 4,
    aiRequestsPerMinute: 2,
    exportRequestsPerMinute: 1,
  });
}
