// @ts-check
// The console's API client: same-origin fetch with the session cookie, the CSRF token on
// every non-GET request, and the API's error message ({status, error, message}) thrown as
// an ApiError the screens show as it is. `get`, `post` and `del` take a path as the API contract
// names it ('/companies/{companyDomain}/feed'), so the type-check (tsconfig.console.json)
// holds every call's parameters, body and answer to the contract (./contract.js).

/** @typedef {import('./contract.js').Session} Session */

/** @type {string | null} */
let csrfToken = null;
/** @type {(err: ApiError) => void} */
let onSignedOut = () => {};

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {unknown} body
   */
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** @param {Session | null} session */
export function setSession(session) {
  csrfToken = session ? session.csrfToken : null;
}
/** @param {(err: ApiError) => void} fn */
export function whenSignedOut(fn) {
  onSignedOut = fn;
}

/** @param {object | undefined} params */
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** @param {Response} res */
async function errorOf(res) {
  /** @type {{ message?: unknown, error?: string } | null} */
  let body = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const message = body && typeof body.message === 'string' ? body.message : body?.error || `${res.status} ${res.statusText}`;
  return new ApiError(res.status, message, body);
}

/**
 * One request; resolves with the parsed JSON (or the Response when raw), rejects with ApiError.
 * @param {string} method
 * @param {string} path
 * @param {{ params?: object, body?: unknown, headers?: Record<string, string>, raw?: boolean, signal?: AbortSignal }} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { params, body, headers = {}, raw = false, signal } = {}) {
  /** @type {Record<string, string>} */
  const h = { accept: 'application/json', ...headers };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) h['x-csrf-token'] = csrfToken;
  if (body !== undefined) h['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path + query(params), {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (/** @type {{ name?: string } | null} */ (err)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.', null);
  }
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401 && !path.startsWith('/console/api/session')) onSignedOut(err);
    throw err;
  }
  if (raw) return res;
  if (res.status === 204) return null;
  return res.json();
}

/**
 * The path with its {parameters} filled in, each one URL-encoded as one segment.
 * @param {string} path
 * @param {Record<string, string | number> | undefined} values
 */
function pathOf(path, values) {
  return path.replace(/\{(\w+)\}/g, (_, name) => {
    const v = values?.[name];
    if (v === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(v));
  });
}

/** @typedef {{ path?: Record<string, string>, query?: object, body?: unknown, headers?: Record<string, string>, signal?: AbortSignal }} AnyInit */

/**
 * @param {string} method
 * @param {string} path
 * @param {AnyInit} [init]
 */
function call(method, path, { path: values, query: params, ...options } = {}) {
  return request(method, `/api${pathOf(path, values)}`, { ...options, params });
}

/** @type {import('./contract.js').Get} */
export const get = (path, ...[init]) => call('GET', path, /** @type {AnyInit} */ (init));
/** @type {import('./contract.js').Post} */
export const post = (path, ...[init]) => call('POST', path, /** @type {AnyInit} */ (init));
/** @type {import('./contract.js').Del} */
export const del = (path, ...[init]) => call('DELETE', path, /** @type {AnyInit} */ (init));

export const session = {
  /** @returns {Promise<Session>} */
  current: () => request('GET', '/console/api/session'),
  /** @type {(email: string, password: string) => Promise<Session>} */
  signIn: (email, password) => request('POST', '/console/api/session', { body: { email, password } }),
  /** @returns {Promise<null>} */
  signOut: () => request('DELETE', '/console/api/session'),
};
