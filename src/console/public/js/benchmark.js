// @ts-check
// The benchmark tab: the cohort's usage share per product (a uPlot bar chart, loaded only
// here, with the company's own products in their own colour and a table of the same data),
// and the similar / different / missing comparison with chosen peers as a matrix.
import { useEffect, useRef } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Empty } from './ui.js';
import { get, post } from './api.js';
import { COHORTS } from './choices.js';

/**
 * A product's share of the cohort, and whether the company uses it.
 * @typedef {import('./contract.js').GetAnswer<'/companies/{companyDomain}/cohort/{cohort}/metrics/usage'>[number] & { own: boolean }} UsageRow
 * @typedef {import('./contract.js').PostAnswer<'/companies/{companyDomain}/metrics/details'>[number]['products'][number]} PeerCategory
 * @typedef {import('./contract.js').CohortType} CohortType
 */

const TOP = 20;

function loadUplotCss() {
  if (document.getElementById('uplot-css')) return;
  const link = document.createElement('link');
  link.id = 'uplot-css';
  link.rel = 'stylesheet';
  link.href = '/console/vendor/uplot.css';
  document.head.append(link);
}

/** @param {{ rows: UsageRow[] }} props */
function UsageChart({ rows }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    /** @type {import('uplot') | undefined} */
    let plot;
    let live = true;
    loadUplotCss();
    import('uplot').then(({ default: uPlot }) => {
      if (!live || !box.current) return;
      const css = getComputedStyle(document.documentElement);
      const color = (/** @type {string} */ v) => css.getPropertyValue(v).trim();
      const xs = rows.map((_, i) => i);
      const own = rows.map((r) => (r.own ? r.percentage : null));
      const other = rows.map((r) => (r.own ? null : r.percentage));
      // Always there in the ESM build; its types leave the path builders optional.
      const bars = /** @type {NonNullable<typeof uPlot.paths.bars>} */ (uPlot.paths.bars)({ size: [0.7, 60], align: 0 });
      const width = Math.max(320, box.current.clientWidth);
      plot = new uPlot(
        {
          width,
          height: 360,
          title: '',
          legend: { show: true, live: false },
          // Room on the right for the last rotated label.
          padding: [12, 72, 0, 8],
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: false, range: [-0.5, rows.length - 0.5] }, y: { range: [0, 100] } },
          axes: [
            {
              stroke: color('--fg-muted'),
              grid: { show: false },
              rotate: -40,
              size: 110,
              values: (_u, vals) => vals.map((v) => (Number.isInteger(v) && rows[v] ? short(rows[v].product) : '')),
              splits: () => xs,
            },
            { stroke: color('--fg-muted'), grid: { stroke: color('--border') }, values: (_u, vals) => vals.map((v) => `${v}%`), label: 'Share of the cohort' },
          ],
          series: [
            { label: 'Product', value: (_u, v) => (v === null || !rows[v] ? '' : rows[v].product) },
            {
              label: 'In this company’s stack',
              fill: color('--accent'),
              stroke: color('--accent'),
              paths: bars,
              points: { show: false },
              value: (_u, v) => (v === null ? '' : `${v}%`),
            },
            {
              label: 'Not in its stack',
              fill: color('--muted-bar'),
              stroke: color('--muted-bar'),
              paths: bars,
              points: { show: false },
              value: (_u, v) => (v === null ? '' : `${v}%`),
            },
          ],
        },
        [xs, own, other],
        box.current,
      );
    });
    const onResize = () => plot && box.current && plot.setSize({ width: Math.max(320, box.current.clientWidth), height: 360 });
    window.addEventListener('resize', onResize);
    return () => {
      live = false;
      window.removeEventListener('resize', onResize);
      plot?.destroy();
    };
  }, [rows]);
  return html`<div
    class="chart"
    ref=${box}
    role="img"
    aria-label=${`Bar chart: share of the cohort using each of its ${rows.length} most used products; ${rows.filter((r) => r.own).length} of them are in this company's stack`}
  ></div>`;
}

const short = (/** @type {string} */ s) => (s.length > 18 ? `${s.slice(0, 17)}…` : s);

/** @param {{ domain: string, cohort: CohortType }} props */
function Usage({ domain, cohort }) {
  const data = useAsync(async () => {
    const [usage, stack] = await Promise.all([
      get('/companies/{companyDomain}/cohort/{cohort}/metrics/usage', { path: { companyDomain: domain, cohort } }),
      get('/companies/{companyDomain}/products/paged', { path: { companyDomain: domain }, query: { size: 200 } }),
    ]);
    const mine = new Set(stack.content.map((p) => p.productId));
    return [...usage]
      .sort((a, b) => b.percentage - a.percentage || a.product.localeCompare(b.product))
      .slice(0, TOP)
      .map((u) => ({ ...u, own: mine.has(u.productId) }));
  }, [domain, cohort]);
  return html`<section class="card" aria-labelledby="usage-title" aria-busy=${data.loading}>
    <h2 id="usage-title">Usage share in the ${cohort} cohort</h2>
    <p class="hint">The ${TOP} products most used by the cohort; the company's own products are highlighted.</p>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      data.loading && !data.data
        ? html`<div class="chart-placeholder"><${Loading} label="Loading the chart…" /></div>`
        : data.data &&
          (data.data.length === 0
            ? html`<${Empty}>The cohort has no usage data yet.</${Empty}>`
            : html`<${UsageChart} rows=${data.data} />
                <details>
                  <summary>Show the data as a table</summary>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Product</th>
                        <th scope="col">Category</th>
                        <th scope="col" class="num">Share</th>
                        <th scope="col">In stack</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${data.data.map(
                        (r) =>
                          html`<tr>
                            <td><a href=${href(['products', r.vendorDomain, r.productId], { company: domain })}>${r.product}</a></td>
                            <td>${r.category}</td>
                            <td class="num">${r.percentage}%</td>
                            <td>${r.own ? 'yes' : 'no'}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </details>`)
    }
  </section>`;
}

