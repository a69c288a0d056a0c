// The API reference: OpenAPI 3.1 generated from the route schemas (@fastify/swagger with
// the zod transforms), served at /api/openapi.json and rendered by Swagger UI at /docs.
// Registered before the routes so it sees every one of them. What holds for every
// operation is added here, once, whatever routes exist: the shared Error schema, the
// response headers, the 503 of startup, and request and response examples.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../schemas/common.ts';
import { MAX_PATH_PARAM } from '../../schemas/params.ts';
import { MAX_HEADERS_BYTES, MAX_URL_LENGTH } from '../request-limits.ts';
import { VERSION } from '../../version.ts';
import { reasonPhrase } from '../../errors.ts';
import { OPERATION_TAGS } from '../../schemas/operation.ts';

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
offending parameter (an undocumented query parameter is a 400 too). A URL over ${MAX_URL_LENGTH} characters is a 414,
headers over ${MAX_HEADERS_BYTES} bytes a 431, a method a path does not serve a 405 with \`Allow\`. Pages are \`{ totalPages, totalElements, content }\` with \`page\` ≥ 0
(default 0) and \`size\` 1-200 (default 20); out-of-range values are 400, never clamped.

Any operation may answer 503 with Retry-After while the service starts or shuts down, or
when its database is down or too slow; wait the given seconds and retry. A 503 is never
a verdict on the credentials: a valid token stays valid.`;

const zodTransform = createJsonSchemaTransform({ zodToJsonConfig: { override } });

/** Routes that declare no operationId get one from method and path (e.g. getApiProfilesByProfileId). */
function withOperationId<T extends { schema: unknown; url: string }>(out: T, method: string | string[], url: string): T {
  const schema = out.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide || schema.operationId) return out;
  const verb = (Array.isArray(method) ? method[0]! : method).toLowerCase();
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part));
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

const HEADERS = {
  'X-Request-Id': {
    description: 'The request id (the one sent in X-Request-Id, or a generated one); quote it when reporting a problem',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'Remaining quota per policy, e.g. `"default";r=599;t=42` (r: requests left, t: seconds until the window resets)',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The quotas of the calling client\'s plan that this request counts against, e.g. `"default";q=600;w=60, "ai";q=60;w=60`',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 1 },
  },
  'Content-Disposition': {
    description: 'On a CSV reply: `attachment; filename="..."`',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key (nothing was charged again)',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description: 'Strong validator of this answer (reference data); send it back in If-None-Match to get 304 while the answer is unchanged',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`private, no-cache`: keep the answer, but revalidate it (If-None-Match) before each use',
    schema: { type: 'string' },
  },
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

type Operation = Record<string, any>;

