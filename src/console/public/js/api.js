// The console's API client: same-origin fetch with the session cookie, the CSRF token on
// every non-GET request, and the API's error message ({status, error, message}) thrown as
// an ApiError the screens show as it is.
let csrfToken = null;
let onSignedOut = () => {};

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export function setSession(session) {
  csrfToken = session ? session.csrfToken : null;
}
export function whenSignedOut(fn) {
  onSignedOut = fn;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function errorOf(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const message = body && typeof body.message === 'string' ? body.message : body?.error || `${res.status} ${res.statusText}`;
  return new ApiError(res.status, message, body);
}

/** One request; resolves with the parsed JSON (or the Response when raw), rejects with ApiError. */
export async function request(method, path, { params, body, headers = {}, raw = false, signal } = {}) {
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
    if (err?.name === 'AbortError') throw err;
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

export const get = (path, params, opts) => request('GET', `/api${path}`, { ...opts, params });
export const post = (path, body, params, opts) => request('POST', `/api${path}`, { ...opts, body, params });

export const session = {
  current: () => request('GET', '/console/api/session'),
  signIn: (email, password) => request('POST', '/console/api/session', { body: { email, password } }),
  signOut: () => request('DELETE', '/console/api/session'),
};

/** A URL path segment. */
export const seg = (s) => encodeURIComponent(s);
