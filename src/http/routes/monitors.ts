// Monitors (saved searches) of the calling client: create, list, read, change, delete.
import type { FastifyInstance } from 'fastify';
import { createMonitorOp, deleteMonitorOp, getMonitorOp, listMonitorsOp, updateMonitorOp } from '../../schemas/monitors.ts';
import { createMonitor, deleteMonitor, getMonitor, listMonitors, updateMonitor } from '../../services/monitors.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

export function monitorRoutes(app: FastifyInstance) {
  const clientOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).clientId;
  return [
    route(createMonitorOp, (request) => createMonitor(app.db, clientOf(request), request.body, app.config.maxMonitorsPerClient)),
    route(listMonitorsOp, (request) => listMonitors(app.db, clientOf(request), request.query)),
    route(getMonitorOp, (request) => getMonitor(app.db, clientOf(request), request.params.monitorId)),
    route(updateMonitorOp, (request) => updateMonitor(app.db, clientOf(request), request.params.monitorId, request.body)),
    route(deleteMonitorOp, (request) => deleteMonitor(app.db, clientOf(request), request.params.monitorId)),
  ];
}
