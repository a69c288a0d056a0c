// @ts-check
// Account lists: the client's lists and an upload (a CSV or JSON Lines file, read in the
// browser and sent as `content`); one list's match (rate and miss reasons), its rows by status,
// the review queue (accept, reject, pick another company), its versions with their diff, and
// enrichment (lists-use.js). Every view has its URL: #/lists, #/lists/{id}/{tab}.
import { useState } from 'preact/hooks';
import { html, href, navigate, useAsync, useTitle, Loading, ErrorBox, Empty, Table, Pager, Tabs, fmtDateTime } from './ui.js';
import { get, post, del } from './api.js';
import { Enrich } from './lists-use.js';

/**
 * @typedef {import('./contract.js').Schemas['AccountList']} AccountList
 * @typedef {import('./contract.js').Schemas['AccountListRow']} ListRow
 * @typedef {import('./contract.js').Schemas['AccountListDiff']['rows']['content'][number]} DiffRow
 * @typedef {import('./ui.js').Route} Route
 * @typedef {import('./ui.js').Problem} Problem
 */

/** What each miss reason means, in the words of the lists page of the docs. */
const REASONS = /** @type {Record<string, string>} */ ({
  no_domain_or_name: 'No domain or name',
  domain_unknown: 'Domain not on record',
  name_unknown: 'Name not found',
  name_unknown_in_country: 'Name not found in that country',
  ambiguous: 'Ambiguous (in review)',
  rejected: 'Rejected in review',
});
const METHODS = /** @type {Record<string, string>} */ ({
  domain: 'domain',
  domain_variant: 'domain variant',
  name: 'name + country',
  review: 'reviewed',
});
const STATUSES = /** @type {const} */ ([
  ['', 'All'],
  ['matched', 'Matched'],
  ['review', 'In review'],
  ['unmatched', 'Unmatched'],
]);
const PAGE_SIZE = 50;

const percent = (/** @type {number} */ x) => `${Math.round(x * 1000) / 10} %`;
const pageOf = (/** @type {Route} */ route) => Math.max(0, Number(route.query.get('page')) || 0);

/**
 * The file picker's file, read as text, with its format from its name (.csv, else JSON Lines).
 * @param {File} file
 */
async function contentOf(file) {
  const format = /\.(jsonl|ndjson|json)$/iu.test(file.name) ? 'jsonl' : 'csv';
  return { format: /** @type {'csv' | 'jsonl'} */ (format), content: await file.text() };
}

/**
 * A file picker and a name: a new list, or (with `listId`) the list's next version.
 * @param {{ listId?: string, onDone: (list: AccountList) => void }} props
 */
export function Upload({ listId, onDone }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {Problem | null} */ (null));
  const id = listId ? 'upload-version' : 'upload-list';
  const submit = async (/** @type {import('./ui.js').FormEvent} */ e) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0) {
      setError({ message: 'Choose a CSV or JSON Lines file first.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const name = String(form.get('name') ?? '').trim() || undefined;
      const body = { ...(await contentOf(file)), ...(name ? { name } : {}) };
      const list = listId
        ? await post('/lists/{listId}/versions', { path: { listId }, body })
        : await post('/lists', { body: { ...body, name: name ?? file.name.replace(/\.[^.]+$/u, '') } });
      setBusy(false);
      onDone(list);
    } catch (err) {
      setBusy(false);
      setError(/** @type {Problem} */ (err));
    }
  };
  return html`<form class="upload" onSubmit=${submit} aria-labelledby=${`${id}-title`}>
    <h2 id=${`${id}-title`}>${listId ? 'Upload a new version' : 'Upload a list'}</h2>
    <p class="hint">
      A CSV file with a header row, or JSON Lines: a column <code>domain</code> and/or <code>name</code>, and <code>country</code>; other columns are kept as
      they are.${listId ? ' The upload replaces the rows; the version before stays readable with its diff.' : ''}
    </p>
    <div class="row-form">
      <label class="inline">File <input name="file" type="file" accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson" required /></label>
      ${!listId && html`<label class="inline">Name <input name="name" maxlength="200" placeholder="the file's name" /></label>`}
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Uploading and matching…' : listId ? 'Upload version' : 'Upload'}</button>
    </div>
    <${ErrorBox} error=${error} />
  </form>`;
}

