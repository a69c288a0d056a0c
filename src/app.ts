// Builds the Fastify app: plugins first, then routes. Never listens: main.ts and the tests do.
import { MAX_PATH_PARAM } from './schemas/params.ts';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import { replySerializerCompiler } from './http/reply-serializer.ts';
import { ReferenceCache } from './http/reference-cache.ts';
import { errorsPlugin } from './http/plugins/errors.ts';
import { requestLogPlugin } from './http/plugins/request-log.ts';
import { registerRoutes } from './http/routes/index.ts';
import { openapiPlugin } from './http/plugins/openapi.ts';
import { securityPlugin } from './http/plugins/security.ts';
import { methodsPlugin } from './http/plugins/methods.ts';
import { checkRequestHead, clientErrorHandler, frameworkErrors, MAX_REQUEST_HEAD_BYTES, requestIdOf } from './http/request-limits.ts';
import { queryLimitsPlugin } from './http/plugins/query-limits.ts';
import { drainPlugin } from './http/plugins/drain.ts';
import { databaseStatePlugin } from './http/plugins/database-state.ts';
import { overloadPlugin } from './http/plugins/overload.ts';
import { openCounterStore, type CounterStore } from './auth/counters.ts';
import { enforceRateLimit } from './auth/rate-limit.ts';
import { mcpHttpRoutes } from './mcp/http.ts';
import { allTools } from './mcp/tools/index.ts';
import type { ToolDef } from './mcp/registry.ts';
import { Bulkheads } from './bulkhead.ts';
import { UsageRecorder } from './services/usage.ts';
import { DetectorPool } from './services/detect-pool.ts';
import { EventPublisher } from './services/events.ts';
import { evaluateMonitors } from './services/monitors.ts';
import { WebhookDelivery } from './services/webhooks.ts';
import { metricsPlugin } from './http/plugins/metrics.ts';
import { redactUrlPasswords } from './operations.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Rate-limit counters; default from config (Redis when REDIS_URL is set). Closed with the app only when created here. */
  counters?: CounterStore;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: DestinationStream;
  /** The MCP tools to serve (default: all); tests may pass their own. */
  mcpTools?: ToolDef[];
  /** Startup state shared with `serve`: the API answers 503 until ready (e.g. while seeding). */
  readiness?: Readiness;
  /** Tests: quicker expiry of a dead worker's delivery jobs, faster polling. */
  webhookTuning?: ConstructorParameters<typeof WebhookDelivery>[3];
}

export interface Readiness {
  ready: boolean;
  /** Why the service is not ready yet, shown in 503 answers. */
  message: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** Fixed-window counters for rate limits and token-endpoint throttling. */
    counters: CounterStore;
    readiness: Readiness;
    /** Reference answers kept in memory with their ETags (routes of operations with http.referenceData). */
    referenceCache: ReferenceCache;
    /** The concurrency limits and queues every operation call runs in (REST and MCP alike). */
    bulkheads: Bulkheads;
    /** Usage per client, day and operation (usage_daily, read by the Admin API): REST requests and MCP calls alike. */
    usage: UsageRecorder;
    /** The worker threads detections run on (POST /api/detect, detect_technologies), ended when the app closes. */
    detector: DetectorPool;
    /** Publishes change events and wakes the live streams (services/events.ts). */
    events: EventPublisher;
    /** Delivers events to webhook endpoints (services/webhooks.ts). */
    webhooks: WebhookDelivery;
  }
}

/** Header and body fields that must never reach a log line. */
const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["proxy-authorization"]',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  'req.headers["x-on-behalf-of-user"]',
  'headers["x-on-behalf-of-user"]',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  'client_secret',
  '*.client_secret',
  '*.*.client_secret',
  '*.clientSecret',
  'api_key',
  'password',
  'token',
  'access_token',
  '*.api_key',
  '*.apiKey',
  '*.access_token',
  '*.accessToken',
  '*.private_jwk',
  '*.privateJwk',
  '*.password',
  'body',
  '*.body',
];

/**
 * The log destination, with any password in a connection URL masked (`postgres://app:***@db`)
 * in whatever a line holds (messages, error texts): pino's redaction works on paths only.
 */
