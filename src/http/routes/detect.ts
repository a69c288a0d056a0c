// POST /detect: the technologies of one site, from a URL (fetched SSRF-safe) or uploaded
// artifacts; its own body limit (DETECT_BODY_LIMIT_BYTES) and time limit (DETECT_TIMEOUT_MS),
// matched on the app's detection workers (DETECT_WORKERS).
import type { FastifyInstance } from 'fastify';
import { detectOp } from '../../schemas/detect.ts';
import { detectTechnologies } from '../../services/detect.ts';
import { serve } from '../route-config.ts';

export async function detectRoutes(app: FastifyInstance): Promise<void> {
  const { detect } = app.config;
  const deps = {
    timeoutMs: detect.timeoutMs,
    contactUrl: detect.contactUrl,
    detector: app.detector,
    // A private network allowed (a deployment inside its own network) allows its ports too.
    network: detect.allowPrivateNetworks ? { allowPrivateNetworks: true, ports: 'any' as const } : {},
  };
  serve(app, detectOp, (request) => detectTechnologies(request.body, deps), { bodyLimit: detect.bodyLimitBytes });
}
