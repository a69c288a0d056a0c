// @ts-check
// The company page: firmographics and the stack by category (expand a product for its
// evidence), peers (cohorts, competitors), the benchmark charts, the news feed and people
// with masked contacts and a purchase that shows its credit cost first, and the timeline of
// its changes (./events.js).
import { useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Empty, Table, Pager, Tabs, fmtDate, useTitle } from './ui.js';
import { get, post } from './api.js';
import { Benchmark } from './benchmark.js';
import { Timeline } from './events.js';
import { COHORTS } from './choices.js';

/**
 * @typedef {import('./contract.js').Schemas['CompanyProduct']} CompanyProduct
 * @typedef {import('./contract.js').PostAnswer<'/companies/{companyDomain}/products-in-use'>[number]} InUse
 * @typedef {import('./contract.js').GetAnswer<'/companies/{companyDomain}/cohort/{cohort}'>} PeerPage
 * @typedef {PeerPage['content'][number]} Peer
 * @typedef {import('./contract.js').Schemas['Feed']} Feed
 * @typedef {import('./contract.js').PostAnswer<'/profiles/search'>['content'][number]} Profile
 * @typedef {import('./contract.js').PostAnswer<'/profiles/purchase'>} Purchased
 * @typedef {import('./ui.js').Route} Route
 * @typedef {import('./ui.js').FieldEvent} FieldEvent
 */

/** @param {{ domain: string }} props */
function Firmographics({ domain }) {
  const f = useAsync(() => get('/companies/{companyDomain}/firmographics', { path: { companyDomain: domain } }), [domain]);
  if (f.error) return html`<${ErrorBox} error=${f.error} onRetry=${f.reload} />`;
  const d = f.data;
  const row = (/** @type {string} */ k, /** @type {unknown} */ v) =>
    v &&
    html`<div>
      <dt>${k}</dt>
      <dd>${v}</dd>
    </div>`;
  return html`<section class="card firmo" aria-labelledby="firmo-title" aria-busy=${f.loading}>
    <h2 id="firmo-title">Firmographics</h2>
    ${
      !d
        ? html`<${Loading} rows=${4} />`
        : html` ${d.description && html`<p class="desc">${d.description}</p>`}
            <dl class="facts">
              ${row('Industry', (d.industries ?? []).join(', ') || d.industry)} ${row('Employees', d.employeeRange ?? d.employee_count)}
              ${row('Revenue', d.revenueRange ?? d.revenue)} ${row('Founded', d.foundedYear ?? d.founded_date)}
              ${row('Headquarters', [d.hq_address?.city, d.hq_address?.state, d.hq_address?.country].filter(Boolean).join(', '))} ${row('Type', d.company_type)}
              ${row('CEO', d.ceo && [d.ceo.first_name, d.ceo.last_name].filter(Boolean).join(' '))}
              ${row('Stock', d.stock?.ticker && `${d.stock.exchange ?? ''} ${d.stock.ticker}`.trim())}
              ${row('Website', d.website && html`<a href=${d.website} rel="noopener noreferrer" target="_blank">${d.website}</a>`)}
            </dl>`
    }
  </section>`;
}

/**
 * Install evidence: the install's dates and counts, and the observations behind it (paged, newest first).
 * @param {{ domain: string, product: CompanyProduct }} props
 */