function logDestination(target: DestinationStream = pino.destination(1)): DestinationStream {
  return { write: (line: string) => target.write(line.includes('://') ? redactUrlPasswords(line) : line) };
}

const ROUTER_OPTIONS = { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM };

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' }, stream: logDestination(deps.logStream) },
    // One line per request, written by requestLogPlugin, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // X-Request-Id is read by requestIdOf (kept only when short and printable).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Node's parser limit on request line + headers; the 414/431 limits below it are checked
    // by checkRequestHead, and what overflows it is answered by clientErrorHandler.
    http: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
    clientErrorHandler,
    frameworkErrors,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: ROUTER_OPTIONS,
    // request.ip (limits, sign-in throttling, logs, the /metrics loopback rule) is the
    // socket's address, or behind a trusted proxy the client X-Forwarded-For names.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
  }).withTypeProvider<ZodTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutMs;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler({ checkReplies: config.checkReplies }));
  app.decorate('config', config);
  app.decorate('db', deps.db);
  const counters = deps.counters ?? (await openCounterStore(config.redisUrl, (msg, err) => app.log.warn({ err }, msg)));
  app.decorate('counters', counters);
  if (!deps.counters) app.addHook('onClose', () => counters.close());
  app.decorate('referenceCache', new ReferenceCache(deps.db, { checkReplies: config.checkReplies }));
  app.decorate('readiness', deps.readiness ?? { ready: true, message: '' });
  const bulkheads = new Bulkheads(config.bulkheads);
  app.decorate('bulkheads', bulkheads);
  const usage = new UsageRecorder(deps.db);
  app.decorate('usage', usage);
  const detector = new DetectorPool(config.detect.workers);
  app.decorate('detector', detector);
  app.addHook('onClose', () => detector.close());
  // Change events: numbered in commit order and handed to the live streams as they come.
  const webhooks = new WebhookDelivery(
    deps.db,
    config,
    (err) => app.log.warn({ err }, 'Webhook delivery: a job failed to run; the queue retries it'),
    deps.webhookTuning,
  );
  app.decorate('webhooks', webhooks);
  const events = new EventPublisher(
    deps.db,
    (err) => app.log.warn({ err }, 'Publishing change events failed; the next turn retries'),
    () => app.readiness.ready,
    (companyIds) =>
      evaluateMonitors(deps.db, companyIds, (monitorId, err) => app.log.warn({ err, monitorId }, 'A monitor whose search no longer resolves was skipped')),
    async (tx, fromSeq, toSeq) => {
      await webhooks.enqueueNumbered(tx, fromSeq, toSeq);
    },
    // The delivery queue starts with the first publish (its schema is created then, not during the first start's seeding).
    () => webhooks.start(),
  );
  app.decorate('events', events);
  app.addHook('onReady', async () => events.start());
  app.addHook('preClose', async () => events.close());
  app.addHook('onClose', async () => {
    await events.stop();
    await webhooks.stop();
  });

  // The very first hook: every answer carries its request id, also those of the hooks
  // below that answer on their own (shutting down, shedding load, 414/431).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(securityPlugin);
  // First of the request hooks: once shutting down, new requests get their 503 before any work.
  await app.register(drainPlugin);
  // Then load shedding: a shed request costs no authentication, parsing or database work.
  await app.register(overloadPlugin);
  await app.register(queryLimitsPlugin);
  await app.register(databaseStatePlugin);
  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  await app.register(metricsPlugin);
  app.addHook('onRequest', checkRequestHead);
  await app.register(methodsPlugin, ROUTER_OPTIONS);
  // Before the routes: the OpenAPI document is collected from routes as they register.
  await app.register(openapiPlugin);
  await registerRoutes(app);
  await app.register(mcpHttpRoutes, {
    tools: deps.mcpTools ?? allTools,
    bulkheads,
    usage,
    // Each MCP tool call spends the client's quota as a REST request does (AI/export calls their own too).
    beforeCall: (principal) => (tool, args) => enforceRateLimit(counters, principal, tool.rateClass?.(args) ?? 'default', () => {}),
  });
  return app;
}