/** Every operation of the document, with its path. */
function operations(doc: JsonSchema): { path: string; method: string; op: Operation }[] {
  return Object.entries((doc.paths ?? {}) as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

/** Why any operation may answer 503 (always with Retry-After). */
const UNAVAILABLE =
  'Unavailable for now, retry after Retry-After seconds: the service is starting up (the demo world is being built) or shutting down, ' +
  'or the database is down, did not answer within the time limit of the request (light reads 2 s, searches 5 s, each statement of an export 15 s by default), ' +
  "or had no free connection in time; or the operation's bulkhead is full (its queue is full or the wait passed its deadline), " +
  'or the server is shedding load (event-loop delay or database queue past its limit). Never a verdict on the credentials or the input.';

/**
 * One Error schema (from the same zod schema the error handler's replies follow) referenced
 * by every 4xx/5xx response, and a 503 on every operation: while starting or shutting down,
 * when the database is down or too slow, when the operation's bulkhead is full and when the
 * server sheds load, the service answers 503 with Retry-After.
 */
function sharedErrors(doc: JsonSchema): JsonSchema {
  const { $schema: _drop, description: _description, ...error } = z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12' }) as JsonSchema;
  const components = doc.components as { schemas: Record<string, unknown> };
  components.schemas = {
    ...components.schemas,
    Error: { ...error, description: 'The error body of every 4xx/5xx: the message names the offending field or rule' },
  };
  for (const { op } of operations(doc)) {
    if (!op.responses['503']) op.responses['503'] = { description: UNAVAILABLE };
    // Every body has a limit (BODY_LIMIT_BYTES, or the route's own): over it is a 413.
    // A URL over MAX_URL_LENGTH, or a path parameter over the router's limit, is a 414.
    if ((op.parameters ?? []).some((p: { in: string }) => p.in === 'path' || p.in === 'query') && !op.responses['414']) {
      op.responses['414'] = {
        description: `URI Too Long: a path parameter over ${MAX_PATH_PARAM} characters or a URL over ${MAX_URL_LENGTH} characters (as sent)`,
      };
    }
    if (op.requestBody && !op.responses['413'])
      op.responses['413'] = { description: 'Payload Too Large: the body is larger than the limit (BODY_LIMIT_BYTES)' };
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (Number(status) < 400) continue;
      // The token endpoint's RFC 6749 error bodies keep their own schema.
      if (response.content?.['application/json']?.schema?.properties?.error_description) continue;
      response.content = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
    }
  }
  return doc;
}

/**
 * The response headers, where the server sends them: X-Request-Id on every response;
 * RateLimit and RateLimit-Policy on every /api response of an authenticated request (so not
 * on a 401, nor on the 503 of startup); Retry-After on 429 and 503; Content-Disposition on
 * CSV replies; Idempotent-Replayed on the 200 of an operation that takes an Idempotency-Key.
 */
function responseHeaders(doc: JsonSchema): JsonSchema {
  (doc.components as Record<string, unknown>).headers = HEADERS;
  for (const { path, op } of operations(doc)) {
    const idempotent = (op.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const headers: Record<string, unknown> = { ...response.headers, 'X-Request-Id': headerRef('X-Request-Id') };
      if (path.startsWith('/api/') && status !== '401' && status !== '503') {
        headers.RateLimit = headerRef('RateLimit');
        headers['RateLimit-Policy'] = headerRef('RateLimit-Policy');
      }
      if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
      if (response.content?.['text/csv']) headers['Content-Disposition'] = headerRef('Content-Disposition');
      if (idempotent && status === '200') headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      if (op.responses['304'] && (status === '200' || status === '304')) {
        headers.ETag = headerRef('ETag');
        headers['Cache-Control'] = headerRef('Cache-Control');
      }
      response.headers = headers;
    }
  }
  return doc;
}

const MAX_DEPTH = 10;

/**
 * A value valid against a schema of this document: its first example, const, enum value or
 * default; else one built from its type and bounds. In a request only the required
 * properties are filled (optional ones have rules of their own, such as a category that
 * must exist); in a response every property is.
 */
function sample(schema: any, doc: JsonSchema, mode: 'request' | 'response', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return sample((doc.components as { schemas: Record<string, unknown> }).schemas[name], doc, mode, depth + 1);
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as any[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return sample(branches.find((b) => b.type !== 'null') ?? branches[0], doc, mode, depth + 1);
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t: string) => t !== 'null') ?? 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const required = new Set<string>(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) {
        if (mode === 'request' && !required.has(key)) continue;
        const value = sample(sub, doc, mode, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const item = sample(schema.items, doc, mode, depth + 1);
      const n = Math.min(Math.max(1, schema.minItems ?? 0), schema.maxItems ?? Number.MAX_SAFE_INTEGER);
      return item === undefined ? [] : Array.from({ length: n }, () => item);
    }
    case 'string': {
      const byFormat: Record<string, string> = {
        'date-time': '2026-10-01T08:30:00.000Z',
        date: '2026-10-01',
        email: 'analyst@example.com',
        uri: 'https://example.com/',
      };
      const text = byFormat[schema.format] ?? 'string';
      return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length + (schema.minLength ?? 0));
    }
    case 'integer':
    case 'number':
      return Math.min(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** Restores the examples and defaults of request schemas that contain a transform (see requestExamples). */
function restoreRequestExamples(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(restoreRequestExamples);
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o['x-request-examples'])) {
    o.examples = o['x-request-examples'];
    delete o['x-request-examples'];
  }
  if ('x-request-default' in o) {
    o.default = o['x-request-default'];
    delete o['x-request-default'];
  }
  Object.values(o).forEach(restoreRequestExamples);
}

/**
 * An example for every request and response that has none: required parameters, JSON
 * request bodies, JSON responses (from the schemas and their `examples`), error bodies.
 * The lint (no-invalid-media-type-examples) checks each one against its schema.
 */
function withExamples(doc: JsonSchema): JsonSchema {
  restoreRequestExamples(doc);
  for (const { path, op } of operations(doc)) {
    for (const param of op.parameters ?? []) {
      const documented = Array.isArray(param.schema?.examples) || param.schema?.default !== undefined;
      if (param.example === undefined && (param.required || documented)) {
        const value = sample(param.schema, doc, 'request');
        if (value !== undefined) param.example = value;
      }
    }
    const body = op.requestBody?.content?.['application/json'];
    if (body && body.example === undefined && body.examples === undefined) {
      const value = sample(body.schema, doc, 'request');
      if (value !== undefined) body.example = value;
    }
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const media = response.content?.['application/json'];
      if (!media || media.example !== undefined || media.examples !== undefined) continue;
      if (Number(status) >= 400 && media.schema?.properties?.error_description) {
        media.example = { error: Number(status) === 401 ? 'invalid_client' : 'invalid_request', error_description: response.description };
      } else if (Number(status) >= 400) {
        media.example = {
          status: Number(status),
          error: reasonPhrase(Number(status)),
          message: response.description,
          path: path.replace(/\{(\w+)\}/g, ':$1'),
          requestId: 'req-1a2b3c',
        };
      } else {
        const value = sample(media.schema, doc, 'response');
        if (value !== undefined) media.example = value;
      }
    }
  }
  return doc;
}

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Stacklens API', version: VERSION, description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      // Relative: "Try it" on /docs (and any client given the document's address) calls the
      // host the document was fetched from, whatever name the user opened it with.
      servers: [{ url: '/', description: 'This service (the host the document was fetched from)' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /oauth/token (client credentials)' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key of a client' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKey: [] }],
      tags: [...OPERATION_TAGS],
    },
    transform: (input) => withOperationId(zodTransform(input), input.route.method, input.url),
    transformObject: (doc) => withExamples(responseHeaders(sharedErrors(optionalBodies(pruneUnusedSchemas(zodTransformObject(doc) as JsonSchema))))),
  });
  // The CSP of /docs is set by the security plugin (one owner for that header).
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  // Public, like /docs: the reference is not a secret and tools fetch it unauthenticated.
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
