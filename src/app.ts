// Builds the Fastify app: plugins first, then routes. Never listens: main.ts and the tests do.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './store/db.ts';
import { replySerializerCompiler } from './http/reply-serializer.ts';
import { ReferenceCache } from './http/reference-cache.ts';
import { errorsPlugin } from './http/plugins/errors.ts';
import { requestLogPlugin } from './http/plugins/request-log.ts';
import { registerRoutes } from './http/routes/index.ts';
import { openapiPlugin } from './http/plugins/openapi.ts';
import { securityPlugin } from './http/plugins/security.ts';
import { overloadPlugin } from './http/plugins/overload.ts';
import { openCounterStore, type CounterStore } from './store/counters.ts';
import { enforceRateLimit } from './auth/rate-limit.ts';
import { mcpHttpRoutes } from './mcp/http.ts';
import { allTools } from './mcp/tools/index.ts';
import type { ToolDef } from './mcp/registry.ts';
import { Bulkheads } from './bulkhead.ts';

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
  }
}

/** Header and body fields that must never reach a log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers["x-on-behalf-of-user"]',
  'headers["x-on-behalf-of-user"]',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.client_secret',
  '*.clientSecret',
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

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    // One line per request, written by requestLogPlugin, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
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

  await app.register(securityPlugin);
  // Before every other hook: a shed request costs no authentication, parsing or database work.
  await app.register(overloadPlugin);
  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  // Before the routes: the OpenAPI document is collected from routes as they register.
  await app.register(openapiPlugin);
  await registerRoutes(app);
  await app.register(mcpHttpRoutes, {
    tools: deps.mcpTools ?? allTools,
    bulkheads,
    // Each MCP tool call spends the client's quota as a REST request does (AI/export calls their own too).
    beforeCall: (principal) => (tool, args) => enforceRateLimit(counters, principal, tool.rateClass?.(args) ?? 'default', () => {}),
  });
  return app;
}
