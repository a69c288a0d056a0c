// @ts-check
// Company search: every filter of POST /api/companies/search, kept in the URL (shareable,
// back button), a results table with paging and sorting (server-side: the order holds across
// pages and in the export), and the CSV export.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Table, Pager, Tabs, useTitle } from './ui.js';
import { get, post, request } from './api.js';
import { EMPLOYEE_BANDS, REVENUE_BANDS } from './choices.js';

/**
 * @typedef {import('./contract.js').Schemas['CompanySearchRequestInput']} SearchBody
 * @typedef {NonNullable<SearchBody['filter']>} Filter
 * @typedef {import('./contract.js').Schemas['CompanySummary']} Company
 * @typedef {import('./ui.js').FieldEvent} FieldEvent
 * @typedef {import('./ui.js').SelectEvent} SelectEvent
 * @typedef {{ query: string, name: string, use: string[], useAll: boolean, not: string[],
 *   intensity: NonNullable<Filter['intensityBucketIn']>, recency: NonNullable<Filter['dateLastVerifiedBucketIn']>,
 *   industry: string[], employees: NonNullable<Filter['employeeRangeIn']>, revenue: NonNullable<Filter['revenueRangeIn']>,
 *   country: string, page: number, size: number, sort: NonNullable<SearchBody['sort']> | '',
 *   view: 'list' | 'market', by: string, by2: string }} SearchState  view: the results as a list or counted (market size, by up to two dimensions)
 */

/** @type {[NonNullable<Filter['intensityBucketIn']>[number], string][]} */
const INTENSITY = [
  ['LOW', 'Low (0-33)'],
  ['MEDIUM', 'Medium (34-66)'],
  ['HIGH', 'High (67-100)'],
];
/** @type {[NonNullable<Filter['dateLastVerifiedBucketIn']>[number], string][]} */
const RECENCY = [
  ['RECENT', 'Within 90 days'],
  ['NEW', '90-365 days ago'],
  ['OLD', '1-2 years ago'],
  ['ANCIENT', 'Over 2 years ago'],
];

/**
 * A technology token: "p:<productId>:<label>" or "v:<vendorDomain>:<label>".
 * @param {string} t
 */
export function parseTech(t) {
  const [kind, id, ...rest] = t.split(':');
  return { kind, id, label: rest.join(':') || id };
}

/**
 * The search state from the URL query. Its values go to the API as they are: a wrong one is
 * refused with a message the screen shows.
 * @param {URLSearchParams} q
 * @returns {SearchState}
 */
function stateOf(q) {
  return /** @type {SearchState} */ ({
    query: q.get('q') ?? '',
    name: q.get('name') ?? '',
    use: q.getAll('use'),
    useAll: q.get('useAll') === '1',
    not: q.getAll('not'),
    intensity: q.getAll('intensity'),
    recency: q.getAll('recency'),
    industry: q.getAll('industry'),
    employees: q.getAll('employees'),
    revenue: q.getAll('revenue'),
    country: q.get('country') ?? '',
    page: Number(q.get('page') ?? 0) || 0,
    size: Number(q.get('size') ?? 20) || 20,
    sort: q.get('sort') ?? '',
    view: q.get('view') === 'market' ? 'market' : 'list',
    by: q.get('by') ?? 'country',
    by2: q.get('by2') ?? '',
  });
}
/** @param {SearchState} s */
function urlOf(s) {
  const q = new URLSearchParams();
  if (s.query) q.set('q', s.query);
  if (s.name) q.set('name', s.name);
  s.use.forEach((t) => q.append('use', t));
  if (s.useAll) q.set('useAll', '1');
  s.not.forEach((t) => q.append('not', t));
  for (const k of /** @type {const} */ (['intensity', 'recency', 'industry', 'employees', 'revenue'])) s[k].forEach((v) => q.append(k, v));
  if (s.country) q.set('country', s.country);
  if (s.page) q.set('page', String(s.page));
  if (s.size !== 20) q.set('size', String(s.size));
  if (s.view === 'market') {
    q.set('view', 'market');
    if (s.by !== 'country') q.set('by', s.by);
    if (s.by2) q.set('by2', s.by2);
  }
  if (s.sort) q.set('sort', s.sort);
  const str = q.toString();
  return `#/search${str ? `?${str}` : ''}`;
}

/**
 * The API request body for a search state.
 * @param {SearchState} s
 */
