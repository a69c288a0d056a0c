// @ts-check
// What a list is used for: enrichment of its matched companies (POST /api/companies/enrich with
// listId, downloaded as CSV or JSON Lines like the search screen's export) and lookalikes of a
// seed set (a list or domains, another list left out), each result with the reasons it was
// chosen. Plan refusals (403, 409, 429) are shown as sentences saying what the plan allows.
import { useEffect, useState } from 'preact/hooks';
import { html, href, navigate, useAsync, useTitle, Loading, ErrorBox, Pager } from './ui.js';
import { get, post, request } from './api.js';

/**
 * @typedef {import('./contract.js').Schemas['AccountList']} AccountList
 * @typedef {import('./contract.js').Schemas['EnrichRequestInput']} EnrichBody
 * @typedef {NonNullable<EnrichBody['columns']>[number]} EnrichColumn
 * @typedef {import('./contract.js').Schemas['LookalikesRequestInput']} LookalikesBody
 * @typedef {import('./contract.js').Schemas['Lookalikes']['content'][number]} Lookalike
 * @typedef {import('./ui.js').Problem} Problem
 * @typedef {import('./ui.js').Route} Route
 */

/** The optional columns of an enrichment, as the API names them, with a label each. */
const COLUMNS = /** @type {[EnrichColumn, string][]} */ ([
  ['city', 'City'],
  ['state', 'State'],
  ['postalCode', 'Postal code'],
  ['street', 'Street'],
  ['website', 'Website'],
  ['description', 'Description'],
  ['foundedYear', 'Founded'],
  ['employeeCount', 'Employee count'],
  ['revenueUsd', 'Revenue (USD)'],
  ['lastVerified', 'Last verified'],
  ['vendors', 'Vendors'],
  ['linkedinUrl', 'LinkedIn'],
]);

/**
 * A refusal as a sentence: what kind of limit it is (the headline), then the API's own message
 * (which names the plan, the permission or the numbers).
 * @param {Problem & { status?: number }} err
 * @returns {Problem}
 */
function planProblem(err) {
  const title = /** @type {Record<number, string>} */ ({
    403: 'Not allowed for this account.',
    409: "More rows than the plan's daily allowance.",
    413: 'Too large for the plan.',
    429: "Today's allowance is used up.",
  })[err.status ?? 0];
  return title ? { title, message: err.message } : err;
}

const slug = (/** @type {string} */ s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-|-$/gu, '') || 'list';

/** @param {Blob} blob @param {string} name */
function saveAs(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/**
 * The list's matched companies enriched, downloaded as a file.
 * @param {{ list: AccountList, user: import('./contract.js').User }} props
 */
export function Enrich({ list, user }) {
  const [columns, setColumns] = useState(/** @type {EnrichColumn[]} */ ([]));
  const [format, setFormat] = useState(/** @type {'csv' | 'jsonl'} */ ('csv'));
  const [state, setState] = useState(/** @type {{ busy: boolean, error: Problem | null, done: string | null }} */ ({ busy: false, error: null, done: null }));
  if (user.role === 'viewer') {
    return html`<p class="notice">Enrichment is an export: a person with the analyst or admin role runs it. An admin can change your role.</p>`;
  }
  const run = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setState({ busy: true, error: null, done: null });
    try {
      /** @type {EnrichBody} */
      const body = { listId: list.id, columns, format };
      /** @type {Response} */
      const res = await request('POST', '/api/companies/enrich', { body, headers: { accept: format === 'csv' ? 'text/csv' : 'application/jsonl' }, raw: true });
      const blob = await res.blob();
      const name = `${slug(list.name)}-enriched.${format}`;
      saveAs(blob, name);
      const lines = (await blob.text()).split('\n').filter((l) => l.trim() !== '').length;
      const rows = format === 'csv' ? Math.max(0, lines - 1) : lines;
      setState({ busy: false, error: null, done: `${name} downloaded: ${format === 'csv' ? `about ${rows}` : rows} companies.` });
    } catch (err) {
      setState({ busy: false, error: planProblem(/** @type {Problem} */ (err)), done: null });
    }
  };
  return html`<form onSubmit=${run} aria-labelledby="enrich-title">
    <h2 id="enrich-title">Enrich the matched companies</h2>
    <p class="hint">
      One row per matched company of version ${list.version} (${list.matched} companies): firmographics and the technologies in use with their confidence and
      evidence. It is an export: it counts against the plan's rows enriched per day and is recorded in the audit log under your name.
    </p>
    <fieldset class="checks enrich-columns">
      <legend>Columns to add</legend>
      ${COLUMNS.map(
        ([c, label]) =>
          html`<label class="check"
            ><input
              type="checkbox"
              name="columns"
              value=${c}
              checked=${columns.includes(c)}
              onChange=${(/** @type {import('./ui.js').FieldEvent} */ e) => setColumns(e.currentTarget.checked ? [...columns, c] : columns.filter((x) => x !== c))}
            />${label}</label
          >`,
      )}
    </fieldset>
    <fieldset class="checks">
      <legend>Format</legend>
      ${[
        ['csv', 'CSV (a spreadsheet)'],
        ['jsonl', 'JSON Lines (the full stack per company)'],
      ].map(
        ([f, label]) =>
          html`<label class="check"
            ><input
              type="radio"
              name="format"
              value=${f}
              checked=${format === f}
              onChange=${() => setFormat(/** @type {'csv' | 'jsonl'} */ (f))}
            />${label}</label
          >`,
      )}
    </fieldset>
    <div class="actions">
      <button type="submit" class="primary" disabled=${state.busy || list.matched === 0}>${state.busy ? 'Enriching…' : 'Enrich and download'}</button>
      ${list.matched === 0 && html`<span class="sub">No matched company to enrich yet.</span>`}
    </div>
    <p role="status" class="done">${state.done}</p>
    <${ErrorBox} error=${state.error} />
  </form>`;
}

