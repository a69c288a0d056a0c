// @ts-check
// Market size, the search screen's second view: the companies a search matches, counted by one
// or two dimensions (POST /api/companies/facets) and drawn as horizontal bars, one per cell,
// largest first, with a few sample companies each; the same figures as a table for screen
// readers and copying. The dimensions live in the URL (`by`, `by2`) beside the filters.
import { html, href, useAsync, Loading, ErrorBox, fmtDateTime } from './ui.js';
import { post } from './api.js';

/**
 * @typedef {import('./contract.js').Schemas['CompanyFacets']} Facets
 * @typedef {import('./contract.js').Schemas['CompanyFacetsRequestInput']} FacetsBody
 * @typedef {NonNullable<FacetsBody['dimensions']>[number]} Dimension
 * @typedef {Facets['cells'][number]} Cell
 */

/** @type {[Dimension, string][]} */
const DIMENSIONS = [
  ['country', 'Country'],
  ['industry', 'Industry'],
  ['employeeBand', 'Employees'],
  ['revenueBand', 'Revenue'],
  ['technology', 'Technology'],
  ['category', 'Category'],
];
const label = (/** @type {string} */ d) => DIMENSIONS.find(([id]) => id === d)?.[1] ?? d;
/** The largest cells drawn. */
const CELLS = 25;

/** @param {Cell['values'][number]} v */
const valueName = (v) => v.name ?? v.value ?? 'Unknown';

/**
 * @param {{ search: Record<string, unknown>, by: string, by2: string, onDimensions: (by: string, by2: string) => void }} props
 * `search`: the company-search body without paging and sort.
 */
export function MarketSize({ search, by, by2, onDimensions }) {
  const dimensions = /** @type {Dimension[]} */ ([by, by2].filter((d, i, all) => d && all.indexOf(d) === i));
  const body = /** @type {FacetsBody} */ ({ ...search, dimensions, limit: CELLS, sample: 3 });
  const key = JSON.stringify(body);
  const facets = useAsync(() => post('/companies/facets', { body }), [key]);
  const f = facets.data;
  return html`<div class="market">
    <div class="market-controls">
      <label class="inline"
        >Count by
        <select value=${by} onChange=${(/** @type {import('./ui.js').SelectEvent} */ e) => onDimensions(e.currentTarget.value, by2)}>
          ${DIMENSIONS.map(([id, name]) => html`<option value=${id}>${name}</option>`)}
        </select></label
      >
      <label class="inline"
        >and by
        <select value=${by2} onChange=${(/** @type {import('./ui.js').SelectEvent} */ e) => onDimensions(by, e.currentTarget.value)}>
          <option value="">—</option>
          ${DIMENSIONS.filter(([id]) => id !== by).map(([id, name]) => html`<option value=${id}>${name}</option>`)}
        </select></label
      >
    </div>
    <${ErrorBox} error=${facets.error} onRetry=${facets.reload} />
    ${facets.loading && !f ? html`<${Loading} rows=${6} label="Counting…" />` : f && html`<${FacetsView} facets=${f} />`}
  </div>`;
}

/** @param {{ facets: Facets }} props */
function FacetsView({ facets }) {
  const { total, cells, cellCount, dimensions, countedAt } = facets;
  if (total === 0) return html`<p class="empty">No company matches these filters.</p>`;
  const title = dimensions.map(label).join(' × ');
  const shown = cells.length < cellCount ? `the ${cells.length} largest of ${cellCount} cells` : `${cellCount} cells`;
  return html`<p class="market-total">
      <strong>${total}</strong> companies match; by ${title}: ${shown}. <span class="market-counted">Counted ${fmtDateTime(countedAt)}.</span>
    </p>
    <${FacetBars} cells=${cells} title=${`Companies by ${title}`} />
    <table class="market-table">
      <caption>
        ${`Companies by ${title}`}${
          dimensions.includes('technology') || dimensions.includes('category')
            ? ' (a company counts in the cell of every product or category it uses, once in the total)'
            : ''
        }
      </caption>
      <thead>
        <tr>
          ${dimensions.map((d) => html`<th scope="col">${label(d)}</th>`)}
          <th scope="col" class="num">Companies</th>
          <th scope="col">Sample</th>
        </tr>
      </thead>
      <tbody>
        ${cells.map(
          (c) =>
            html`<tr>
              ${c.values.map((v) => html`<td>${valueName(v)}</td>`)}
              <td class="num">${c.companies}</td>
              <td>${c.sample.map((s, i) => html`${i > 0 ? ', ' : ''}<a href=${href(['companies', s.domain])}>${s.name ?? s.domain}</a>`)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

const W = 720;
const BAR_H = 18;
const GAP = 6;
const LABEL_W = 220;
const RIGHT = 60;

/** One horizontal bar per cell, as an inline SVG (no chart library; colours from console.css). */
function FacetBars(/** @type {{ cells: Cell[], title: string }} */ { cells, title }) {
  const max = Math.max(1, ...cells.map((c) => c.companies));
  const h = cells.length * (BAR_H + GAP) + GAP;
  const width = (/** @type {number} */ n) => Math.max(1, ((W - LABEL_W - RIGHT) * n) / max);
  return html`<svg class="facet-chart" viewBox=${`0 0 ${W} ${h}`} role="img" aria-label=${title}>
    ${cells.map((c, i) => {
      const y = GAP + i * (BAR_H + GAP);
      const name = c.values.map(valueName).join(' · ');
      return html`<g>
        <title>${name}: ${c.companies} companies</title>
        <text x=${LABEL_W - 8} y=${y + BAR_H - 5} text-anchor="end">${name.length > 34 ? `${name.slice(0, 33)}…` : name}</text>
        <rect class="facet-bar" x=${LABEL_W} y=${y} width=${width(c.companies)} height=${BAR_H} />
        <text x=${LABEL_W + width(c.companies) + 6} y=${y + BAR_H - 5}>${c.companies}</text>
      </g>`;
    })}
  </svg>`;
}
