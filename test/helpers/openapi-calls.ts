// Calls built from the served OpenAPI document: its operations, the documented-valid call of
// each (every parameter with an example, the body example) and a sender through app.inject.
// Shared by the strictness test and the fuzzing pass, which both walk every operation.
import type { FastifyInstance } from 'fastify';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema: Record<string, any>;
}

export interface Call {
  method: string;
  path: string;
  params: Map<string, { param: Param; value: unknown }>;
  body?: unknown;
  /** Extra query text appended as sent (e.g. an undocumented parameter). */
  extraQuery?: string;
}

export interface DocOperation {
  path: string;
  method: string;
  op: any;
}

/** Every operation of the document (optionally only those under a prefix). */
export function operationsOf(doc: any, prefix = '/'): DocOperation[] {
  return Object.entries<any>(doc.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ path, method, op })));
}

/** The documented-valid call of an operation: every parameter with an example, the body example. */
export function validCall(path: string, method: string, op: any): Call {
  const params = new Map<string, { param: Param; value: unknown }>();
  for (const param of (op.parameters ?? []) as Param[]) {
    if (param.example !== undefined) params.set(`${param.in}:${param.name}`, { param, value: param.example });
  }
  return { method, path, params, body: op.requestBody?.content?.['application/json']?.example };
}

/** Sends a call with the given credential headers; a JSON body when the call has one. */
export function sendCall(app: FastifyInstance, call: Call, credentials: Record<string, string>) {
  let url = call.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { ...credentials };
  for (const { param, value } of call.params.values()) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(value)));
    else if (param.in === 'header') headers[param.name] = String(value);
    else for (const v of Array.isArray(value) ? value : [value]) query.append(param.name, String(v));
  }
  const qs = [query.toString(), call.extraQuery ?? ''].filter(Boolean).join('&');
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method: call.method.toUpperCase() as 'GET', url: qs ? `${url}?${qs}` : url, headers, payload });
}