export function bodyOf(s) {
  /** @type {Filter} */
  const filter = {};
  const ids = (/** @type {string[]} */ list, /** @type {string} */ kind) =>
    list
      .map(parseTech)
      .filter((t) => t.kind === kind)
      .map((t) => t.id);
  /** @type {<K extends keyof Filter>(key: K, v: NonNullable<Filter[K]> & unknown[]) => unknown} */
  const put = (key, v) => v.length && (filter[key] = v);
  put('productIdIn', ids(s.use, 'p'));
  put('vendorDomainIn', ids(s.use, 'v'));
  if (s.useAll) {
    if (filter.productIdIn) filter.productIdInAnd = true;
    if (filter.vendorDomainIn) filter.vendorDomainInAnd = true;
  }
  put('productIdNotIn', ids(s.not, 'p'));
  put('vendorDomainNotIn', ids(s.not, 'v'));
  put('intensityBucketIn', s.intensity);
  put('dateLastVerifiedBucketIn', s.recency);
  put('industryIn', s.industry);
  put('employeeRangeIn', s.employees);
  put('revenueRangeIn', s.revenue);
  put(
    'countryIn',
    s.country
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
  );
  if (s.name) filter.companyNameContains = s.name;
  /** @type {SearchBody} */
  const body = { page: s.page, size: s.size, filter };
  if (s.query) body.query = s.query;
  if (s.sort) body.sort = s.sort;
  return body;
}

/**
 * The search of a state without paging and sort: what market sizing counts.
 * @param {SearchState} s
 */
function searchOf(s) {
  const { page: _page, size: _size, sort: _sort, ...search } = bodyOf(s);
  return search;
}

/**
 * The Market size view, its module loaded when first shown (the first load stays small).
 * @param {Parameters<import('./market.js').MarketSize>[0]} props
 */
function MarketView(props) {
  const mod = useAsync(() => import('./market.js'), []);
  if (mod.error) return html`<${ErrorBox} error=${mod.error} />`;
  if (!mod.data) return html`<${Loading} rows=${6} label="Counting…" />`;
  const { MarketSize } = mod.data;
  return html`<${MarketSize} ...${props} />`;
}

/** @typedef {{ token: string, label: string }} Suggestion */
/**
 * Suggestions for a typed technology: products named like it (any vendor), then matching vendors.
 * @param {string} text
 * @returns {Promise<Suggestion[]>}
 */
async function suggest(text) {
  const [products, vendors] = await Promise.all([
    get('/products', { query: { productName: text, size: 10 } }),
    get('/vendors', { query: { vendor: text, fuzzy: true, size: 3 } }),
  ]);
  return [
    ...products.content.map((p) => ({ token: `p:${p.id}:${p.name}`, label: `${p.name} (${p.category})` })),
    ...vendors.content.map((v) => ({ token: `v:${v.domain}:${v.name}`, label: `${v.name} (any product of ${v.domain})` })),
  ];
}