const CELL = {
  similar: { sym: '●', cls: 'similar', text: 'same product' },
  different: { sym: '◐', cls: 'different', text: 'different product' },
  missing: { sym: '○', cls: 'missing', text: 'no product' },
};

/** @param {{ domain: string, cohort: CohortType, chosen: string[] }} props */
function Matrix({ domain, cohort, chosen }) {
  const data = useAsync(async () => {
    let peers = chosen;
    if (peers.length === 0)
      peers = (await get('/companies/{companyDomain}/cohort/{cohort}', { path: { companyDomain: domain, cohort }, query: { size: 5 } })).content.map(
        (p) => p.domain,
      );
    if (peers.length === 0) return { peers, rows: [] };
    const details = await post('/companies/{companyDomain}/metrics/details', { path: { companyDomain: domain }, query: { cohortCompanyDomain: peers } });
    /** @type {Map<string, { category: string, mine: string[], cells: (PeerCategory | null)[] }>} */
    const byCat = new Map();
    details.forEach((d, col) => {
      for (const p of d.products) {
        let row = byCat.get(p.category);
        if (!row) byCat.set(p.category, (row = { category: p.category, mine: p.companyProducts ?? [], cells: new Array(details.length).fill(null) }));
        row.cells[col] = p;
      }
    });
    const rows = [...byCat.values()].filter((r) => r.mine.length > 0).sort((a, b) => a.category.localeCompare(b.category));
    return { peers: details.map((d) => d.companyDomain), rows };
  }, [domain, cohort, chosen.join(',')]);
  const kind = (/** @type {PeerCategory | null} */ c) => (!c ? null : c.similar ? 'similar' : c.different ? 'different' : 'missing');
  return html`<section class="card" aria-labelledby="matrix-title" aria-busy=${data.loading}>
    <h2 id="matrix-title">Stack comparison with ${chosen.length ? 'the chosen peers' : `the first peers of the ${cohort} cohort`}</h2>
    <p class="hint">
      For each category of this company's stack: ● the peer uses the same product, ◐ a different one, ○ none. Choose peers on the
      <a href=${href(['companies', domain, 'peers'], { cohort })}>Peers</a> tab.
    </p>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      data.loading && !data.data
        ? html`<${Loading} rows=${6} />`
        : data.data &&
          (data.data.rows.length === 0
            ? html`<${Empty}>No peers to compare with.</${Empty}>`
            : html` <div class="table-wrap">
                <table class="matrix">
                  <thead>
                    <tr>
                      <th scope="col">Category</th>
                      <th scope="col">${domain}</th>
                      ${data.data.peers.map((p) => html`<th scope="col"><a href=${href(['companies', p])}>${p}</a></th>`)}
                    </tr>
                  </thead>
                  <tbody>
                    ${data.data.rows.map(
                      (r) =>
                        html`<tr>
                          <th scope="row">${r.category}</th>
                          <td>${r.mine.join(', ')}</td>
                          ${r.cells.map((c) => {
                            const k = kind(c);
                            if (!k) return html`<td>—</td>`;
                            const cell = CELL[k];
                            return html`<td class=${`cell ${cell.cls}`}>
                              <span aria-hidden="true">${cell.sym}</span> <span class="visually-hidden">${cell.text}: </span>${c?.product ?? ''}
                            </td>`;
                          })}
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`)
    }
  </section>`;
}

/** @param {{ domain: string, route: import('./ui.js').Route }} props */
export function Benchmark({ domain, route }) {
  const cohort = COHORTS.find((c) => c === route.query.get('cohort')) ?? 'Default';
  const chosen = (route.query.get('peers') ?? '').split(',').filter(Boolean);
  return html`<div>
    <div class="toolbar">
      <label class="inline"
        >Cohort
        <select
          value=${cohort}
          onChange=${(/** @type {import('./ui.js').SelectEvent} */ e) => navigate(href(['companies', domain, 'benchmark'], { cohort: e.currentTarget.value, peers: chosen.join(',') }))}
        >
          ${COHORTS.map((c) => html`<option value=${c}>${c}</option>`)}
        </select></label
      >
    </div>
    <${Usage} domain=${domain} cohort=${cohort} />
    <${Matrix} domain=${domain} cohort=${cohort} chosen=${chosen} />
  </div>`;
}
