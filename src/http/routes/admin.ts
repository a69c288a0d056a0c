// The Admin API (/api/admin/…): clients, API keys, plans, credits, console users, usage, the audit log,
// jobs and the feedback review queue. The admin role is checked for every route by the auth hook from the records' `role`
// (route-config.ts refuses to serve an /admin operation without it). Thin: transport → one
// service call; the acting admin is the principal, and the services audit every change.
import type { FastifyInstance } from 'fastify';
import * as access from '../../schemas/admin.ts';
import * as activity from '../../schemas/admin-activity.ts';
import * as people from '../../schemas/console.ts';
import * as users from '../../services/console-users.ts';
import * as admin from '../../services/admin.ts';
import { listAudit } from '../../services/audit.ts';
import { listAdminFeedbackOp, reviewAdminFeedbackOp } from '../../schemas/feedback.ts';
import { decideFeedback, listFeedbackQueue } from '../../services/feedback.ts';
import { getJob, listAdminJobs, startRefreshJob } from '../../services/jobs.ts';
import { refreshRunStatus } from '../../services/refresh-workers.ts';
import { getUsage, type UsageRecorder } from '../../services/usage.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

export function adminRoutes(app: FastifyInstance, usage: UsageRecorder) {
  const { db } = app;
  const actor = principalOf;

  return [
    route(access.listAdminClientsOp, (r) => admin.listAdminClients(db, r.query.page, r.query.size)),
    route(access.createAdminClientOp, (r) => admin.createAdminClient(db, app.config, actor(r), r.body)),
    route(access.getAdminClientOp, (r) => admin.getAdminClient(db, r.params.clientId)),
    route(access.updateAdminClientOp, (r) => admin.updateAdminClient(db, actor(r), r.params.clientId, r.body)),
    route(access.disableAdminClientOp, (r) => admin.setAdminClientEnabled(db, actor(r), r.params.clientId, false)),
    route(access.enableAdminClientOp, (r) => admin.setAdminClientEnabled(db, actor(r), r.params.clientId, true)),
    route(access.rotateAdminClientSecretOp, (r) => admin.rotateAdminClientSecret(db, actor(r), r.params.clientId)),

    route(access.listAdminClientKeysOp, (r) => admin.listAdminClientKeys(db, r.params.clientId, r.query.page, r.query.size)),
    route(access.createAdminClientKeyOp, (r) => admin.createAdminClientKey(db, actor(r), r.params.clientId, r.body.name ?? null)),
    route(access.revokeAdminKeyOp, (r) => admin.revokeAdminKey(db, actor(r), r.params.keyId)),

    route(access.listAdminPlansOp, (r) => admin.listAdminPlans(db, r.query.page, r.query.size)),
    route(access.getAdminPlanOp, (r) => admin.getAdminPlan(db, r.params.planId)),
    route(access.setAdminPlanOp, (r) => admin.setAdminPlan(db, actor(r), r.params.planId, r.body)),

    route(access.getAdminClientCreditsOp, (r) => admin.getAdminClientCredits(db, r.params.clientId, r.query.page, r.query.size)),
    route(access.grantAdminClientCreditsOp, (r) => admin.grantAdminClientCredits(db, actor(r), r.params.clientId, r.body)),

    route(people.listAdminUsersOp, (r) => users.listUsers(db, r.query.page, r.query.size)),
    route(people.createAdminUserOp, (r) => users.createAdminUser(db, actor(r), r.body)),
    route(people.getAdminUserOp, (r) => users.getUser(db, r.params.userId)),
    route(people.updateAdminUserOp, (r) => users.updateAdminUser(db, actor(r), r.params.userId, r.body)),
    route(people.disableAdminUserOp, (r) => users.setAdminUserEnabled(db, actor(r), r.params.userId, false)),
    route(people.enableAdminUserOp, (r) => users.setAdminUserEnabled(db, actor(r), r.params.userId, true)),

    route(activity.getAdminClientUsageOp, async (r) => {
      await usage.flush();
      return getUsage(db, r.params.clientId, r.query);
    }),
    route(activity.listAdminAuditOp, (r) => listAudit(db, r.query)),
    route(activity.listAdminJobsOp, (r) => listAdminJobs(db, r.query.kind, r.query.page, r.query.size)),
    route(activity.getAdminJobOp, (r) => getJob(db, r.params.jobId)),
    route(activity.startAdminRefreshJobOp, (r) => startRefreshJob(db, actor(r), r.body ?? {})),
    route(activity.getAdminRefreshRunOp, (r) => refreshRunStatus(db, Number(r.params.runId))),

    route(listAdminFeedbackOp, (r) => listFeedbackQueue(db, r.query)),
    route(reviewAdminFeedbackOp, (r) => decideFeedback(db, actor(r), r.params.feedbackId, r.body)),
  ];
}