/** @param {{ id: string, label: string, tokens: string[], onChange: (tokens: string[]) => void }} props */
export function TechPicker({ id, label, tokens, onChange }) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState(/** @type {Suggestion[]} */ ([]));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {import('./ui.js').Problem | null} */ (null));
  const timer = useRef(0);
  const latest = useRef(/** @type {Promise<Suggestion[]>} */ (Promise.resolve([])));
  const onInput = (/** @type {FieldEvent} */ e) => {
    const v = e.currentTarget.value;
    setText(v);
    clearTimeout(timer.current);
    if (v.trim().length < 2) return setOptions([]);
    timer.current = setTimeout(() => {
      setBusy(true);
      latest.current = suggest(v.trim()).then(
        (o) => (setOptions(o), setError(null), setBusy(false), o),
        (err) => (setError(err), setBusy(false), []),
      );
    }, 200);
  };
  const add = async () => {
    const t = text.trim();
    if (!t) return;
    clearTimeout(timer.current);
    let opts = options;
    if (!opts.some((o) => o.label === t)) opts = await suggest(t).catch(() => []);
    const chosen = opts.find((o) => o.label === t) ?? opts.find((o) => o.token.startsWith('p:')) ?? opts[0];
    if (!chosen) return setError({ message: `No vendor or product matches "${t}"` });
    if (!tokens.includes(chosen.token)) onChange([...tokens, chosen.token]);
    setText('');
    setOptions([]);
    setError(null);
  };
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <div class="picker">
      <input
        id=${id}
        list=${`${id}-list`}
        value=${text}
        onInput=${onInput}
        placeholder="Type a product or vendor"
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === 'Enter' && (e.preventDefault(), add())}
        autocomplete="off"
        aria-describedby=${`${id}-hint`}
      />
      <button type="button" onClick=${add}>Add</button>
    </div>
    <datalist id=${`${id}-list`}>${options.map((o) => html`<option value=${o.label}></option>`)}</datalist>
    <small id=${`${id}-hint`} class="hint">${busy ? 'Looking up…' : error ? error.message : 'Enter adds the best match'}</small>
    <ul class="chips" aria-label=${`${label}: chosen`}>
      ${tokens.map((t) => {
        const p = parseTech(t);
        return html`<li class="chip">
          ${p.label}<button type="button" aria-label=${`Remove ${p.label}`} onClick=${() => onChange(tokens.filter((x) => x !== t))}>×</button>
        </li>`;
      })}
    </ul>
  </div>`;
}

/**
 * @template {string} T
 * @param {{ legend: string, name: string, values: T[], options: [T, string?][], onChange: (values: T[]) => void }} props
 */
function Checks({ legend, name, values, options, onChange }) {
  return html`<fieldset class="checks">
    <legend>${legend}</legend>
    ${options.map(
      ([v, l]) =>
        html`<label class="check"
          ><input
            type="checkbox"
            name=${name}
            value=${v}
            checked=${values.includes(v)}
            onChange=${(/** @type {FieldEvent} */ e) => onChange(e.currentTarget.checked ? [...values, v] : values.filter((x) => x !== v))}
          />${l ?? v}</label
        >`,
    )}
  </fieldset>`;
}

/** @param {SearchState} s */
async function exportCsv(s) {
  const body = bodyOf({ ...s, page: 0 });
  delete body.page;
  delete body.size;
  /** @type {Response} */
  const res = await request('POST', '/api/companies/search', { params: { export: true }, body, headers: { accept: 'text/csv' }, raw: true });
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'companies.csv';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** @param {{ route: import('./ui.js').Route, user: import('./contract.js').User }} props */
function Search({ route, user }) {
  useTitle('Company search');
  const s = stateOf(route.query);
  const [draft, setDraft] = useState(s);
  const key = urlOf(s);
  useEffect(() => setDraft(stateOf(route.query)), [key]);
  const industries = useAsync(() => get('/industries'), []);
  // On a phone the filters start folded (unless some are set), so the results are in view.
  const [filtersOpen] = useState(() => !matchMedia('(max-width: 900px)').matches || route.query.toString() !== '');
  // Each answer carries the URL it answers: until the one for this URL is in, the rows shown
  // are the previous query's and the section says it is busy.
  // The search behind both views: its key leaves out how the results are viewed.
  const searchKey = urlOf({ ...s, view: 'list' });
  const results = useAsync(() => post('/companies/search', { body: bodyOf(s) }).then((data) => ({ key: searchKey, data })), [searchKey]);
  const [exporting, setExporting] = useState(/** @type {{ busy: boolean, error: import('./ui.js').Problem | null }} */ ({ busy: false, error: null }));
  /** @type {<K extends keyof SearchState>(k: K) => (v: SearchState[K]) => void} */
  const set = (k) => (v) => setDraft((d) => ({ ...d, [k]: v }));
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    navigate(urlOf({ ...draft, page: 0 }));
  };
  const doExport = async () => {
    setExporting({ busy: true, error: null });
    try {
      await exportCsv(s);
      setExporting({ busy: false, error: null });
    } catch (err) {
      setExporting({ busy: false, error: /** @type {import('./ui.js').Problem} */ (err) });
    }
  };
  const page = results.data?.data;
  const busy = results.loading || (results.data !== undefined && results.data.key !== searchKey);
  // Column keys are the API's sort values: the server orders every page (and the export).
  /** @type {import('./ui.js').Column<Company>[]} */
  const columns = [
    {
      key: 'name',
      label: 'Company',
      render: (c) =>
        html`<a href=${href(['companies', c.domain])}>${c.name ?? c.domain}</a>
          <div class="sub">${c.domain}</div>`,
    },
    { key: 'industry', label: 'Industry', sortable: false },
    { key: 'employees', label: 'Employees', render: (c) => c.employeeRange ?? '—' },
    { key: 'revenue', label: 'Revenue', render: (c) => c.revenueRange ?? '—' },
    { key: 'country', label: 'Location', render: (c) => [c.city, c.country].filter(Boolean).join(', ') || '—' },
  ];
  const sortKey = s.sort.replace(/^-/, '') || 'name';
  const sorted = { key: sortKey, dir: s.sort.startsWith('-') ? -1 : 1 };
  const onSort = (/** @type {string} */ key) => {
    const next = key === sortKey && !s.sort.startsWith('-') ? `-${key}` : key;
    navigate(urlOf({ ...s, page: 0, sort: next === 'name' ? '' : /** @type {SearchState['sort']} */ (next) }));
  };
  return html`<div class="search-layout">
    <form class="card filters" onSubmit=${submit} aria-labelledby="filters-title">
      <h1 id="filters-title">Find companies</h1>
      <details class="filter-fields" open=${filtersOpen}>
        <summary>Filters</summary>
        <div class="field">
          <label for="f-q">Keywords</label
          ><input
            id="f-q"
            type="search"
            value=${draft.query}
            onInput=${(/** @type {FieldEvent} */ e) => set('query')(e.currentTarget.value)}
            placeholder="Name, domain or industry words"
          />
        </div>
        <${TechPicker} id="f-use" label="Uses technologies" tokens=${draft.use} onChange=${set('use')} />
        <label class="check"
          ><input type="checkbox" checked=${draft.useAll} onChange=${(/** @type {FieldEvent} */ e) => set('useAll')(e.currentTarget.checked)} />Must use all of
          them</label
        >
        <${TechPicker} id="f-not" label="Does not use" tokens=${draft.not} onChange=${set('not')} />
        <${Checks} legend="Usage intensity" name="intensity" values=${draft.intensity} options=${INTENSITY} onChange=${set('intensity')} />
        <${Checks} legend="Last seen" name="recency" values=${draft.recency} options=${RECENCY} onChange=${set('recency')} />
        <div class="field">
          <label for="f-industry">Industry</label>
          <select
            id="f-industry"
            multiple
            size="4"
            onChange=${(/** @type {SelectEvent} */ e) => set('industry')([...e.currentTarget.selectedOptions].map((o) => o.value))}
          >
            ${(industries.data ?? []).map((i) => html`<option value=${i.id} selected=${draft.industry.includes(i.id)}>${i.name}</option>`)}
          </select>
        </div>
        <details open=${draft.employees.length > 0 || draft.revenue.length > 0}>
          <summary>Size and revenue</summary>
          <${Checks} legend="Employees" name="employees" values=${draft.employees} options=${EMPLOYEE_BANDS.map((b) => [b])} onChange=${set('employees')} />
          <${Checks} legend="Revenue" name="revenue" values=${draft.revenue} options=${REVENUE_BANDS.map((b) => [b])} onChange=${set('revenue')} />
        </details>
        <div class="field">
          <label for="f-country">Countries</label
          ><input
            id="f-country"
            value=${draft.country}
            onInput=${(/** @type {FieldEvent} */ e) => set('country')(e.currentTarget.value)}
            placeholder="e.g. DE, US, France"
          />
        </div>
        <div class="field">
          <label for="f-name">Name contains</label
          ><input id="f-name" value=${draft.name} onInput=${(/** @type {FieldEvent} */ e) => set('name')(e.currentTarget.value)} />
        </div>
      </details>
      <div class="actions">
        <button type="submit" class="primary">Search</button>
        <a class="button" href="#/search">Clear</a>
      </div>
    </form>
    <section class="results" aria-labelledby="results-title" aria-busy=${busy}>
      <div class="results-head">
        <h2 id="results-title">Companies${page ? html` <span class="count">${page.totalElements}</span>` : ''}</h2>
        <div class="actions">
          <label class="inline"
            >Per page
            <select
              value=${String(s.size)}
              onChange=${(/** @type {SelectEvent} */ e) => navigate(urlOf({ ...s, page: 0, size: Number(e.currentTarget.value) }))}
            >
              ${[20, 50, 100, 200].map((n) => html`<option value=${n}>${n}</option>`)}
            </select></label
          >
          ${user.role !== 'viewer' && html`<button type="button" onClick=${doExport} disabled=${exporting.busy}>${exporting.busy ? 'Exporting…' : 'Export CSV'}</button>`}
        </div>
      </div>
      <${Tabs}
        tabs=${[
          { id: 'list', label: 'List', href: urlOf({ ...s, view: 'list' }) },
          { id: 'market', label: 'Market size', href: urlOf({ ...s, view: 'market', page: 0 }) },
        ]}
        current=${s.view}
        label="Results as"
      />
      ${
        s.view === 'market'
          ? html`<${MarketView}
              search=${searchOf(s)}
              by=${s.by}
              by2=${s.by2 === s.by ? '' : s.by2}
              onDimensions=${(/** @type {string} */ by, /** @type {string} */ by2) => navigate(urlOf({ ...s, by, by2: by2 === by ? '' : by2 }), { replace: true })}
            />`
          : html` <${ErrorBox} error=${exporting.error} />
              <${ErrorBox} error=${results.error} onRetry=${results.reload} />
              ${
                results.loading && !page
                  ? html`<${Loading} rows=${8} label="Searching…" />`
                  : page &&
                    html` <${Table}
                        columns=${columns}
                        rows=${page.content}
                        rowKey=${(/** @type {Company} */ c) => c.domain}
                        caption="Sort by a column header (all results, and the export)"
                        sort=${sorted}
                        onSort=${onSort}
                        empty="No company matches these filters. Remove a filter to widen the search."
                      />
                      <${Pager}
                        page=${s.page}
                        totalPages=${page.totalPages}
                        totalElements=${page.totalElements}
                        label="companies"
                        onPage=${(/** @type {number} */ p) => navigate(urlOf({ ...s, page: p }))}
                      />`
              }`
      }
    </section>
  </div>`;
}

export const views = { search: Search };