/** @param {{ list: AccountList }} props */
function MatchSummary({ list }) {
  const reasons = Object.entries(list.missReasons).sort((a, b) => b[1] - a[1]);
  return html`<div class="match-summary">
    <p class="match-rate">
      <strong>${percent(list.matchRate)}</strong> matched
      <meter min="0" max="1" value=${list.matchRate} aria-label="Match rate">${percent(list.matchRate)}</meter>
    </p>
    <dl class="counts">
      <div>
        <dt>Rows</dt>
        <dd>${list.rows}</dd>
      </div>
      <div>
        <dt>Matched</dt>
        <dd>${list.matched}</dd>
      </div>
      <div>
        <dt>In review</dt>
        <dd>${list.review}</dd>
      </div>
      <div>
        <dt>Unmatched</dt>
        <dd>${list.unmatched}</dd>
      </div>
    </dl>
    ${
      reasons.length > 0 &&
      html`<table class="miss-reasons">
        <caption>
          Rows not matched, by reason
        </caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col" class="num">Rows</th>
          </tr>
        </thead>
        <tbody>
          ${reasons.map(
            ([r, n]) =>
              html`<tr>
                <td>${REASONS[r] ?? r}</td>
                <td class="num">${n}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
  </div>`;
}

/** #/lists: the client's lists, newest version first in each, and the upload. */
function ListIndex(/** @type {{ route: Route }} */ { route }) {
  useTitle('Lists');
  const page = pageOf(route);
  const lists = useAsync(() => get('/lists', { query: { page, size: PAGE_SIZE } }), [page]);
  /** @type {import('./ui.js').Column<AccountList>[]} */
  const columns = [
    {
      key: 'name',
      label: 'List',
      render: (l) =>
        html`<a href=${href(['lists', l.id])}>${l.name}</a>
          <div class="sub">${l.id}</div>`,
    },
    { key: 'version', label: 'Version', numeric: true },
    { key: 'rows', label: 'Rows', numeric: true },
    { key: 'matchRate', label: 'Matched', numeric: true, render: (l) => percent(l.matchRate) },
    { key: 'review', label: 'In review', numeric: true, render: (l) => (l.review > 0 ? html`<a href=${href(['lists', l.id, 'review'])}>${l.review}</a>` : 0) },
    { key: 'updatedAt', label: 'Updated', render: (l) => fmtDateTime(l.updatedAt) },
  ];
  return html`<h1>Account lists</h1>
    <section class="card">
      <${Upload} onDone=${(/** @type {AccountList} */ l) => navigate(href(['lists', l.id]))} />
    </section>
    <section class="card" aria-labelledby="lists-title">
      <h2 id="lists-title">Your lists${lists.data ? html` <span class="count">${lists.data.totalElements}</span>` : ''}</h2>
      <${ErrorBox} error=${lists.error} onRetry=${lists.reload} />
      ${
        lists.loading && !lists.data
          ? html`<${Loading} rows=${4} />`
          : lists.data &&
            html`<${Table}
                columns=${columns}
                rows=${lists.data.content}
                rowKey=${(/** @type {AccountList} */ l) => l.id}
                empty="No list yet: upload one above."
              />
              <${Pager}
                page=${page}
                totalPages=${lists.data.totalPages}
                totalElements=${lists.data.totalElements}
                label="lists"
                onPage=${(/** @type {number} */ p) => navigate(href(['lists'], { page: p }))}
              />`
      }
    </section>`;
}

/** The row as uploaded: domain, name, country. */
const uploaded = (/** @type {ListRow} */ r) =>
  html`${r.domain ?? r.name ?? '—'}${r.domain && r.name ? html`<div class="sub">${r.name}</div>` : ''}${r.country ? html`<div class="sub">${r.country}</div>` : ''}`;
const company = (/** @type {string | null} */ d) => (d ? html`<a href=${href(['companies', d])}>${d}</a>` : '—');
/** @param {ListRow} r */
const matchText = (r) =>
  r.status === 'matched'
    ? html`${company(r.companyDomain)}
        <div class="sub">by ${METHODS[r.method ?? ''] ?? r.method}${r.score !== null ? ` (${r.score.toFixed(2)})` : ''}</div>`
    : r.status === 'review'
      ? html`<span class="tag">In review</span>`
      : html`<span class="tag tag-miss">${REASONS[r.reason ?? ''] ?? r.reason ?? 'Unmatched'}</span>`;

/** #/lists/{id}/rows?status=: the rows of the current version, by status. */
function Rows(/** @type {{ list: AccountList, route: Route }} */ { list, route }) {
  const status = /** @type {'matched' | 'review' | 'unmatched' | ''} */ (route.query.get('status') ?? '');
  const page = pageOf(route);
  // Each answer carries the view it answers: until this view's is in, the section is busy.
  const view = `${list.id} ${list.updatedAt} ${status} ${page}`;
  const answer = useAsync(
    () =>
      get('/lists/{listId}/rows', { path: { listId: list.id }, query: { page, size: PAGE_SIZE, ...(status ? { status } : {}) } }).then((data) => ({
        view,
        data,
      })),
    [view],
  );
  const rows = { ...answer, data: answer.data?.data };
  const busy = answer.loading || answer.data?.view !== view;
  /** @type {import('./ui.js').Column<ListRow>[]} */
  const columns = [
    { key: 'line', label: 'Line', numeric: true },
    { key: 'key', label: 'Account', render: uploaded },
    { key: 'status', label: 'Match', render: matchText },
    {
      key: 'data',
      label: 'Other columns',
      sortable: false,
      render: (r) =>
        Object.entries(r.data)
          .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' · ') || '—',
    },
  ];
  return html`<nav class="filter-links" aria-label="Rows by status">
      ${STATUSES.map(
        ([s, label]) => html`<a href=${href(['lists', list.id, 'rows'], { status: s })} aria-current=${s === status ? 'page' : undefined}>${label}</a>`,
      )}
    </nav>
    <${ErrorBox} error=${rows.error} onRetry=${rows.reload} />
    <div class="list-rows" aria-busy=${String(busy)}>
      ${
        rows.loading && !rows.data
          ? html`<${Loading} rows=${6} />`
          : rows.data &&
            html`<${Table} columns=${columns} rows=${rows.data.content} rowKey=${(/** @type {ListRow} */ r) => r.line} empty="No row with this status." />
              <${Pager}
                page=${page}
                totalPages=${rows.data.totalPages}
                totalElements=${rows.data.totalElements}
                label="rows"
                onPage=${(/** @type {number} */ p) => navigate(href(['lists', list.id, 'rows'], { status, page: p }))}
              />`
      }
    </div>`;
}

/**
 * One row in review: its candidates, and the three decisions.
 * @param {{ list: AccountList, row: ListRow, onDecided: () => void }} props
 */
function ReviewItem({ list, row, onDecided }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {Problem | null} */ (null));
  const [domain, setDomain] = useState('');
  const decide = async (/** @type {import('./contract.js').Schemas['ListReviewDecisionInput']} */ body) => {
    setBusy(true);
    setError(null);
    try {
      await post('/lists/{listId}/review/{line}', { path: { listId: list.id, line: row.line }, body });
      onDecided();
    } catch (err) {
      setBusy(false);
      setError(/** @type {Problem} */ (err));
    }
  };
  const best = row.candidates[0];
  const titleId = `review-${row.line}`;
  return html`<li class="review-item card" aria-labelledby=${titleId}>
    <h3 id=${titleId}>Line ${row.line}: ${[row.domain, row.name, row.country].filter(Boolean).join(' · ') || row.key}</h3>
    <table>
      <caption>
        Companies this row may be, best first
      </caption>
      <thead>
        <tr>
          <th scope="col">Company</th>
          <th scope="col">Country</th>
          <th scope="col" class="num">Score</th>
          <th scope="col"><span class="visually-hidden">Decision</span></th>
        </tr>
      </thead>
      <tbody>
        ${row.candidates.map(
          (c) =>
            html`<tr>
              <td>
                ${c.name ?? c.companyDomain}
                <div class="sub">${company(c.companyDomain)}</div>
              </td>
              <td>${c.country ?? '—'}</td>
              <td class="num">${c.score.toFixed(2)}</td>
              <td>
                <button type="button" disabled=${busy} onClick=${() => decide({ action: 'pick', companyDomain: c.companyDomain })}>
                  This one<span class="visually-hidden"> (${c.companyDomain}) for line ${row.line}</span>
                </button>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    <div class="actions">
      <button type="button" class="primary" disabled=${busy || !best} onClick=${() => decide({ action: 'accept' })}>
        Accept ${best ? (best.name ?? best.companyDomain) : ''}<span class="visually-hidden"> for line ${row.line}</span>
      </button>
      <button type="button" disabled=${busy} onClick=${() => decide({ action: 'reject' })}>Reject<span class="visually-hidden"> line ${row.line}</span></button>
      <form
        class="inline-form"
        onSubmit=${(/** @type {Event} */ e) => {
          e.preventDefault();
          if (domain.trim()) decide({ action: 'pick', companyDomain: domain.trim() });
        }}
      >
        <label class="inline"
          >Another company
          <input
            value=${domain}
            placeholder="domain, e.g. acme.com"
            aria-label=${`Another company's domain for line ${row.line}`}
            onInput=${(/** @type {import('./ui.js').FieldEvent} */ e) => setDomain(e.currentTarget.value)}
        /></label>
        <button type="submit" disabled=${busy || !domain.trim()}>Pick<span class="visually-hidden"> for line ${row.line}</span></button>
      </form>
    </div>
    <${ErrorBox} error=${error} />
  </li>`;
}

/** #/lists/{id}/review: the rows in review, each decided in place; a decided row leaves. */
function Review(/** @type {{ list: AccountList, route: Route, onChange: () => void }} */ { list, route, onChange }) {
  const page = pageOf(route);
  const queue = useAsync(() => get('/lists/{listId}/review', { path: { listId: list.id }, query: { page, size: 20 } }), [list.id, page]);
  const [decided, setDecided] = useState(0);
  const q = queue.data;
  return html`<p class="hint">
      Rows whose match is ambiguous. <strong>Accept</strong> takes the best candidate, <strong>This one</strong> another candidate, <strong>Pick</strong> any
      company by its domain; <strong>Reject</strong> leaves the row unmatched.
    </p>
    <p class="visually-hidden" role="status" aria-live="polite">${decided > 0 ? `${decided} decided; ${q?.totalElements ?? 0} left in review` : ''}</p>
    <${ErrorBox} error=${queue.error} onRetry=${queue.reload} />
    ${
      queue.loading && !q
        ? html`<${Loading} rows=${3} />`
        : q &&
          (q.content.length === 0
            ? html`<${Empty}>Nothing waits for review.</${Empty}>`
            : html`<ol class="review-queue">
                  ${q.content.map(
                    (row) =>
                      html`<${ReviewItem}
                        key=${row.line}
                        list=${list}
                        row=${row}
                        onDecided=${() => {
                          setDecided((n) => n + 1);
                          queue.reload();
                          onChange();
                        }}
                      />`,
                  )}
                </ol>
                <${Pager}
                  page=${page}
                  totalPages=${q.totalPages}
                  totalElements=${q.totalElements}
                  label="rows in review"
                  onPage=${(/** @type {number} */ p) => navigate(href(['lists', list.id, 'review'], { page: p }))}
                />`)
    }`;
}

/** A side of a diff row: the match of the row in that version. */
const side = (/** @type {ListRow | null} */ r) =>
  r
    ? html`${r.status === 'matched' ? company(r.companyDomain) : (REASONS[r.reason ?? ''] ?? r.status)}${
        Object.keys(r.data).length > 0 ? html`<div class="sub">${JSON.stringify(r.data)}</div>` : ''
      }`
    : '—';

/** #/lists/{id}/versions?v=: a version's diff with the one before, and a new version's upload. */
function Versions(/** @type {{ list: AccountList, route: Route, onChange: () => void }} */ { list, route, onChange }) {
  const v = Math.min(list.version, Math.max(1, Number(route.query.get('v')) || list.version));
  const page = pageOf(route);
  const diff = useAsync(
    () => get('/lists/{listId}/versions/{version}/diff', { path: { listId: list.id, version: v }, query: { page, size: PAGE_SIZE } }),
    [list.id, list.version, v, page],
  );
  const d = diff.data;
  /** @type {import('./ui.js').Column<DiffRow>[]} */
  const columns = [
    { key: 'change', label: 'Change' },
    { key: 'key', label: 'Account' },
    { key: 'before', label: 'Before', sortable: false, render: (r) => side(r.before) },
    { key: 'after', label: 'After', sortable: false, render: (r) => side(r.after) },
  ];
  const versions = Array.from({ length: list.version }, (_, i) => list.version - i);
  return html`<div class="toolbar">
      <label class="inline"
        >Version
        <select
          value=${String(v)}
          onChange=${(/** @type {import('./ui.js').SelectEvent} */ e) => navigate(href(['lists', list.id, 'versions'], { v: e.currentTarget.value }))}
        >
          ${versions.map((n) => html`<option value=${n}>${n}${n === list.version ? ' (current)' : ''}</option>`)}
        </select></label
      >
    </div>
    <${ErrorBox} error=${diff.error} onRetry=${diff.reload} />
    ${
      diff.loading && !d
        ? html`<${Loading} rows=${4} />`
        : d &&
          html`<p class="diff-summary" aria-live="polite">
              ${d.previous === null ? `Version ${d.version}, the first upload:` : `Version ${d.version} against version ${d.previous}:`}
              <strong>${d.added}</strong> added, <strong>${d.removed}</strong> removed, <strong>${d.changed}</strong> changed.
            </p>
            <${Table} columns=${columns} rows=${d.rows.content} rowKey=${(/** @type {DiffRow} */ r) => `${r.change}:${r.key}`} empty="No row changed." />
            <${Pager}
              page=${page}
              totalPages=${d.rows.totalPages}
              totalElements=${d.rows.totalElements}
              label="changed rows"
              onPage=${(/** @type {number} */ p) => navigate(href(['lists', list.id, 'versions'], { v, page: p }))}
            />`
    }
    <section class="card">
      <${Upload}
        listId=${list.id}
        onDone=${(/** @type {AccountList} */ l) => {
          onChange();
          navigate(href(['lists', l.id, 'versions'], { v: l.version }));
        }}
      />
    </section>`;
}

/** #/lists/{id}[/{tab}]: one list, its match and the tab's view. */
function ListPage(/** @type {{ route: Route, user: import('./contract.js').User }} */ { route, user }) {
  const [, id, tab = 'rows'] = route.parts;
  const listId = /** @type {string} */ (id);
  const list = useAsync(() => get('/lists/{listId}', { path: { listId } }), [listId]);
  const [deleting, setDeleting] = useState(/** @type {{ confirm: boolean, error: Problem | null }} */ ({ confirm: false, error: null }));
  const l = list.data;
  useTitle(l ? `${l.name} · Lists` : 'List');
  if (list.error)
    return html`<${ErrorBox} error=${list.error} onRetry=${list.reload} />
      <p><a href="#/lists">All lists</a></p>`;
  if (!l) return html`<${Loading} rows=${4} />`;
  const remove = async () => {
    try {
      await del('/lists/{listId}', { path: { listId } });
      navigate('#/lists');
    } catch (err) {
      setDeleting({ confirm: false, error: /** @type {Problem} */ (err) });
    }
  };
  const tabs = [
    { id: 'rows', label: 'Rows', href: href(['lists', listId, 'rows']) },
    { id: 'review', label: `Review (${l.review})`, href: href(['lists', listId, 'review']) },
    { id: 'versions', label: `Versions (${l.version})`, href: href(['lists', listId, 'versions']) },
    { id: 'enrich', label: 'Enrich', href: href(['lists', listId, 'enrich']) },
  ];
  return html`<p class="crumbs"><a href="#/lists">Lists</a></p>
    <section class="card" aria-labelledby="list-title">
      <div class="results-head">
        <h1 id="list-title">${l.name} <span class="count">version ${l.version}</span></h1>
        <div class="actions">
          <a class="button" href=${href(['lookalikes'], { seedList: listId })}>Find lookalikes</a>
          ${
            deleting.confirm
              ? html`<span role="group" aria-label="Confirm deletion"
                  >Delete every version?
                  <button type="button" class="danger" onClick=${remove}>Yes, delete</button>
                  <button type="button" onClick=${() => setDeleting({ confirm: false, error: null })}>Keep it</button></span
                >`
              : html`<button type="button" class="danger" onClick=${() => setDeleting({ confirm: true, error: null })}>Delete list</button>`
          }
        </div>
      </div>
      <p class="sub">${l.id} · uploaded ${fmtDateTime(l.createdAt)} · updated ${fmtDateTime(l.updatedAt)}</p>
      <${ErrorBox} error=${deleting.error} />
      <${MatchSummary} list=${l} />
    </section>
    <${Tabs} tabs=${tabs} current=${tab} label="List views" />
    <section class="card" aria-label=${tabs.find((t) => t.id === tab)?.label ?? 'Rows'}>
      ${
        tab === 'review'
          ? html`<${Review} list=${l} route=${route} onChange=${list.reload} />`
          : tab === 'versions'
            ? html`<${Versions} list=${l} route=${route} onChange=${list.reload} />`
            : tab === 'enrich'
              ? html`<${Enrich} list=${l} user=${user} />`
              : html`<${Rows} list=${l} route=${route} />`
      }
    </section>`;
}

/** @param {{ route: Route, user: import('./contract.js').User }} props */
function Lists(props) {
  return props.route.parts[1] ? html`<${ListPage} ...${props} />` : html`<${ListIndex} route=${props.route} />`;
}

export const views = { lists: Lists };
