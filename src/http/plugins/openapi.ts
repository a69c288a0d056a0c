// The API reference: OpenAPI 3.1 generated from the route schemas (@fastify/swagger with
// the zod transforms), served at /api/openapi.json and rendered by Swagger UI at /docs.
// Registered before the routes so it sees every one of them.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';

type JsonSchema = Record<string, unknown>;

/**
 * Tidies zod's JSON Schema for readers: a schema whose metadata states its `type` (lenient
 * query parameters such as page, size, export, which also accept strings) is shown as
 * that type alone, and the ±2^53 bounds zod puts on every integer are dropped.
 */
function override(ctx: { jsonSchema: JsonSchema }): void {
  const s = ctx.jsonSchema;
  // What the library's own override does for OpenAPI 3.1: drop empty union branches.
  if (Array.isArray(s.anyOf)) s.anyOf = s.anyOf.filter((b) => Object.keys(b as object).length > 0);
  if (s.type !== undefined && Array.isArray(s.anyOf)) delete s.anyOf;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
}

const DESCRIPTION = `Account intelligence: company search, technographics (installed products), vendors and
their catalogs, taxonomies, firmographics, a news feed, people profiles and purchases.

Authenticate every call under /api with \`Authorization: Bearer <access token>\` (OAuth 2.0
client credentials) or \`X-API-Key: <key>\`. Exports and AI helpers also need
\`X-On-Behalf-Of-User: <email>\`, the user the action is attributed to (audited).

Errors are always \`{ status, error, message, path, requestId }\`; the message names the
offending parameter. Pages are \`{ totalPages, totalElements, content }\` with \`page\` ≥ 0
(default 0) and \`size\` 1-200 (default 20); out-of-range values are 400, never clamped.`;

const zodTransform = createJsonSchemaTransform({ zodToJsonConfig: { override } });

/** Routes that declare no operationId get one from method and path (e.g. getApiProfilesByProfileId). */
function withOperationId<T extends { schema: unknown; url: string }>(out: T, method: string | string[], url: string): T {
  const schema = out.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide || schema.operationId) return out;
  const verb = (Array.isArray(method) ? method[0]! : method).toLowerCase();
  const words = url.split('/').filter(Boolean).map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part));
  const camel = words.join('-').replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
  schema.operationId = verb + camel.charAt(0).toUpperCase() + camel.slice(1);
  return out;
}

const zodTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig: { override } });

/**
 * The zod transform emits an input and an output variant of every registered schema;
 * keep only the components some operation reaches (directly or through other components).
 */
function pruneUnusedSchemas(doc: JsonSchema): JsonSchema {
  const components = (doc.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const used = new Set<string>();
  const pending = [JSON.stringify(doc.paths ?? {})];
  while (pending.length > 0) {
    for (const m of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = m[1]!;
      if (!used.has(name) && name in schemas) {
        used.add(name);
        pending.push(JSON.stringify(schemas[name]));
      }
    }
  }
  return { ...doc, components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => used.has(k))) } };
}

/**
 * @fastify/swagger marks every request body required; a body schema that also accepts
 * null (`.nullish()`: the call works without a body) is shown as an optional body instead.
 */
function optionalBodies(doc: JsonSchema): JsonSchema {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      const media = op?.requestBody?.content?.['application/json'];
      const anyOf = media?.schema?.anyOf as JsonSchema[] | undefined;
      if (!anyOf?.some((b) => b.type === 'null')) continue;
      const rest = anyOf.filter((b) => b.type !== 'null');
      media.schema = rest.length === 1 ? rest[0] : { anyOf: rest };
      op.requestBody.required = false;
    }
  }
  return doc;
}

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Stacklens API', version: '1.0.0', description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      servers: [{ url: app.config.publicUrl, description: 'This service' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /oauth/token (client credentials)' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key of a client' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKey: [] }],
      tags: [
        { name: 'Account', description: 'The calling client' },
        { name: 'Companies', description: 'Company search' },
        { name: 'Company products', description: "A company's installed products: paged JSON, CSV, JSONL" },
        { name: 'Vendors', description: 'Vendors and their product catalogs' },
        { name: 'Taxonomy', description: 'Product categories and industries' },
        { name: 'Firmographics', description: 'Company profiles' },
        { name: 'Feed', description: 'Company news feed' },
        { name: 'Profiles', description: 'People profiles and purchases' },
        { name: 'Health', description: 'Liveness and readiness (no authentication)' },
      ],
    },
    transform: (input) => withOperationId(zodTransform(input), input.route.method, input.url),
    transformObject: (doc) => optionalBodies(pruneUnusedSchemas(zodTransformObject(doc) as JsonSchema)),
  });
  // The CSP of /docs is set by the security plugin (one owner for that header).
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  // Public, like /docs: the reference is not a secret and tools fetch it unauthenticated.
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