/** The lookalike search of a URL: the seeds (a list or domains), what to leave out, paging. */
function formOf(/** @type {URLSearchParams} */ q) {
  return {
    seedList: q.get('seedList') ?? '',
    domains: q.get('domains') ?? '',
    exclude: q.get('exclude') ?? '',
    min: Math.max(1, Number(q.get('min')) || 2),
    page: Math.max(0, Number(q.get('page')) || 0),
  };
}
/** @typedef {ReturnType<typeof formOf>} LookalikeForm */

const domainsOf = (/** @type {string} */ text) =>
  text
    .split(/[\s,;]+/u)
    .map((d) => d.trim())
    .filter(Boolean);

const SIZE = 20;
const MATCH_LABELS = /** @type {Record<string, string>} */ ({ industry: 'industry', employeeRange: 'employees', revenueRange: 'revenue', region: 'region' });

/** @param {{ item: Lookalike, rank: number }} props */
function LookalikeItem({ item, rank }) {
  const titleId = `lookalike-${rank}`;
  return html`<li class="lookalike card" aria-labelledby=${titleId}>
    <div class="results-head">
      <h3 id=${titleId}>
        <span class="rank">${rank}.</span> <a href=${href(['companies', item.domain])}>${item.name ?? item.domain}</a>
        <span class="sub"> ${item.domain}</span>
      </h3>
      <span class="score" title="Similarity to the seed set, 0-1">score ${item.score.toFixed(2)}</span>
    </div>
    <p class="sub">
      ${[item.industry, item.employeeRange && `${item.employeeRange} employees`, item.revenueRange, item.country].filter(Boolean).join(' · ') || '—'}
    </p>
    <div class="why">
      <h4>Why it is alike</h4>
      <ul class="explanation">
        ${item.sharedSignals.map((s) => html`<li class="signal">uses ${s.product}: ${s.seeds} of ${s.of} seeds</li>`)}
        ${item.matches.map((m) => html`<li class="match">${MATCH_LABELS[m.field] ?? m.field} ${m.value ?? 'unknown'}: ${m.seeds} of ${m.of} seeds</li>`)}
        ${item.sharedSignals.length === 0 && item.matches.length === 0 && html`<li>No signal shared by enough seeds.</li>`}
      </ul>
      ${
        item.topFeatures.length > 0 &&
        html`<p class="features">Top features: ${item.topFeatures.map((f, i) => html`${i > 0 ? '; ' : ''}${f.feature} (${Math.round(f.share * 100)} %)`)}</p>`
      }
    </div>
  </li>`;
}

