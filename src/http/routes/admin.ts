// The Admin API (/api/admin/…): clients, API keys, plans, credits, console users, usage, the audit log and
// jobs. The admin role is checked for every route by the auth hook from the records' `role`
// (route-config.ts refuses to serve an /admin operation without it). Thin: transport → one
// service call; the acting admin is the principal, and the services audit every change.
import type { FastifyInstance } from 'fastify';
import * as access from '../../schemas/admin.ts';
import * as activity from '../../schemas/admin-activity.ts';
import * as people from '../../schemas/console.ts';
import * as users from '../../services/console-users.ts';
import * as admin from '../../services/admin.ts';
import { listAudit } from '../../services/audit.ts';
import { getJob, listAdminJobs, startRefreshJob } from '../../services/jobs.ts';
import { getUsage, type UsageRecorder } from '../../services/usage.ts';
import { principalOf } from '../plugins/auth.ts';
import { serve } from '../route-config.ts';

export async function adminRoutes(app: FastifyInstance, options: { usage: UsageRecorder }): Promise<void> {
  const { db } = app;
  const actor = principalOf;

  serve(app, access.listAdminClientsOp, (r) => admin.listAdminClients(db, r.query.page, r.query.size));
  serve(app, access.createAdminClientOp, (r) => admin.createAdminClient(db, app.config, actor(r), r.body));
  serve(app, access.getAdminClientOp, (r) => admin.getAdminClient(db, r.params.clientId));
  serve(app, access.updateAdminClientOp, (r) => admin.updateAdminClient(db, actor(r), r.params.clientId, r.body));
  serve(app, access.disableAdminClientOp, (r) => admin.setAdminClientEnabled(db, actor(r), r.params.clientId, false));
  serve(app, access.enableAdminClientOp, (r) => admin.setAdminClientEnabled(db, actor(r), r.params.clientId, true));
  serve(app, access.rotateAdminClientSecretOp, (r) => admin.rotateAdminClientSecret(db, actor(r), r.params.clientId));

  serve(app, access.listAdminClientKeysOp, (r) => admin.listAdminClientKeys(db, r.params.clientId, r.query.page, r.query.size));
  serve(app, access.createAdminClientKeyOp, (r) => admin.createAdminClientKey(db, actor(r), r.params.clientId, r.body.name ?? null));
  serve(app, access.revokeAdminKeyOp, (r) => admin.revokeAdminKey(db, actor(r), r.params.keyId));

  serve(app, access.listAdminPlansOp, (r) => admin.listAdminPlans(db, r.query.page, r.query.size));
  serve(app, access.getAdminPlanOp, (r) => admin.getAdminPlan(db, r.params.planId));
  serve(app, access.setAdminPlanOp, (r) => admin.setAdminPlan(db, actor(r), r.params.planId, r.body));

  serve(app, access.getAdminClientCreditsOp, (r) => admin.getAdminClientCredits(db, r.params.clientId, r.query.page, r.query.size));
  serve(app, access.grantAdminClientCreditsOp, (r) => admin.grantAdminClientCredits(db, actor(r), r.params.clientId, r.body));

  serve(app, people.listAdminUsersOp, (r) => users.listUsers(db, r.query.page, r.query.size));
  serve(app, people.createAdminUserOp, (r) => users.createAdminUser(db, actor(r), r.body));
  serve(app, people.getAdminUserOp, (r) => users.getUser(db, r.params.userId));
  serve(app, people.updateAdminUserOp, (r) => users.updateAdminUser(db, actor(r), r.params.userId, r.body));
  serve(app, people.disableAdminUserOp, (r) => users.setAdminUserEnabled(db, actor(r), r.params.userId, false));
  serve(app, people.enableAdminUserOp, (r) => users.setAdminUserEnabled(db, actor(r), r.params.userId, true));

  serve(app, activity.getAdminClientUsageOp, async (r) => {
    await options.usage.flush();
    return getUsage(db, r.params.clientId, r.query);
  });
  serve(app, activity.listAdminAuditOp, (r) => listAudit(db, r.query));
  serve(app, activity.listAdminJobsOp, (r) => listAdminJobs(db, r.query.kind, r.query.page, r.query.size));
  serve(app, activity.getAdminJobOp, (r) => getJob(db, r.params.jobId));
  serve(app, activity.startAdminRefreshJobOp, (r) => startRefreshJob(db, actor(r), r.body ?? {}));
}
