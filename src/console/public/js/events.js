// @ts-check
// Change events as the console shows them: one event (its type, subject, when it happened with
// the bounds, when it was detected, its confidence and the evidence it rests on), a list of
// them, and a company's timeline (GET /companies/{companyDomain}/history, newest first, paged).
import { useState } from 'preact/hooks';
import { html, href, useAsync, Loading, ErrorBox, Empty, Pager, fmtDate, safeHref } from './ui.js';
import { get } from './api.js';

/**
 * @typedef {import('./contract.js').Schemas['Event']} ChangeEvent
 * @typedef {ChangeEvent['type']} EventType
 * @typedef {import('./contract.js').Schemas['Observation']} Observation
 * @typedef {import('./ui.js').FieldEvent} FieldEvent
 * @typedef {import('./ui.js').SelectEvent} SelectEvent
 */

/**
 * What each event type is called on screen. A Record of the contract's types: when the API
 * adds or drops one, the type-check names this list.
 * @type {Record<EventType, string>}
 */
export const EVENT_LABELS = {
  'technology.adopted': 'Adopted',
  'technology.dropped': 'Dropped',
  'technology.version_changed': 'Version changed',
  'technology.hiring': 'Hiring for',
  'company.changed': 'Company changed',
  'feed.item': 'News',
  'monitor.entered': 'Entered monitor',
  'monitor.left': 'Left monitor',
};

/** The timeline's type filter: groups of event types. */
const TYPE_GROUPS = /** @type {const} */ ({
  technology: { label: 'Technology', types: ['technology.adopted', 'technology.dropped', 'technology.version_changed', 'technology.hiring'] },
  company: { label: 'Firmographics', types: ['company.changed'] },
  news: { label: 'News', types: ['feed.item'] },
  monitor: { label: 'Monitors', types: ['monitor.entered', 'monitor.left'] },
});

/** @type {Record<NonNullable<ChangeEvent['field']>, string>} */
const FIELD_LABELS = { industry: 'Industry', country: 'Country', sizeBand: 'Employees', revenueBand: 'Revenue' };

/** @param {ChangeEvent} e */
function subjectOf(e) {
  const product = e.product ? (e.product.name ?? e.product.id) : '';
  switch (e.type) {
    case 'technology.version_changed':
      return html`<strong>${product}</strong> ${e.fromVersion ?? '?'} → ${e.toVersion ?? '?'}`;
    case 'company.changed':
      return html`<strong>${e.field ? FIELD_LABELS[e.field] : 'Firmographics'}</strong> ${e.from ?? 'unknown'} → ${e.to ?? 'unknown'}`;
    case 'feed.item':
      return html`<strong>${e.feedItem?.title ?? ''}</strong>${e.feedItem ? html` <span class="sub">${e.feedItem.category}</span>` : ''}`;
    case 'monitor.entered':
    case 'monitor.left':
      return html`<strong>${e.monitor?.name ?? e.monitor?.id ?? ''}</strong>`;
    default:
      return html`<strong>${product}</strong>`;
  }
}

/** @param {{ value: number }} props */
function Confidence({ value }) {
  const pct = `${Math.round(value * 100)}%`;
  return html`<span class="confidence" title="How sure the change is"
    >${pct}<meter min="0" max="1" low="0.5" optimum="1" value=${value} aria-label=${`Confidence ${pct}`}></meter
  ></span>`;
}

/**
 * The traces of the event's product, seen between its bounds (an adoption's first sighting, a
 * drop's last presence): the observations it rests on, with the pages they were seen on.
 * @param {{ event: ChangeEvent & { product: { id: string } } }} props
 */
