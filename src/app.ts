// Builds the Fastify app: plugins first, then routes. Never listens: main.ts and the tests do.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './store/db.ts';
import { errorsPlugin } from './http/plugins/errors.ts';
import { requestLogPlugin } from './http/plugins/request-log.ts';
import { registerRoutes } from './http/routes/index.ts';
import { mcpHttpRoutes } from './mcp/http.ts';
import { allTools } from './mcp/tools/index.ts';
import type { ToolDef } from './mcp/registry.ts';

export interface AppDeps {
  config: Config;
  db: Db;
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
    readiness: Readiness;
  }
}

/** Header and body fields that must never reach a log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.client_secret',
  '*.api_key',
  '*.access_token',
];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
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
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', deps.db);
  app.decorate('readiness', deps.readiness ?? { ready: true, message: '' });

  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  await registerRoutes(app);
  await app.register(mcpHttpRoutes, { tools: deps.mcpTools ?? allTools });
  return app;
}
