// The CRM connectors' HTTP client: the fetcher's one request at a time (detect/collect), so a
// CRM base URL is held to the same SSRF rules as a crawled site (public addresses only, resolved
// once and pinned; `network` names the private blocks an operator, or a test's local stub, allows).
import { BlockedAddressError, FetchError, makeResolver, requestOnce, type NetworkPolicy } from '../../detect/collect/index.ts';
import { VERSION } from '../../version.ts';
import { CrmError } from './connector.ts';

export interface CrmHttpOptions {
  token: string;
  network: NetworkPolicy;
  timeoutMs: number;
}

interface CrmResponse {
  status: number;
  text: string;
  headers: Record<string, string | string[]>;
}

const MAX_BYTES = 64 * 1024 * 1024;
const resolver = makeResolver();

/** One request with the bearer token; throws CrmError when no answer came (a refused target names itself). */
export async function crmRequest(
  url: string,
  options: CrmHttpOptions,
  request: { method?: 'GET' | 'POST' | 'PUT' | 'PATCH'; body?: string; contentType?: string; accept?: string } = {},
): Promise<CrmResponse> {
  const method = request.method ?? 'GET';
  try {
    const res = await requestOnce(new URL(url), {
      resolver,
      policy: options.network,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_BYTES,
      userAgent: `Stacklens/${VERSION} (CRM sync)`,
      accept: request.accept ?? 'application/json',
      headers: { authorization: `Bearer ${options.token}` },
      ...(method === 'GET'
        ? {}
        : { post: { method, body: Buffer.from(request.body ?? '', 'utf8'), headers: { 'content-type': request.contentType ?? 'application/json' } } }),
    });
    if (res.truncated) throw new CrmError(`the CRM's answer to ${method} ${new URL(url).pathname} exceeded ${MAX_BYTES} bytes`);
    return { status: res.status, text: res.body.toString('utf8'), headers: res.headers };
  } catch (err) {
    if (err instanceof CrmError) throw err;
    if (err instanceof BlockedAddressError) throw new CrmError(`refused CRM address: ${err.message}`);
    if (err instanceof FetchError) throw new CrmError(`CRM unreachable (${err.reason}): ${err.message}`);
    throw err;
  }
}

/** The JSON of a 2xx answer, or a CrmError naming the status and the CRM's message. */
export function jsonOf<T>(res: CrmResponse, what: string): T {
  if (res.status < 200 || res.status >= 300) throw new CrmError(`${what}: HTTP ${res.status}${vendorMessage(res.text)}`);
  try {
    return JSON.parse(res.text) as T;
  } catch {
    throw new CrmError(`${what}: the CRM answered HTTP ${res.status} with a body that is not JSON`);
  }
}

/** The CRM's own error message, when its body carries one (HubSpot: `message`; Salesforce: `[{ message, errorCode }]`). */
function vendorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    const first = Array.isArray(body) ? body[0] : body;
    const message = first && typeof first === 'object' ? (first as { message?: unknown }).message : undefined;
    return typeof message === 'string' ? `: ${message.slice(0, 500)}` : '';
  } catch {
    return '';
  }
}
