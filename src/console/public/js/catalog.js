// @ts-check
// Product and vendor pages: the catalog record, who uses it (company search by product or
// vendor), related products in a company's cohort, and the category path; each links to its
// adoption trend on the Watch screen.
import { useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Empty, Table, Pager, useTitle } from './ui.js';
import { ApiError, get, post } from './api.js';
import { COHORTS } from './choices.js';

/**
 * @typedef {import('./contract.js').Schemas} Schemas
 * @typedef {import('./ui.js').Route} Route
 */

/** @param {{ filter: NonNullable<Schemas['CompanySearchRequestInput']['filter']>, label: string }} props */
function Users({ filter, label }) {
  const [page, setPage] = useState(0);
  const data = useAsync(() => post('/companies/search', { body: { filter, page, size: 10 } }), [JSON.stringify(filter), page]);
  return html`<section class="card" aria-labelledby="users-title" aria-busy=${data.loading}>
    <h2 id="users-title">Who uses ${label}${data.data ? html` <span class="count">${data.data.totalElements}</span>` : ''}</h2>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      !data.data && !data.error
        ? html`<${Loading} rows=${5} />`
        : data.data &&
          html` <${Table}
              rows=${data.data.content}
              rowKey=${(/** @type {Schemas['CompanySummary']} */ r) => r.domain}
              empty="No known company uses it."
              columns=${
                /** @satisfies {import('./ui.js').Column<Schemas['CompanySummary']>[]} */ ([
                  { key: 'name', label: 'Company', render: (c) => html`<a href=${href(['companies', c.domain])}>${c.name ?? c.domain}</a>` },
                  { key: 'industry', label: 'Industry' },
                  { key: 'country', label: 'Country' },
                ])
              }
            />
            <${Pager} page=${page} totalPages=${data.data.totalPages} totalElements=${data.data.totalElements} label="companies" onPage=${setPage} />`
    }
  </section>`;
}

/** @param {string} id */
async function categoryPath(id) {
  /** @type {Schemas['Category'][]} */
  const path = [];
  /** @type {string | null} */
  let next = id;
  for (let i = 0; next && i < 6; i++) {
    /** @type {Schemas['Category']} */
    const c = await get('/categories/{categoryId}', { path: { categoryId: next } });
    path.unshift(c);
    next = c.parentId;
  }
  return path;
}

/**
 * @param {string} vendor
 * @param {string} productId
 */
async function findProduct(vendor, productId) {
  for (let page = 0; page < 20; page++) {
    const p = await get('/vendors/{vendorDomain}/products', { path: { vendorDomain: vendor }, query: { page, size: 200 } });
    const hit = p.content.find((x) => x.id === productId);
    if (hit) return hit;
    if (page + 1 >= p.totalPages) break;
  }
  throw new ApiError(404, `Product ${productId} is not in the catalog of ${vendor}`, null);
}

/** @param {{ company: string, productId: string, route: Route }} props */
function Related({ company, productId, route }) {
  const cohort = COHORTS.find((c) => c === route.query.get('cohort')) ?? 'Default';
  const data = useAsync(
    () => get('/companies/{companyDomain}/products/{productId}/related', { path: { companyDomain: company, productId }, query: { cohort, size: 20 } }),
    [company, productId, cohort],
  );
  const parts = route.parts;
  return html`<section class="card" aria-labelledby="related-title" aria-busy=${data.loading}>
    <h2 id="related-title">Related products in the cohort of <a href=${href(['companies', company])}>${company}</a></h2>
    <label class="inline"
      >Cohort
      <select
        value=${cohort}
        onChange=${(/** @type {import('./ui.js').SelectEvent} */ e) => navigate(href(parts, { company, cohort: e.currentTarget.value }), { replace: true })}
      >
        ${COHORTS.map((c) => html`<option value=${c}>${c}</option>`)}
      </select></label
    >
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      !data.data && !data.error
        ? html`<${Loading} rows=${4} />`
        : data.data &&
          (data.data.length === 0
            ? html`<${Empty}>No related products.</${Empty}>`
            : html` <ul class="plain">
                ${data.data.map((p) => html`<li><a href=${href(['products', p.vendor.domain, p.id], { company, cohort })}>${p.name}</a> <span class="sub">${p.category} · ${p.vendor.name}</span></li>`)}
              </ul>`)
    }
  </section>`;
}