function Traces({ event }) {
  const { domain } = event.company;
  const productId = event.product.id;
  const ev = useAsync(
    () => get('/companies/{companyDomain}/products/{productId}/evidence', { path: { companyDomain: domain, productId }, query: { size: 100 } }),
    [domain, productId],
  );
  if (ev.error) return html`<${ErrorBox} error=${ev.error} onRetry=${ev.reload} />`;
  if (!ev.data) return html`<${Loading} label="Loading the traces…" />`;
  const lo = Date.parse(event.occurredBetween.earliest);
  const hi = Date.parse(event.occurredBetween.latest);
  const within = ev.data.content.filter((o) => {
    const t = Date.parse(o.seenAt);
    return t >= lo && t <= hi;
  });
  const shown = within.length > 0 ? within : ev.data.content.slice(0, 3);
  if (shown.length === 0) return html`<p class="hint">No detector observation is listed for this product.</p>`;
  const where = (/** @type {Observation} */ o) => {
    const url = safeHref(o.url);
    return url ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${o.url}</a>` : (o.url ?? o.source);
  };
  return html`${within.length === 0 && html`<p class="hint">No trace is listed between the bounds; the newest ones:</p>`}
    <ul class="traces">
      ${shown.map(
        (o) =>
          html`<li>
            <span class="sub">${fmtDate(o.seenAt)} · ${o.source}</span> <span class="where">${where(o)}</span>
            ${o.excerpt && html`<div><code>${o.excerpt}</code></div>`}
          </li>`,
      )}
    </ul>`;
}

/** @param {{ event: ChangeEvent }} props */
function Evidence({ event }) {
  const [open, setOpen] = useState(false);
  const { hashes, url } = event.evidence;
  const link = safeHref(url);
  if (hashes.length === 0 && !link) return null;
  const product = event.product;
  return html`<details class="event-evidence" onToggle=${(/** @type {import('./ui.js').On<HTMLDetailsElement>} */ e) => setOpen(e.currentTarget.open)}>
    <summary>Evidence: ${hashes.length} ${hashes.length === 1 ? 'trace' : 'traces'}</summary>
    ${open && product && html`<${Traces} event=${{ ...event, product }} />`}
    ${hashes.length > 0 && html`<p class="hashes">Evidence hashes: ${hashes.map((h) => html`<code title=${h}>${h.slice(0, 12)}</code> `)}</p>`}
    ${link && html`<p><a href=${link} target="_blank" rel="noopener noreferrer">The evidence record</a> <span class="sub">${url}</span></p>`}
  </details>`;
}

/** @param {{ event: ChangeEvent, showCompany?: boolean }} props */
function EventItem({ event: e, showCompany = false }) {
  const kind = e.type.split('.')[1] ?? e.type;
  return html`<li class=${`event event-${kind}`}>
    <div class="event-head">
      <span class="tag">${EVENT_LABELS[e.type] ?? e.type}</span>
      <span class="event-subject">${subjectOf(e)}</span>
      ${showCompany && html`<a href=${href(['companies', e.company.domain, 'history'])}>${e.company.name ?? e.company.domain}</a>`}
      <span class="event-when"><time datetime=${e.occurredAt}>${fmtDate(e.occurredAt)}</time></span>
    </div>
    <div class="sub event-meta">
      Happened between ${fmtDate(e.occurredBetween.earliest)} and ${fmtDate(e.occurredBetween.latest)} · detected ${fmtDate(e.detectedAt)} · confidence
      <${Confidence} value=${e.confidence} />
    </div>
    <${Evidence} event=${e} />
  </li>`;
}

/** @param {{ events: ChangeEvent[], showCompany?: boolean, label: string }} props */
export function EventList({ events, showCompany, label }) {
  return html`<ol class="events" aria-label=${label}>
    ${events.map((e) => html`<${EventItem} key=${e.id} event=${e} showCompany=${showCompany} />`)}
  </ol>`;
}

/**
 * A company's timeline, newest first, with its window (from/to) and type filter kept in the
 * URL by the caller: `query` is the route's, `go(changes)` navigates with them.
 * @param {{ domain: string, query: URLSearchParams, go: (changes: Record<string, string | undefined>) => void }} props
 */
export function Timeline({ domain, query, go }) {
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const group = /** @type {keyof typeof TYPE_GROUPS | ''} */ (query.get('types') ?? '');
  const page = Number(query.get('page') ?? 0) || 0;
  const types = group && TYPE_GROUPS[group] ? [...TYPE_GROUPS[group].types] : undefined;
  const data = useAsync(
    () =>
      get('/companies/{companyDomain}/history', {
        path: { companyDomain: domain },
        query: { from: from || undefined, to: to || undefined, types, page, size: 20 },
      }),
    [domain, from, to, group, page],
  );
  const set = (/** @type {string} */ k) => (/** @type {FieldEvent | SelectEvent} */ e) => go({ [k]: e.currentTarget.value || undefined, page: undefined });
  return html`<section class="card" aria-labelledby="timeline-title" aria-busy=${data.loading}>
    <h2 id="timeline-title">Timeline${data.data ? html` <span class="count">${data.data.totalElements}</span>` : ''}</h2>
    <p class="hint">What changed at ${domain}, newest first by when it happened; each change with the window it happened in and its evidence.</p>
    <div class="row-form">
      <label class="inline">From <input type="date" value=${from} onChange=${set('from')} /></label>
      <label class="inline">To <input type="date" value=${to} onChange=${set('to')} /></label>
      <label class="inline"
        >Changes
        <select value=${group} onChange=${set('types')}>
          <option value="">All</option>
          ${Object.entries(TYPE_GROUPS).map(([id, g]) => html`<option value=${id}>${g.label}</option>`)}
        </select></label
      >
    </div>
    <${ErrorBox} error=${data.error} onRetry=${data.reload} />
    ${
      !data.data
        ? !data.error && html`<${Loading} rows=${4} />`
        : data.data.content.length === 0
          ? html`<${Empty}>No change is recorded for this company${from || to || group ? ' with these filters' : ''}.</${Empty}>`
          : html`<${EventList} events=${data.data.content} label=${`Changes at ${domain}`} />
              <${Pager}
                page=${page}
                totalPages=${data.data.totalPages}
                totalElements=${data.data.totalElements}
                label="changes"
                onPage=${(/** @type {number} */ p) => go({ page: p ? String(p) : undefined })}
              />`
    }
  </section>`;
}
