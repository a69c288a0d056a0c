// The CRM write-back of the calling client: connections, syncs (dry run or write), the sync log.
import type { FastifyInstance } from 'fastify';
import { connectCrmOp, deleteCrmConnectionOp, getCrmSyncRunOp, listCrmConnectionsOp, listCrmSyncRunsOp, syncCrmOp } from '../../schemas/crm.ts';
import { connectCrm, deleteCrmConnection, getCrmSyncRun, listCrmConnections, listCrmSyncRuns, syncCrm } from '../../services/crm/service.ts';
import { onBehalfOf, principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

export function crmRoutes(app: FastifyInstance) {
  const clientOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).clientId;
  const settings = app.config.crm;
  return [
    route(connectCrmOp, (request) => connectCrm(app.db, settings, clientOf(request), request.body)),
    route(listCrmConnectionsOp, (request) => listCrmConnections(app.db, clientOf(request))),
    route(deleteCrmConnectionOp, (request) => deleteCrmConnection(app.db, clientOf(request), request.params.crm)),
    route(syncCrmOp, (request) => syncCrm(app.db, settings, { clientId: clientOf(request), onBehalfOf: onBehalfOf(request) }, request.body)),
    route(listCrmSyncRunsOp, (request) => listCrmSyncRuns(app.db, clientOf(request), request.query)),
    route(getCrmSyncRunOp, (request) => getCrmSyncRun(app.db, clientOf(request), request.params.runId)),
  ];
}