/** @param {{ route: Route }} props */
function ProductPage({ route }) {
  const [, vendor, productId] = route.parts;
  const company = route.query.get('company');
  const product = useAsync(() => findProduct(vendor, productId), [vendor, productId]);
  const path = useAsync(() => (product.data ? categoryPath(product.data.categoryId) : null), [product.data?.categoryId]);
  const p = product.data;
  useTitle(p?.name ?? productId);
  return html`<div>
    <header class="page-head">
      <h1>${p?.name ?? productId}</h1>
      <div class="sub">
        by <a href=${href(['vendors', vendor])}>${p?.vendor.name ?? vendor}</a> ·
        <a href=${href(['watch', 'trends'], { subject: `p:${productId}:${p?.name ?? productId}` })}>Adoption trend</a>
      </div>
    </header>
    <${ErrorBox} error=${product.error} onRetry=${product.reload} />
    <div class="grid2">
      <section class="card" aria-labelledby="prod-title" aria-busy=${product.loading}>
        <h2 id="prod-title">About</h2>
        ${
          !p
            ? !product.error && html`<${Loading} rows=${3} />`
            : html` <p>${p.description || 'No description.'}</p>
                <dl class="facts">
                  <div>
                    <dt>Category</dt>
                    <dd>${path.data ? path.data.map((c) => c.name).join(' › ') : p.category}</dd>
                  </div>
                  <div>
                    <dt>Reviews</dt>
                    <dd>${p.reviewCount} (${p.avgRating ?? '—'} / 5)</dd>
                  </div>
                  ${
                    p.features?.length > 0 &&
                    html`<div>
                      <dt>Features</dt>
                      <dd>${p.features.join(', ')}</dd>
                    </div>`
                  }
                </dl>`
        }
      </section>
      ${
        company
          ? html`<${Related} company=${company} productId=${productId} route=${route} />`
          : html`<section class="card">
              <h2>Related products</h2>
              <p class="hint">Related products are computed in a company's cohort: open this product from a company's stack to see them.</p>
            </section>`
      }
    </div>
    <${Users} filter=${{ productIdIn: [productId] }} label=${p?.name ?? 'this product'} />
  </div>`;
}

/** @param {{ route: Route }} props */
function VendorPage({ route }) {
  const vendor = route.parts[1];
  const [page, setPage] = useState(0);
  const info = useAsync(() => get('/vendors', { query: { vendor, size: 1 } }).then((p) => p.content[0] ?? null), [vendor]);
  const products = useAsync(() => get('/vendors/{vendorDomain}/products', { path: { vendorDomain: vendor }, query: { page, size: 20 } }), [vendor, page]);
  const name = info.data?.name ?? vendor;
  useTitle(name);
  return html`<div>
    <header class="page-head">
      <h1>${name}</h1>
      <div class="sub">${vendor} · <a href=${href(['watch', 'trends'], { subject: `v:${vendor}:${name}` })}>Adoption trend</a></div>
    </header>
    <div class="grid2">
      <section class="card" aria-labelledby="vprod-title" aria-busy=${products.loading}>
        <h2 id="vprod-title">Products${products.data ? html` <span class="count">${products.data.totalElements}</span>` : ''}</h2>
        <${ErrorBox} error=${products.error} onRetry=${products.reload} />
        ${
          !products.data && !products.error
            ? html`<${Loading} rows=${5} />`
            : products.data &&
              html` <${Table}
                  rows=${products.data.content}
                  rowKey=${(/** @type {Schemas['Product']} */ r) => r.id}
                  empty="This vendor has no products in the catalog."
                  columns=${
                    /** @satisfies {import('./ui.js').Column<Schemas['Product']>[]} */ ([
                      { key: 'name', label: 'Product', render: (p) => html`<a href=${href(['products', vendor, p.id])}>${p.name}</a>` },
                      { key: 'category', label: 'Category' },
                      { key: 'reviewCount', label: 'Reviews', numeric: true },
                    ])
                  }
                />
                <${Pager} page=${page} totalPages=${products.data.totalPages} label="products" onPage=${setPage} />`
        }
      </section>
      <${Users} filter=${{ vendorDomainIn: [vendor] }} label=${name} />
    </div>
  </div>`;
}

export const views = { products: ProductPage, vendors: VendorPage };
