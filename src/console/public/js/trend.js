// @ts-check
// The Watch screen's adoption trends: a product's, category's or vendor's monthly trend (GET
// /products/{productId}/adoption and its siblings) over a range of months, drawn as an inline
// SVG by this small module (no chart library: a line of the companies using it, bars of
// adoptions and drops), with the same figures as a table. Colours come from console.css (the
// page's CSP allows no inline style).
import { useEffect, useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox } from './ui.js';
import { get } from './api.js';
import { parseTech } from './search.js';

/**
 * @typedef {import('./contract.js').Schemas['AdoptionTrend']} Trend
 * @typedef {Trend['points'][number]} Point
 * @typedef {{ kind: 'p' | 'v' | 'c', id: string, label: string }} Subject  p: product, v: vendor (domain), c: category
 */

const W = 720;
const LEFT = 52;
const RIGHT = 12;
const LINE_TOP = 14;
const LINE_BOTTOM = 170;
const BARS_TOP = 196;
const BARS_BOTTOM = 276;
const H = 300;

/** A round upper bound of an axis: 1, 2 or 5 times a power of ten, at least `v`. */
function niceMax(/** @type {number} */ v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

/** @param {{ points: Point[], title: string }} props */
function AdoptionChart({ points, title }) {
  const n = points.length;
  const step = (W - LEFT - RIGHT) / Math.max(n, 1);
  const x = (/** @type {number} */ i) => LEFT + (i + 0.5) * step;
  const top = niceMax(Math.max(0, ...points.map((p) => p.companies)));
  const y = (/** @type {number} */ v) => LINE_BOTTOM - (v / top) * (LINE_BOTTOM - LINE_TOP);
  const barTop = niceMax(Math.max(0, ...points.flatMap((p) => [p.adoptions, p.drops])));
  const mid = (BARS_TOP + BARS_BOTTOM) / 2;
  const bar = (/** @type {number} */ v) => (v / barTop) * (mid - BARS_TOP);
  const barWidth = Math.max(2, Math.min(18, step / 3));
  const labelEvery = Math.ceil(n / 12);
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.companies).toFixed(1)}`).join(' ');
  return html`<svg class="trend-chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-labelledby="trend-chart-title">
    <title id="trend-chart-title">${title}</title>
    ${(Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]).map(
      (v) =>
        html`<g class="grid">
          <line x1=${LEFT} x2=${W - RIGHT} y1=${y(v)} y2=${y(v)} />
          <text x=${LEFT - 6} y=${y(v) + 4} text-anchor="end">${v}</text>
        </g>`,
    )}
    <text class="axis-label" x=${LEFT} y=${LINE_TOP - 4}>Companies using</text>
    <path class="trend-line" d=${line} />
    ${points.map(
      (p, i) => html`<circle class="trend-point" cx=${x(i)} cy=${y(p.companies)} r="3.5"><title>${p.period}: ${p.companies} companies using</title></circle>`,
    )}
    <text class="axis-label" x=${LEFT} y=${BARS_TOP - 6}>Adoptions (up) and drops (down), up to ${barTop}</text>
    <line class="zero" x1=${LEFT} x2=${W - RIGHT} y1=${mid} y2=${mid} />
    ${points.map(
      (p, i) =>
        html`<g>
          <rect class="bar-adopted" x=${x(i) - barWidth} y=${mid - bar(p.adoptions)} width=${barWidth} height=${bar(p.adoptions)}>
            <title>${p.period}: ${p.adoptions} adoptions</title>
          </rect>
          <rect class="bar-dropped" x=${x(i)} y=${mid} width=${barWidth} height=${bar(p.drops)}><title>${p.period}: ${p.drops} drops</title></rect>
        </g>`,
    )}
    ${points.map((p, i) => (i % labelEvery === 0 ? html`<text class="month" x=${x(i)} y=${H - 6} text-anchor="middle">${p.period}</text>` : null))}
  </svg>`;
}

/**
 * The trend of a subject over a range of months (YYYY-MM, inclusive): the chart, its legend
 * and its figures as a table.
 * @param {{ subject: Subject, from: string, to: string }} props
 */
function AdoptionTrend({ subject, from, to }) {
  const query = { from: `${from}-01`, to: `${to}-01` };
  const data = useAsync(() => {
    if (subject.kind === 'p') return get('/products/{productId}/adoption', { path: { productId: subject.id }, query });
    if (subject.kind === 'v') return get('/vendors/{vendorDomain}/adoption', { path: { vendorDomain: subject.id }, query });
    return get('/categories/{categoryId}/adoption', { path: { categoryId: subject.id }, query });
  }, [subject.kind, subject.id, from, to]);
  const trend = data.data;
  const name = trend?.subject.name ?? subject.label;
  return html`<section class="card" aria-labelledby="trend-title" aria-busy=${data.loading}>
    <h2 id="trend-title">Adoption of ${name} <span class="sub">${from} to ${to}</span></h2>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      !trend
        ? !data.error && html`<div class="chart-placeholder"><${Loading} label="Loading the trend…" /></div>`
        : html`<${AdoptionChart} points=${trend.points} title=${`Adoption of ${name} per month, ${from} to ${to}`} />
            <ul class="legend" aria-hidden="true">
              <li><span class="swatch swatch-line"></span>Companies using it at the month's end</li>
              <li><span class="swatch swatch-adopted"></span>Adoptions</li>
              <li><span class="swatch swatch-dropped"></span>Drops</li>
            </ul>
            <details>
              <summary>The figures</summary>
              <div class="table-wrap">
                <table class="trend-table">
                  <thead>
                    <tr>
                      <th scope="col">Month</th>
                      <th scope="col" class="num">Companies using</th>
                      <th scope="col" class="num">Adoptions</th>
                      <th scope="col" class="num">Drops</th>
                      <th scope="col" class="num">Net change</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${trend.points.map(
                      (p) =>
                        html`<tr key=${p.period}>
                          <td>${p.period}</td>
                          <td class="num">${p.companies}</td>
                          <td class="num">${p.adoptions}</td>
                          <td class="num">${p.drops}</td>
                          <td class="num">${p.netChange > 0 ? `+${p.netChange}` : p.netChange}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
            </details>`
    }
  </section>`;
}

