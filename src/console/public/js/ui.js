// @ts-check
// Shared pieces of the console's screens: routing helpers, the async-data hook, loading /
// empty / error states, the sortable table and the pager.
import { html } from 'htm/preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export { html };

/**
 * @typedef {{ parts: string[], query: URLSearchParams }} Route
 * @typedef {{ status?: number, message: string, title?: string }} Problem  an ApiError, or any error to show (title: the headline, when the screen knows better than the status)
 * @typedef {import('preact').ComponentChildren} Children
 */
/**
 * An event whose currentTarget is the element the handler is on.
 * @template {EventTarget} T
 * @typedef {import('preact').TargetedEvent<T>} On
 */
/**
 * @typedef {On<HTMLInputElement>} FieldEvent
 * @typedef {On<HTMLSelectElement>} SelectEvent
 * @typedef {On<HTMLFormElement>} FormEvent
 */

/**
 * The current route: path segments and query of the location hash (#/a/b?x=1).
 * @returns {Route}
 */
export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, '');
  const [path, qs = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(qs) };
}
/**
 * @param {string[]} parts
 * @param {Record<string, unknown>} [query]
 */
export function href(parts, query) {
  const path = parts.map((p) => encodeURIComponent(p)).join('/');
  const q = query
    ? new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v !== undefined && v !== null && v !== '' ? [[k, String(v)]] : []))).toString()
    : '';
  return `#/${path}${q ? `?${q}` : ''}`;
}
/** @param {string} to */
export function navigate(to, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/**
 * Runs fn() when deps change; keeps the last data while reloading (no layout jump).
 * @template T
 * @param {() => T | Promise<T>} fn
 * @param {unknown[]} deps
 */
export function useAsync(fn, deps) {
  const [state, setState] = useState(
    /** @type {{ loading: boolean, error: Problem | null, data: T | undefined }} */ ({ loading: true, error: null, data: undefined }),
  );
  const seq = useRef(0);
  const run = useCallback(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    Promise.resolve()
      .then(fn)
      .then(
        (data) => n === seq.current && setState({ loading: false, error: null, data }),
        (error) => n === seq.current && setState({ loading: false, error, data: undefined }),
      );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** @param {{ label?: string, rows?: number }} props */
export function Loading({ label = 'Loading…', rows = 0 }) {
  return html`<div class="loading" role="status" aria-live="polite">
    <span class="spinner" aria-hidden="true"></span>${label}
    ${rows > 0 && html`<div class="skeleton" aria-hidden="true">${Array.from({ length: rows }, () => html`<div class="skeleton-row"></div>`)}</div>`}
  </div>`;
}

/**
 * The headline of a refusal by its status: what kind of answer it is, so a plan limit or a
 * typo does not read like a failure of the service. The API's message follows it.
 * @param {number | undefined} status
 */
function headline(status) {
  if (status === 400 || status === 422) return 'Please check the input.';
  if (status === 401) return 'You are signed out.';
  if (status === 402 || status === 403) return 'Not allowed for this account.';
  if (status === 404) return 'Not found.';
  if (status === 409) return 'Not possible right now.';
  if (status === 413) return 'Too large.';
  if (status === 429) return 'Limit reached.';
  if (status === 503) return 'The service is busy.';
  return 'Something went wrong.';
}

/** @param {{ error: Problem | null | undefined, onRetry?: () => void }} props */
export function ErrorBox({ error, onRetry }) {
  if (!error) return null;
  const status = error.status ? `${error.status}: ` : '';
  return html`<div class="error" role="alert">
    <strong>${error.title ?? headline(error.status)}</strong> <span class="error-message">${status}${error.message}</span>
    ${onRetry && html` <button type="button" class="link" onClick=${onRetry}>Try again</button>`}
  </div>`;
}

/** @param {{ children: Children }} props */
export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

/** @param {string | null | undefined} iso */
export function fmtDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 10);
}
/** @param {string | null | undefined} iso */
export function fmtDateTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * A link target from API text: only http(s) addresses and same-origin paths, so a value such
 * as `javascript:…` never becomes a link (Preact sets href as it is given).
 * @param {string | null | undefined} url
 * @returns {string | null}
 */
export function safeHref(url) {
  if (!url) return null;
  if (/^\/(?![/\\])/u.test(url)) return url;
  return /^https?:\/\//iu.test(url) ? url : null;
}

/**
 * A column of a Table: `key` names the row field shown (or the sort), `render` and `sort`
 * override what is shown and compared.
 * @template R
 * @typedef {{ key: string, label: string, render?: (row: R) => unknown, sort?: (row: R) => any, numeric?: boolean, sortable?: boolean }} Column
 */
/** @typedef {{ key: string | null, dir: number }} Sort */
/**
 * A table whose column headers sort the rows (buttons, so the keyboard reaches them).
 * Without `onSort` the table sorts the rows it was given; with it, the sort is the caller's
 * (a server-side order across pages): `sort` {key, dir} says which header is active and
 * `onSort(key)` is called on a click.
 * @template R
 * @param {{ columns: Column<R>[], rows: R[], caption?: string, rowKey?: (row: R) => string | number, sortable?: boolean, empty?: string, sort?: Sort, onSort?: (key: string) => void }} props
 */
export function Table({ columns, rows, caption, rowKey, sortable = true, empty = 'Nothing to show.', sort: given, onSort }) {
  const [own, setOwn] = useState(/** @type {Sort} */ ({ key: null, dir: 1 }));
  const sort = given ?? own;
  let shown = rows;
  if (sort.key && !onSort) {
    const col = /** @type {Column<R>} */ (columns.find((c) => c.key === sort.key));
    const val = col.sort ?? ((/** @type {any} */ r) => r[col.key]);
    shown = [...rows].sort((a, b) => {
      const x = val(a);
      const y = val(b);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sort.dir;
    });
  }
  const toggle = (/** @type {string} */ key) => (onSort ? onSort(key) : setOwn((s) => ({ key, dir: s.key === key ? -s.dir : 1 })));
  return html`<div class="table-wrap">
    <table>
      ${
        caption &&
        html`<caption>
          ${caption}
        </caption>`
      }
      <thead>
        <tr>
          ${columns.map((c) => {
            const active = sort.key === c.key;
            const ariaSort = active ? (sort.dir === 1 ? 'ascending' : 'descending') : undefined;
            return html`<th scope="col" aria-sort=${ariaSort} class=${c.numeric ? 'num' : ''}>
              ${
                sortable && c.sortable !== false
                  ? html`<button type="button" class="sort" onClick=${() => toggle(c.key)}>
                      ${c.label}<span aria-hidden="true">${active ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                    </button>`
                  : c.label
              }
            </th>`;
          })}
        </tr>
      </thead>
      <tbody>
        ${
          shown.length === 0
            ? html`<tr>
                <td colspan=${columns.length} class="empty">${empty}</td>
              </tr>`
            : shown.map(
                (r, i) =>
                  html`<tr key=${rowKey ? rowKey(r) : i}>
                    ${columns.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${c.render ? c.render(r) : (/** @type {any} */ (r)[c.key] ?? '—')}</td>`)}
                  </tr>`,
              )
        }
      </tbody>
    </table>
  </div>`;
}

/** @param {{ page: number, totalPages: number, totalElements?: number, onPage: (page: number) => void, label?: string }} props */
export function Pager({ page, totalPages, totalElements, onPage, label = 'results' }) {
  if (!totalPages) return html`<div class="pager" aria-hidden="true"></div>`;
  return html`<nav class="pager" aria-label=${`Pages of ${label}`}>
    <button type="button" disabled=${page <= 0} onClick=${() => onPage(page - 1)}>Previous</button>
    <span>Page ${page + 1} of ${totalPages}${totalElements !== undefined ? ` · ${totalElements} ${label}` : ''}</span>
    <button type="button" disabled=${page + 1 >= totalPages} onClick=${() => onPage(page + 1)}>Next</button>
  </nav>`;
}

/**
 * Tabs as links (each tab has its URL); the current one is marked for assistive tech.
 * @param {{ tabs: { id: string, label: string, href: string }[], current: string, label: string }} props
 */
export function Tabs({ tabs, current, label }) {
  return html`<nav class="tabs" aria-label=${label}>
    ${tabs.map((t) => html`<a href=${t.href} aria-current=${t.id === current ? 'page' : undefined} class=${t.id === current ? 'tab active' : 'tab'}>${t.label}</a>`)}
  </nav>`;
}

/** @param {string} title */
export function useTitle(title) {
  useEffect(() => {
    document.title = title ? `${title} · Stacklens` : 'Stacklens console';
  }, [title]);
}
