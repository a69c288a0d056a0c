// Local stand-ins for HubSpot and Salesforce that check every request against an OpenAPI
// description (test/fixtures/crm/) before answering as the vendor would: a request matching no
// operation, or whose parameters, content type, bearer token or body break its schema, is
// recorded in `violations` and answered 400, so a test that ends with violations fails.
// Answers are checked against the description too (a stub that drifts from it fails as well).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  names: string[];
  op: Json;
  parameters: Json[];
}

export interface SpecRequest {
  operationId: string;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: string;
  json: unknown;
  /** The Authorization header as sent (set by the stub server; the checker reads it from the headers it is given). */
  authorization?: string;
}

/** The operations of an OpenAPI document, with a request checker built on Ajv. */
export class OpenApiChecker {
  private readonly ops: Operation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<object, ValidateFunction>();

  constructor(readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'spec', components: doc.components });
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      const names: string[] = [];
      const regex = new RegExp(
        `^${template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)'))}$`,
      );
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => this.deref(p));
        this.ops.push({ method: method.toUpperCase(), template, regex, names, op, parameters });
      }
    }
  }

  private deref(node: Json): Json {
    if (!node.$ref) return node;
    const parts = (node.$ref as string).replace(/^#\//, '').split('/');
    return parts.reduce((n: Json, k) => n[k], this.doc);
  }

  private validator(schema: Json): ValidateFunction {
    let v = this.cache.get(schema);
    if (!v) {
      const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"spec#/components/'));
      v = this.ajv.compile(rewritten);
      this.cache.set(schema, v);
    }
    return v;
  }

  private errors(v: ValidateFunction): string {
    return this.ajv.errorsText(v.errors, { dataVar: 'body' });
  }

  /** The request's operation, or a thrown string saying how it breaks the description. */
  check(method: string, rawUrl: string, headers: IncomingMessage['headers'], body: string): SpecRequest {
    const url = new URL(rawUrl, 'http://stub');
    const op = this.ops.find((o) => o.method === method && o.regex.test(url.pathname));
    if (!op) throw `${method} ${url.pathname}: no such operation`;
    const match = op.regex.exec(url.pathname)!;
    const params: Record<string, string> = {};
    op.names.forEach((n, i) => (params[n] = decodeURIComponent(match[i + 1]!)));
    const where = `${method} ${op.template}`;
    for (const p of op.parameters) {
      const value = p.in === 'path' ? params[p.name] : p.in === 'query' ? url.searchParams.get(p.name) : headers[String(p.name).toLowerCase()];
      if (value === undefined || value === null) {
        if (p.required) throw `${where}: ${p.in} parameter '${p.name}' is required`;
        continue;
      }
      const typed =
        p.schema?.type === 'boolean' ? (value === 'true' ? true : value === 'false' ? false : value) : p.schema?.type === 'integer' ? Number(value) : value;
      const v = this.validator(p.schema ?? {});
      if (!v(typed)) throw `${where}: ${p.in} parameter '${p.name}': ${this.errors(v)}`;
    }
    if ((this.doc.security ?? op.op.security)?.length && !/^Bearer \S+$/.test(String(headers.authorization ?? ''))) throw `${where}: no bearer token`;
    let json: unknown;
    const requestBody = op.op.requestBody;
    if (requestBody) {
      if (!body && requestBody.required) throw `${where}: a body is required`;
      const type = String(headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      const media = requestBody.content[type];
      if (!media) throw `${where}: content type '${type}' is not one of ${Object.keys(requestBody.content).join(', ')}`;
      let data: unknown = body;
      if (type === 'application/json') {
        try {
          data = json = JSON.parse(body);
        } catch {
          throw `${where}: the body is not JSON`;
        }
      }
      const v = this.validator(media.schema);
      if (!v(data)) throw `${where}: ${this.errors(v)}`;
    } else if (body) throw `${where}: this operation takes no body`;
    return { operationId: op.op.operationId, method, path: url.pathname, params, query: url.searchParams, body, json };
  }

  /** Holds an answer to its documented response (status, media type, schema); returns a problem or null. */
  checkResponse(req: SpecRequest, status: number, type: string, body: string): string | null {
    const op = this.ops.find((o) => o.op.operationId === req.operationId)!;
    const response = op.op.responses[String(status)];
    if (!response) return status >= 400 ? null : `${req.operationId}: undocumented status ${status}`;
    if (!response.content) return null;
    const media = response.content[type];
    if (!media) return `${req.operationId}: undocumented response type ${type}`;
    const v = this.validator(media.schema);
    return v(type === 'application/json' ? JSON.parse(body) : body) ? null : `${req.operationId} answer: ${this.errors(v)}`;
  }
}

export function loadSpec(file: string): OpenApiChecker {
  return new OpenApiChecker(JSON.parse(readFileSync(new URL(`../fixtures/crm/${file}`, import.meta.url), 'utf8')) as Json);
}

export interface Answer {
  status: number;
  json?: unknown;
  csv?: string;
}

export interface SpecStub {
  url: string;
  violations: string[];
  requests: SpecRequest[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 (port 0) whose requests pass `checker` before `handle` answers them. */
export async function startSpecStub(checker: OpenApiChecker, handle: (req: SpecRequest) => Answer): Promise<SpecStub> {
  const violations: string[] = [];
  const requests: SpecRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: SpecRequest;
      try {
        parsed = checker.check(req.method ?? 'GET', req.url ?? '/', req.headers, body);
      } catch (problem) {
        violations.push(String(problem));
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(problem), category: 'VALIDATION_ERROR' }));
        return;
      }
      parsed.authorization = req.headers.authorization;
      requests.push(parsed);
      const answer = handle(parsed);
      const type = answer.csv !== undefined ? 'text/csv' : 'application/json';
      const text = answer.csv ?? (answer.json === undefined ? '' : JSON.stringify(answer.json));
      const problem = checker.checkResponse(parsed, answer.status, type, text);
      if (problem) violations.push(`stub drifted from the description: ${problem}`);
      res.writeHead(answer.status, text ? { 'content-type': type } : {}).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
