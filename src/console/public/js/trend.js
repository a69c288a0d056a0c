// @ts-check
// Adoption trends: a product's, category's or vendor's monthly trend (GET
// /products/{productId}/adoption and its siblings) drawn as an inline SVG by this small module
// (no chart library: two panels, a line of the companies using it and bars of adoptions and
// drops), with the same figures as a table. Colours come from console.css (the page's CSP
// allows no inline style).
import { html, useAsync, Loading, ErrorBox } from './ui.js';
import { get } from './api.js';

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
export function AdoptionTrend({ subject, from, to }) {
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