/** #/lookalikes?seedList=&domains=&exclude=&min=&page=: the form and the ranking. */
function Lookalikes(/** @type {{ route: Route }} */ { route }) {
  useTitle('Lookalikes');
  const s = formOf(route.query);
  const [draft, setDraft] = useState(s);
  const [source, setSource] = useState(s.domains && !s.seedList ? 'domains' : 'list');
  const key = JSON.stringify(s);
  // A link here (a list's "Find lookalikes") or the back button brings its own seeds.
  useEffect(() => {
    setDraft(s);
    setSource(s.domains && !s.seedList ? 'domains' : 'list');
  }, [key]);
  const lists = useAsync(() => get('/lists', { query: { size: 200 } }), []);
  const asked = Boolean(s.seedList || s.domains);
  const results = useAsync(() => {
    if (!asked) return null;
    /** @type {LookalikesBody} */
    const body = {
      ...(s.seedList ? { seedListId: s.seedList } : { seedDomains: domainsOf(s.domains) }),
      ...(s.exclude ? { excludeListId: s.exclude } : {}),
      minSeedSupport: s.min,
      page: s.page,
      size: SIZE,
    };
    return post('/companies/lookalikes', { body });
  }, [key]);
  const urlOf = (/** @type {LookalikeForm} */ f) =>
    href(['lookalikes'], { seedList: f.seedList, domains: f.domains, exclude: f.exclude, min: f.min === 2 ? '' : f.min, page: f.page || '' });
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    navigate(urlOf({ ...draft, ...(source === 'list' ? { domains: '' } : { seedList: '' }), page: 0 }));
  };
  const set = (/** @type {keyof LookalikeForm} */ k) => (/** @type {import('./ui.js').FieldEvent | import('./ui.js').SelectEvent} */ e) =>
    setDraft((d) => ({ ...d, [k]: k === 'min' ? Number(e.currentTarget.value) : e.currentTarget.value }));
  const options = lists.data?.content ?? [];
  const r = results.data;
  return html`<div class="lookalikes-layout">
    <form class="card filters" onSubmit=${submit} aria-labelledby="lookalikes-title">
      <h1 id="lookalikes-title">Find lookalikes</h1>
      <p class="hint">Companies ranked by how much they look like the seeds (customers that bought, say), each with the reasons.</p>
      <fieldset class="checks">
        <legend>Seeds</legend>
        <label class="check"
          ><input type="radio" name="source" value="list" checked=${source === 'list'} onChange=${() => setSource('list')} />One of your lists</label
        >
        <label class="check"
          ><input type="radio" name="source" value="domains" checked=${source === 'domains'} onChange=${() => setSource('domains')} />Company domains</label
        >
      </fieldset>
      ${
        source === 'list'
          ? html`<div class="field">
              <label for="lk-seed">Seed list</label>
              <select id="lk-seed" value=${draft.seedList} onChange=${set('seedList')} required>
                <option value="">— choose a list —</option>
                ${options.map((l) => html`<option value=${l.id}>${l.name} (${l.matched} matched)</option>`)}
              </select>
            </div>`
          : html`<div class="field">
              <label for="lk-domains">Seed domains</label>
              <textarea id="lk-domains" rows="4" value=${draft.domains} onInput=${set('domains')} placeholder="acme.com, globex.com, …" required></textarea>
              <span class="sub">At least 2, separated by commas, spaces or lines.</span>
            </div>`
      }
      <div class="field">
        <label for="lk-exclude">Leave out the companies of</label>
        <select id="lk-exclude" value=${draft.exclude} onChange=${set('exclude')}>
          <option value="">— no list —</option>
          ${options.map((l) => html`<option value=${l.id}>${l.name}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="lk-min">Seeds that must share a signal</label>
        <input id="lk-min" type="number" min="1" max="1000" value=${draft.min} onInput=${set('min')} />
      </div>
      <${ErrorBox} error=${lists.error} />
      <div class="actions"><button type="submit" class="primary">Find lookalikes</button></div>
    </form>
    <section class="results" aria-labelledby="lookalike-results" aria-busy=${results.loading}>
      <h2 id="lookalike-results">Lookalikes${r ? html` <span class="count">${r.totalElements}</span>` : ''}</h2>
      <${ErrorBox} error=${results.error} onRetry=${results.reload} />
      ${
        !asked
          ? html`<p class="empty">Choose the seeds and press Find lookalikes.</p>`
          : results.loading && !r
            ? html`<${Loading} rows=${6} label="Ranking companies…" />`
            : r &&
              html`<p class="seeds-summary">
                  ${r.seeds.count} seeds; ${r.excluded} companies left out${r.excludedUnknown ? `, ${r.excludedUnknown} excluded domains not on record` : ''}.
                  ${r.seeds.signals.length > 0 && html`Shared by at least ${r.seeds.minSeedSupport} seeds: ${r.seeds.signals.map((x) => `${x.product} (${x.seeds} of ${x.of})`).join(', ')}.`}
                </p>
                <ol class="lookalike-list">
                  ${r.content.map((item, i) => html`<${LookalikeItem} key=${item.domain} item=${item} rank=${s.page * SIZE + i + 1} />`)}
                </ol>
                ${r.content.length === 0 && html`<p class="empty">No company to rank: every candidate was left out or filtered.</p>`}
                <${Pager}
                  page=${s.page}
                  totalPages=${r.totalPages}
                  totalElements=${r.totalElements}
                  label="lookalikes"
                  onPage=${(/** @type {number} */ p) => navigate(urlOf({ ...s, page: p }))}
                />`
      }
    </section>
  </div>`;
}

export const views = { lookalikes: Lookalikes };