function Evidence({ domain, product }) {
  const [size, setSize] = useState(10);
  const ev = useAsync(
    () => get('/companies/{companyDomain}/products/{productId}/evidence', { path: { companyDomain: domain, productId: product.productId }, query: { size } }),
    [domain, product.productId, size],
  );
  const items = ev.data?.content ?? [];
  const where = (/** @type {import('./contract.js').Schemas['Observation']} */ o) =>
    o.url
      ? html`<a href=${o.url} target="_blank" rel="noopener noreferrer">${o.url}</a>`
      : o.source === 'dns'
        ? 'DNS record'
        : o.source === 'job'
          ? 'job post'
          : '—';
  return html`<div class="evidence" aria-busy=${ev.loading}>
    <dl class="facts">
      <div>
        <dt>First seen</dt>
        <dd>${fmtDate(product.dateFirstVerified)}</dd>
      </div>
      <div>
        <dt>Last seen</dt>
        <dd>${fmtDate(product.dateLastVerified)} (${(product.dateLastVerifiedBucket ?? '').toLowerCase()})</dd>
      </div>
      <div>
        <dt>Times seen</dt>
        <dd>${product.hitCount}</dd>
      </div>
      <div>
        <dt>Intensity</dt>
        <dd>${product.intensity} / 100 (${(product.intensityBucket ?? '').toLowerCase()})</dd>
      </div>
    </dl>
    <h4>Where and when it was seen</h4>
    ${
      ev.error
        ? html`<${ErrorBox} error=${ev.error} onRetry=${ev.reload} />`
        : !ev.data
          ? html`<${Loading} label="Loading evidence…" />`
          : items.length === 0
            ? html`<p class="hint">No detector observations: this install came from imported data; the dates above are its evidence.</p>`
            : html`<div class="table-wrap">
                  <table class="observations">
                    <thead>
                      <tr>
                        <th scope="col">Seen</th>
                        <th scope="col">Source</th>
                        <th scope="col">Where</th>
                        <th scope="col">Trace</th>
                        <th scope="col" class="num">Weight</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${items.map(
                        (o) =>
                          html`<tr>
                            <td>${fmtDate(o.seenAt)}</td>
                            <td>${o.source}</td>
                            <td class="where">${where(o)}</td>
                            <td>
                              <code>${o.excerpt}</code>${o.version ? html` <span class="sub">v${o.version}</span>` : ''}
                              <div class="sub">${o.ruleId}</div>
                            </td>
                            <td class="num">${o.weight.toFixed(2)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>
                ${ev.data.totalElements > items.length && html`<button type="button" onClick=${() => setSize((n) => Math.min(200, n + 20))} disabled=${ev.loading}>Show more (${ev.data.totalElements - items.length} older)</button>`}`
    }
  </div>`;
}

/** The in-use bar of products-in-use (its `inUse`): below it a product is listed apart, as probably gone. */
const IN_USE_PERCENT = 50;

/** @param {{ domain: string, p: CompanyProduct, c: InUse | undefined, open: string | null, setOpen: (productId: string | null) => void }} props */
function StackRow({ domain, p, c, open, setOpen }) {
  const isOpen = open === p.productId;
  return html`<li class=${isOpen ? 'open' : ''}>
    <div class="stack-row">
      <button type="button" class="expander" aria-expanded=${isOpen} aria-controls=${`ev-${p.productId}`} onClick=${() => setOpen(isOpen ? null : p.productId)}>
        <span aria-hidden="true">${isOpen ? '▾' : '▸'}</span> ${p.product}
      </button>
      <a class="sub" href=${href(['vendors', p.vendorDomain])}>${p.vendor}</a>
      <span class="sub">${p.mainCategory}</span>
      <span class="confidence" title="Confidence that the product is in use"
        >${c === undefined ? '' : `${Math.round(c.confidence * 100)}%`}<meter
          min="0"
          max="1"
          low="0.5"
          optimum="1"
          value=${c?.confidence ?? 0}
          aria-label=${`Confidence ${c === undefined ? 'unknown' : `${Math.round(c.confidence * 100)}%`}`}
        ></meter
      ></span>
      <a class="sub" href=${href(['products', p.vendorDomain, p.productId], { company: domain })}>Product page</a>
    </div>
    ${isOpen && html`<div id=${`ev-${p.productId}`}><${Evidence} domain=${domain} product=${p} /></div>`}
  </li>`;
}

/** @param {{ domain: string }} props */
function Stack({ domain }) {
  const data = useAsync(async () => {
    const page = await get('/companies/{companyDomain}/products/paged', { path: { companyDomain: domain }, query: { size: 200 } });
    const ids = page.content.map((p) => p.productId);
    /** @type {Map<string, InUse>} */
    const confidence = new Map();
    for (let i = 0; i < ids.length; i += 100) {
      const res = await post('/companies/{companyDomain}/products-in-use', { path: { companyDomain: domain }, body: { productIds: ids.slice(i, i + 100) } });
      for (const r of res) confidence.set(r.productId, r);
    }
    return { page, confidence };
  }, [domain]);
  const [open, setOpen] = useState(/** @type {string | null} */ (null));
  if (data.error) return html`<${ErrorBox} error=${data.error} onRetry=${data.reload} />`;
  if (!data.data)
    return html`<section class="card">
      <h2>Technology stack</h2>
      <${Loading} rows=${8} />
    </section>`;
  const { page, confidence } = data.data;
  // Products below the in-use bar (seen once long ago, or not for a long time) are kept apart:
  // listed among the 99 % ones they read as the company's stack.
  const unlikely = page.content.filter((p) => confidence.get(p.productId)?.inUse === false);
  const likely = page.content.filter((p) => confidence.get(p.productId)?.inUse !== false);
  /** @type {Map<string, CompanyProduct[]>} */
  const groups = new Map();
  for (const p of likely) {
    const g = p.level0Category ?? p.mainCategory;
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)?.push(p);
  }
  const row = (/** @type {CompanyProduct} */ p) =>
    html`<${StackRow} key=${p.productId} domain=${domain} p=${p} c=${confidence.get(p.productId)} open=${open} setOpen=${setOpen} />`;
  return html`<section class="card" aria-labelledby="stack-title">
    <h2 id="stack-title">Technology stack <span class="count" title="Products likely in use">${likely.length}</span></h2>
    ${page.totalElements > page.content.length && html`<p class="hint">Showing the first ${page.content.length} of ${page.totalElements} products.</p>`}
    ${page.content.length === 0 && html`<${Empty}>No installed product is known for this company yet.</${Empty}>`}
    ${page.content.length > 0 && html`<p class="hint">Listed: products in use with a confidence of ${IN_USE_PERCENT} % or more.${unlikely.length > 0 ? ` ${unlikely.length} below it are listed apart, at the end.` : ''}</p>`}
    ${[...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([cat, items]) =>
          html`<div class="stack-group">
            <h3>${cat} <span class="count">${items.length}</span></h3>
            <ul class="stack-list">
              ${items.map(row)}
            </ul>
          </div>`,
      )}
    ${
      unlikely.length > 0 &&
      html`<details class="stack-group stack-unlikely">
        <summary>
          <h3>Probably no longer in use (confidence below ${IN_USE_PERCENT} %) <span class="count">${unlikely.length}</span></h3>
        </summary>
        <ul class="stack-list">
          ${[...unlikely].sort((a, b) => /** @type {InUse} */ (confidence.get(b.productId)).confidence - /** @type {InUse} */ (confidence.get(a.productId)).confidence).map(row)}
        </ul>
      </details>`
    }
  </section>`;
}

/** @param {{ domain: string, loader: (page: number) => Promise<PeerPage>, label: string, chosen: string[], onChoose: (domain: string, on: boolean) => void }} props */
function PeerList({ domain, loader, label, chosen, onChoose }) {
  const [page, setPage] = useState(0);
  const data = useAsync(() => loader(page), [domain, label, page]);
  return html`<section class="card" aria-labelledby=${`peers-${label}`} aria-busy=${data.loading}>
    <h2 id=${`peers-${label}`}>${label}</h2>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      !data.data && !data.error
        ? html`<${Loading} rows=${5} />`
        : data.data &&
          html` <${Table}
              rows=${data.data.content}
              rowKey=${(/** @type {Peer} */ r) => r.domain}
              empty="No peers in this group."
              columns=${
                /** @satisfies {import('./ui.js').Column<Peer>[]} */ ([
                  {
                    key: 'name',
                    label: 'Company',
                    render: (r) =>
                      html`<a href=${href(['companies', r.domain])}>${r.name ?? r.domain}</a>
                        <div class="sub">${r.domain}</div>`,
                  },
                  {
                    key: 'compare',
                    label: 'Compare',
                    sortable: false,
                    render: (r) =>
                      html`<label class="check"
                        ><input
                          type="checkbox"
                          checked=${chosen.includes(r.domain)}
                          onChange=${(/** @type {FieldEvent} */ e) => onChoose(r.domain, e.currentTarget.checked)}
                        />Benchmark<span class="visually-hidden"> ${r.name ?? r.domain}</span></label
                      >`,
                  },
                ])
              }
            />
            <${Pager} page=${page} totalPages=${data.data.totalPages} totalElements=${data.data.totalElements} label="peers" onPage=${setPage} />`
    }
  </section>`;
}

/** @param {{ domain: string, route: Route }} props */
function Peers({ domain, route }) {
  const cohort = COHORTS.find((c) => c === route.query.get('cohort')) ?? 'Default';
  const chosen = (route.query.get('peers') ?? '').split(',').filter(Boolean);
  const go = (/** @type {{ peers?: string }} */ q) =>
    navigate(href(['companies', domain, 'peers'], { cohort, peers: chosen.join(','), ...q }), { replace: true });
  const onChoose = (/** @type {string} */ d, /** @type {boolean} */ on) => go({ peers: (on ? [...chosen, d] : chosen.filter((x) => x !== d)).join(',') });
  return html`<div>
    <div class="toolbar">
      <div class="segmented" role="group" aria-label="Cohort">
        ${COHORTS.map((c) => html`<a href=${href(['companies', domain, 'peers'], { cohort: c, peers: chosen.join(',') })} aria-current=${c === cohort ? 'true' : undefined}>${c}</a>`)}
      </div>
      ${chosen.length > 0 && html`<a class="button primary" href=${href(['companies', domain, 'benchmark'], { cohort, peers: chosen.join(',') })}>Benchmark with ${chosen.length} chosen</a>`}
    </div>
    <div class="grid2">
      <${PeerList}
        domain=${domain}
        label=${`${cohort} cohort`}
        chosen=${chosen}
        onChoose=${onChoose}
        loader=${(/** @type {number} */ page) => get('/companies/{companyDomain}/cohort/{cohort}', { path: { companyDomain: domain, cohort }, query: { page, size: 20 } })}
      />
      <${PeerList}
        domain=${domain}
        label="Competitors"
        chosen=${chosen}
        onChoose=${onChoose}
        loader=${(/** @type {number} */ page) => get('/companies/{companyDomain}/competitors', { path: { companyDomain: domain }, query: { page, size: 20 } })}
      />
    </div>
  </div>`;
}

/** @param {{ domain: string }} props */
function News({ domain }) {
  const [pages, setPages] = useState(/** @type {Feed[]} */ ([]));
  const [cursor, setCursor] = useState(/** @type {string | undefined} */ (undefined));
  const first = useAsync(() => get('/companies/{companyDomain}/feed', { path: { companyDomain: domain } }), [domain]);
  const more = useAsync(
    () =>
      cursor
        ? get('/companies/{companyDomain}/feed', { path: { companyDomain: domain }, query: { paginationId: cursor } }).then(
            (p) => (setPages((ps) => [...ps, p]), p),
          )
        : null,
    [cursor],
  );
  if (first.error) return html`<${ErrorBox} error=${first.error} onRetry=${first.reload} />`;
  if (!first.data)
    return html`<section class="card">
      <h2>News</h2>
      <${Loading} rows=${5} />
    </section>`;
  const all = [first.data, ...pages];
  const items = all.flatMap((p) => p.feeds);
  const next = all[all.length - 1].paginationId;
  return html`<section class="card" aria-labelledby="news-title">
    <h2 id="news-title">News and activity</h2>
    ${items.length === 0 && html`<${Empty}>No news for this company.</${Empty}>`}
    <ol class="feed">
      ${items.map(
        (n) =>
          html`<li key=${n.id}>
            <div class="sub"><span class="tag">${n.category}</span> ${fmtDate(n.date)} · ${n.publisherName ?? ''}</div>
            <h3>${n.sourceUrl ? html`<a href=${n.sourceUrl} target="_blank" rel="noopener noreferrer">${n.title}</a>` : n.title}</h3>
            <p>${n.description}</p>
          </li>`,
      )}
    </ol>
    <${ErrorBox} error=${more.error} />
    ${next && html`<button type="button" onClick=${() => setCursor(next)} disabled=${more.loading && cursor}>${more.loading && cursor ? 'Loading…' : 'Older news'}</button>`}
  </section>`;
}

/**
 * @param {Profile} p
 * @param {string} domain
 */
function maskedEmail(p, domain) {
  const first = (p.fullName ?? '?').trim()[0]?.toLowerCase() ?? '•';
  return `${first}•••••@${p.companyDomain ?? domain}`;
}

/** @param {{ profile: Profile, onDone: (res: Purchased) => void, onCancel: () => void }} props */
function Purchase({ profile, onDone, onCancel }) {
  const credits = useAsync(() => get('/credits', { query: { limit: 1 } }), [profile.id]);
  const [state, setState] = useState(/** @type {{ busy: boolean, error: import('./ui.js').Problem | null }} */ ({ busy: false, error: null }));
  const buy = async () => {
    setState({ busy: true, error: null });
    try {
      const res = await post('/profiles/purchase', { body: { profileIds: [profile.id] }, headers: { 'idempotency-key': crypto.randomUUID() } });
      onDone(res);
    } catch (err) {
      setState({ busy: false, error: /** @type {import('./ui.js').Problem} */ (err) });
    }
  };
  return html`<div class="confirm" role="dialog" aria-modal="false" aria-labelledby=${`buy-${profile.id}`}>
    <p id=${`buy-${profile.id}`}><strong>Buy the contact details of ${profile.fullName}?</strong></p>
    <p>
      Cost: <strong>1 credit</strong> (nothing if already bought).
      ${credits.data ? html`Balance now: <strong>${credits.data.balance}</strong> credits.` : credits.error ? '' : 'Checking your balance…'}
    </p>
    <${ErrorBox} error=${state.error ?? credits.error} />
    <div class="actions">
      <button type="button" class="primary" onClick=${buy} disabled=${state.busy}>${state.busy ? 'Buying…' : 'Buy for 1 credit'}</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </div>`;
}

/** @param {{ domain: string }} props */
function People({ domain }) {
  const [page, setPage] = useState(0);
  const [buying, setBuying] = useState(/** @type {string | null} */ (null));
  const [bought, setBought] = useState(/** @type {Record<string, Purchased['results'][number]>} */ ({}));
  const data = useAsync(() => post('/profiles/search', { body: { companyDomains: [domain], page, size: 20 } }), [domain, page]);
  if (data.error && data.error.status !== 404) return html`<${ErrorBox} error=${data.error} onRetry=${data.reload} />`;
  const rows = data.data?.content ?? [];
  return html`<section class="card" aria-labelledby="people-title" aria-busy=${data.loading}>
    <h2 id="people-title">People</h2>
    <p class="hint">Contact details are masked until bought; each new purchase costs one credit.</p>
    ${
      data.loading && !data.data
        ? html`<${Loading} rows=${6} />`
        : html` <${Table}
              rows=${rows}
              rowKey=${(/** @type {Profile} */ r) => r.id}
              empty="No people are known at this company."
              columns=${
                /** @satisfies {import('./ui.js').Column<Profile>[]} */ ([
                  { key: 'fullName', label: 'Name' },
                  { key: 'title', label: 'Title' },
                  { key: 'seniority', label: 'Seniority' },
                  {
                    key: 'contact',
                    label: 'Contact',
                    sortable: false,
                    render: (p) => {
                      const b = bought[p.id];
                      if (b)
                        return html`<span class="contact"
                          >${b.emails.map((e) => e.value).join(', ') || 'no email'}${b.phones.length ? ` · ${b.phones.map((x) => x.value).join(', ')}` : ''}</span
                        >`;
                      return html`<span class="masked" aria-label="masked email">${maskedEmail(p, domain)}</span> ${
                          buying === p.id
                            ? html`<${Purchase}
                                profile=${p}
                                onCancel=${() => setBuying(null)}
                                onDone=${(/** @type {Purchased} */ res) => {
                                  setBought((m) => ({ ...m, [p.id]: res.results[0] }));
                                  setBuying(null);
                                }}
                              />`
                            : html` <button type="button" onClick=${() => setBuying(p.id)}>
                                Buy contact<span class="visually-hidden"> of ${p.fullName}</span>
                              </button>`
                        }`;
                    },
                  },
                ])
              }
            />
            ${data.data && html`<${Pager} page=${page} totalPages=${data.data.totalPages} totalElements=${data.data.totalElements} label="people" onPage=${setPage} />`}`
    }
  </section>`;
}

/** @param {{ route: Route }} props */
function Company({ route }) {
  const domain = route.parts[1];
  const tab = route.parts[2] ?? 'stack';
  const summary = useAsync(
    () => post('/companies/search', { body: { filter: { companyDomainIn: [domain] }, size: 1 } }).then((p) => p.content[0] ?? null),
    [domain],
  );
  const name = summary.data?.name ?? domain;
  useTitle(name);
  const keep = { cohort: route.query.get('cohort') ?? undefined, peers: route.query.get('peers') ?? undefined };
  const tabs = [
    ['stack', 'Overview and stack'],
    ['peers', 'Peers'],
    ['benchmark', 'Benchmark'],
    ['news', 'News'],
    ['history', 'History'],
    ['people', 'People'],
  ].map(([id, label]) => ({
    id,
    label,
    href: href(['companies', domain, ...(id === 'stack' ? [] : [id])], id === 'peers' || id === 'benchmark' ? keep : undefined),
  }));
  return html`<div class="company">
    <header class="page-head">
      <h1>${name}</h1>
      <div class="sub">
        ${domain}${summary.data ? ` · ${summary.data.industry ?? ''} · ${summary.data.employeeRange ?? ''} employees · ${[summary.data.city, summary.data.country].filter(Boolean).join(', ')}` : ''}
      </div>
    </header>
    <${ErrorBox} error=${summary.error} />
    <${Tabs} tabs=${tabs} current=${tab} label="Company sections" />
    ${tab === 'stack' && html`<div class="grid-aside"><${Firmographics} domain=${domain} /><${Stack} domain=${domain} /></div>`}
    ${tab === 'peers' && html`<${Peers} domain=${domain} route=${route} />`} ${tab === 'benchmark' && html`<${Benchmark} domain=${domain} route=${route} />`}
    ${tab === 'news' && html`<${News} domain=${domain} />`} ${tab === 'people' && html`<${People} domain=${domain} />`}
    ${
      tab === 'history' &&
      html`<${Timeline}
        domain=${domain}
        query=${route.query}
        go=${(/** @type {Record<string, string | undefined>} */ changes) =>
          navigate(href(['companies', domain, 'history'], { ...Object.fromEntries(route.query), ...changes }), { replace: true })}
      />`
    }
  </div>`;
}

export const views = { companies: Company };
