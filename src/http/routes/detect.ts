// POST /detect: the technologies of one site, from a URL (fetched SSRF-safe) or uploaded
// artifacts; its own body limit (DETECT_BODY_LIMIT_BYTES) and time limit (DETECT_TIMEOUT_MS),
// matched on the app's detection workers (DETECT_WORKERS).
import type { FastifyInstance } from 'fastify';
import { detectOp } from '../../schemas/detect.ts';
import { detectDepsOf, detectTechnologies } from '../../services/detect.ts';
import { route } from '../route-config.ts';

export function detectRoutes(app: FastifyInstance) {
  const { detect } = app.config;
  return [route(detectOp, (request) => detectTechnologies(request.body, detectDepsOf(detect, app.detector)), { bodyLimit: detect.bodyLimitBytes })];
}