/** YYYY-MM of a date `back` months before now. */
function monthAgo(/** @type {number} */ back) {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - back);
  return d.toISOString().slice(0, 7);
}

/**
 * Suggestions for a trend's subject: products and vendors named like the text, and categories.
 * @param {string} text
 * @returns {Promise<{ token: string, label: string }[]>}
 */
async function suggestSubjects(text) {
  const [products, vendors, categories] = await Promise.all([
    get('/products', { query: { productName: text, size: 8 } }),
    get('/vendors', { query: { vendor: text, fuzzy: true, size: 3 } }),
    get('/categories'),
  ]);
  const lower = text.toLowerCase();
  return [
    ...products.content.map((p) => ({ token: `p:${p.id}:${p.name}`, label: `${p.name} (product)` })),
    ...vendors.content.map((v) => ({ token: `v:${v.domain}:${v.name}`, label: `${v.name} (vendor)` })),
    ...categories
      .filter((c) => c.name.toLowerCase().includes(lower))
      .slice(0, 5)
      .map((c) => ({ token: `c:${c.id}:${c.name}`, label: `${c.name} (category)` })),
  ];
}

/**
 * The trends tab: a subject chosen by name (suggestions of products, vendors, categories) and a
 * range of months, both in the URL: #/watch/trends?subject=p:<id>:<name>&from=YYYY-MM&to=YYYY-MM.
 * @param {{ route: import('./ui.js').Route }} props
 */
export function Trends({ route }) {
  const q = route.query;
  const token = q.get('subject') ?? '';
  const from = q.get('from') ?? monthAgo(11);
  const to = q.get('to') ?? monthAgo(0);
  const [text, setText] = useState(token ? parseTech(token).label : '');
  useEffect(() => setText(token ? parseTech(token).label : ''), [token]);
  const [options, setOptions] = useState(/** @type {{ token: string, label: string }[]} */ ([]));
  const [error, setError] = useState(/** @type {import('./ui.js').Problem | null} */ (null));
  const go = (/** @type {Record<string, string>} */ changes) => navigate(href(['watch', 'trends'], { subject: token, from, to, ...changes }));
  const choose = async (/** @type {import('./ui.js').FormEvent} */ e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    let opts = options;
    if (!opts.some((o) => o.label === t)) opts = await suggestSubjects(t).catch((err) => (setError(err), []));
    const hit = opts.find((o) => o.label === t) ?? opts[0];
    if (!hit) return setError({ message: `No product, vendor or category matches "${t}"` });
    setError(null);
    setText(parseTech(hit.token).label);
    go({ subject: hit.token });
  };
  const subject = token ? parseTech(token) : null;
  return html`<div>
    <form class="card row-form" onSubmit=${choose} aria-label="Trend subject and months">
      <label class="inline" for="tr-subject">Product, vendor or category</label>
      <input
        id="tr-subject"
        list="tr-subject-list"
        value=${text}
        autocomplete="off"
        onInput=${(/** @type {import('./ui.js').FieldEvent} */ e) => {
          const v = e.currentTarget.value;
          setText(v);
          if (v.trim().length >= 2) suggestSubjects(v.trim()).then(setOptions, () => {});
        }}
      />
      <datalist id="tr-subject-list">${options.map((o) => html`<option value=${o.label}></option>`)}</datalist>
      <button type="submit" class="primary">Show trend</button>
      <label class="inline"
        >From
        <input
          type="month"
          value=${from}
          onChange=${(/** @type {import('./ui.js').FieldEvent} */ e) => e.currentTarget.value && go({ from: e.currentTarget.value })}
      /></label>
      <label class="inline"
        >To
        <input
          type="month"
          value=${to}
          onChange=${(/** @type {import('./ui.js').FieldEvent} */ e) => e.currentTarget.value && go({ to: e.currentTarget.value })}
      /></label>
    </form>
    <${ErrorBox} error=${error} />
    ${
      subject && (subject.kind === 'p' || subject.kind === 'v' || subject.kind === 'c')
        ? html`<${AdoptionTrend} subject=${/** @type {Subject} */ (subject)} from=${from} to=${to} />`
        : html`<p class="hint">Choose a product, vendor or category: its companies using it month by month, with adoptions and drops.</p>`
    }
  </div>`;
}
