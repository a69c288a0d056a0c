// @ts-check
// The Watch screen: monitors (saved searches or domain lists, with the event types wanted) —
// list, create, delete, and a monitor's events after a cursor (GET /events?monitorId=…) —, a
// company's timeline of changes, and adoption trends of a product, category or vendor. Every
// view has its URL: #/watch, #/watch/monitors/{id}, #/watch/timeline?domain=…,
// #/watch/trends?subject=…&from=…&to=…. Monitors belong to the console's API client, so
// everyone signed in to the console shares them.
import { useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Empty, Tabs, fmtDate, useTitle } from './ui.js';
import { get, post, del } from './api.js';
import { EVENT_LABELS, EventList, Timeline } from './events.js';
import { Trends } from './trend.js';
import { TechPicker, parseTech } from './search.js';

/**
 * @typedef {import('./contract.js').Schemas['Monitor']} Monitor
 * @typedef {import('./contract.js').Schemas['Event']} ChangeEvent
 * @typedef {Monitor['eventTypes'][number]} EventType
 * @typedef {import('./contract.js').PostBody<'/monitors'>} MonitorBody
 * @typedef {NonNullable<NonNullable<MonitorBody['search']>['filter']>} Filter
 * @typedef {import('./ui.js').Route} Route
 * @typedef {import('./ui.js').Problem} Problem
 * @typedef {import('./ui.js').FieldEvent} FieldEvent
 * @typedef {import('./ui.js').FormEvent} FormEvent
 */

const ALL_TYPES = /** @type {EventType[]} */ (Object.keys(EVENT_LABELS));
const EVENTS_PER_LOAD = 50;

/** Words and commas to a list: domains, country codes. */
const listOf = (/** @type {string} */ text) =>
  text
    .split(/[\s,;]+/u)
    .map((s) => s.trim())
    .filter(Boolean);

/** @param {{ onCreated: (m: Monitor) => void }} props */
function NewMonitor({ onCreated }) {
  const industries = useAsync(() => get('/industries'), []);
  const [kind, setKind] = useState(/** @type {'domains' | 'search'} */ ('domains'));
  const [tech, setTech] = useState(/** @type {string[]} */ ([]));
  // technology.hiring is reserved (no event of it yet): offered, not chosen by default.
  const [types, setTypes] = useState(/** @type {EventType[]} */ (ALL_TYPES.filter((t) => t !== 'technology.hiring')));
  const [state, setState] = useState(/** @type {{ busy: boolean, error: Problem | null }} */ ({ busy: false, error: null }));
  const submit = async (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    if (types.length === 0) return setState({ busy: false, error: { message: 'Choose at least one event type.' } });
    /** @type {MonitorBody} */
    const body = { name: String(f.get('name') ?? ''), eventTypes: types };
    if (kind === 'domains') body.domains = listOf(String(f.get('domains') ?? ''));
    else {
      /** @type {Filter} */
      const filter = {};
      const products = tech.map(parseTech).filter((t) => t.kind === 'p');
      const vendors = tech.map(parseTech).filter((t) => t.kind === 'v');
      if (products.length) filter.productIdIn = products.map((t) => t.id);
      if (vendors.length) filter.vendorDomainIn = vendors.map((t) => t.id);
      const countries = listOf(String(f.get('countries') ?? ''));
      if (countries.length) filter.countryIn = countries;
      const chosen = /** @type {string[]} */ (f.getAll('industries').map(String));
      if (chosen.length) filter.industryIn = chosen;
      body.search = { filter };
    }
    setState({ busy: true, error: null });
    try {
      const created = await post('/monitors', { body });
      setState({ busy: false, error: null });
      form.reset();
      setTech([]);
      onCreated(created);
    } catch (err) {
      setState({ busy: false, error: /** @type {Problem} */ (err) });
    }
  };
  return html`<form class="card" onSubmit=${submit} aria-labelledby="new-monitor-title">
    <h2 id="new-monitor-title">New monitor</h2>
    <div class="field"><label for="m-name">Name</label><input id="m-name" name="name" required maxlength="200" /></div>
    <fieldset class="checks">
      <legend>Companies</legend>
      <label class="check"
        ><input type="radio" name="kind" value="domains" checked=${kind === 'domains'} onChange=${() => setKind('domains')} />A list of domains</label
      >
      <label class="check"
        ><input type="radio" name="kind" value="search" checked=${kind === 'search'} onChange=${() => setKind('search')} />Those matching a search</label
      >
    </fieldset>
    ${
      kind === 'domains'
        ? html`<div class="field">
            <label for="m-domains">Domains</label>
            <textarea id="m-domains" name="domains" rows="3" required placeholder="acme.com, example.org" aria-describedby="m-domains-hint"></textarea>
            <small id="m-domains-hint" class="hint">Separated by commas, spaces or lines; at most 1,000.</small>
          </div>`
        : html`<${TechPicker} id="m-tech" label="Uses technologies" tokens=${tech} onChange=${setTech} />
            <div class="field"><label for="m-countries">Countries</label><input id="m-countries" name="countries" placeholder="e.g. NO, DE" /></div>
            <div class="field">
              <label for="m-industries">Industries</label>
              <select id="m-industries" name="industries" multiple size="4">
                ${(industries.data ?? []).map((i) => html`<option value=${i.id}>${i.name}</option>`)}
              </select>
            </div>`
    }
    <fieldset class="checks">
      <legend>Event types</legend>
      ${ALL_TYPES.map(
        (t) =>
          html`<label class="check"
            ><input
              type="checkbox"
              name="eventTypes"
              value=${t}
              checked=${types.includes(t)}
              onChange=${(/** @type {FieldEvent} */ e) => setTypes((ts) => (e.currentTarget.checked ? [...ts, t] : ts.filter((x) => x !== t)))}
            />${EVENT_LABELS[t]} <span class="sub">${t}</span></label
          >`,
      )}
    </fieldset>
    <${ErrorBox} error=${state.error} />
    <button type="submit" class="primary" disabled=${state.busy}>${state.busy ? 'Creating…' : 'Create monitor'}</button>
  </form>`;
}

/** @param {{ monitors: Monitor[], selected: string | undefined }} props */
function MonitorList({ monitors, selected }) {
  if (monitors.length === 0) return html`<${Empty}>No monitor yet: create one below.</${Empty}>`;
  return html`<ul class="monitors">
    ${monitors.map(
      (m) =>
        html`<li key=${m.id}>
          <a href=${href(['watch', 'monitors', m.id])} aria-current=${m.id === selected ? 'page' : undefined}>${m.name}</a>
          <span class="sub">${m.members} ${m.members === 1 ? 'company' : 'companies'}</span>
        </li>`,
    )}
  </ul>`;
}

/**
 * The monitor's events in the order the feed publishes them (oldest first); "Load more"
 * follows the cursor, and once caught up asks again for newer ones.
 * @param {{ monitorId: string }} props
 */
function MonitorEvents({ monitorId }) {
  const [more, setMore] = useState(/** @type {{ events: ChangeEvent[], cursor: string, hasMore: boolean } | null} */ (null));
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(/** @type {Problem | null} */ (null));
  const first = useAsync(() => get('/events', { query: { monitorId, limit: EVENTS_PER_LOAD } }), [monitorId]);
  if (first.error) return html`<${ErrorBox} error=${first.error} onRetry=${first.reload} />`;
  if (!first.data) return html`<${Loading} rows=${3} label="Loading the events…" />`;
  const page = more ?? first.data;
  const loadMore = async () => {
    setLoading(true);
    setError(null);
    try {
      const next = await get('/events', { query: { monitorId, limit: EVENTS_PER_LOAD, cursor: page.cursor } });
      setMore({ events: [...page.events, ...next.events], cursor: next.cursor, hasMore: next.hasMore });
    } catch (err) {
      setError(/** @type {Problem} */ (err));
    }
    setLoading(false);
  };
  return html`<div aria-busy=${loading}>
    <h3>Events <span class="count">${page.events.length}</span></h3>
    <p class="hint">Oldest first, as they were published.</p>
    ${page.events.length === 0 ? html`<${Empty}>No event yet for this monitor.</${Empty}>` : html`<${EventList} events=${page.events} showCompany=${true} label="The monitor's events" />`}
    <${ErrorBox} error=${error} />
    <button type="button" onClick=${loadMore} disabled=${loading}>${loading ? 'Loading…' : page.hasMore ? 'Load more' : 'Check for newer events'}</button>
  </div>`;
}

/** @param {{ monitor: Monitor, onDeleted: () => void }} props */
function MonitorDetail({ monitor, onDeleted }) {
  const [confirming, setConfirming] = useState(false);
  const [state, setState] = useState(/** @type {{ busy: boolean, error: Problem | null }} */ ({ busy: false, error: null }));
  const remove = async () => {
    setState({ busy: true, error: null });
    try {
      await del('/monitors/{monitorId}', { path: { monitorId: monitor.id } });
      onDeleted();
    } catch (err) {
      setState({ busy: false, error: /** @type {Problem} */ (err) });
    }
  };
  const filter = /** @type {{ filter?: unknown } | null} */ (monitor.search)?.filter;
  const listed = (monitor.domains ?? []).slice(0, 20).map((d, i) => html`${i ? ', ' : ''}<a href=${href(['companies', d, 'history'])}>${d}</a>`);
  return html`<section class="card" aria-labelledby="monitor-title">
    <h2 id="monitor-title">${monitor.name} <span class="count">${monitor.members} ${monitor.members === 1 ? 'company' : 'companies'}</span></h2>
    <dl class="facts">
      <div>
        <dt>Companies</dt>
        <dd>
          ${
            monitor.domains
              ? html`${monitor.domains.length} listed: ${listed}${monitor.domains.length > 20 ? ', …' : ''}`
              : html`those matching <code class="params">${JSON.stringify(filter ?? monitor.search)}</code>`
          }
        </dd>
      </div>
      <div>
        <dt>Event types</dt>
        <dd>${monitor.eventTypes.map((t) => EVENT_LABELS[t] ?? t).join(', ')}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>${fmtDate(monitor.createdAt)}</dd>
      </div>
    </dl>
    <div class="actions">
      ${
        confirming
          ? html`<span>Delete this monitor? Its past events stay in the feed.</span>
              <button type="button" class="danger" onClick=${remove} disabled=${state.busy}>${state.busy ? 'Deleting…' : 'Yes, delete'}</button>
              <button type="button" onClick=${() => setConfirming(false)}>Cancel</button>`
          : html`<button type="button" class="danger" onClick=${() => setConfirming(true)}>Delete monitor</button>`
      }
    </div>
    <${ErrorBox} error=${state.error} />
    <${MonitorEvents} key=${monitor.id} monitorId=${monitor.id} />
  </section>`;
}

/** @param {{ selected: string | undefined }} props */
function Monitors({ selected }) {
  const list = useAsync(() => get('/monitors', { query: { size: 100 } }), []);
  const monitors = list.data?.content ?? [];
  const current = monitors.find((m) => m.id === selected);
  return html`<div class="grid-aside">
    <div>
      <section class="card" aria-labelledby="monitors-title" aria-busy=${list.loading}>
        <h2 id="monitors-title">Monitors${list.data ? html` <span class="count">${list.data.totalElements}</span>` : ''}</h2>
        <p class="hint">Shared by everyone signed in to the console.</p>
        <${ErrorBox} error=${list.error} onRetry=${list.reload} />
        ${list.data ? html`<${MonitorList} monitors=${monitors} selected=${selected} />` : !list.error && html`<${Loading} rows=${2} />`}
      </section>
      <${NewMonitor}
        onCreated=${(/** @type {Monitor} */ m) => {
          list.reload();
          navigate(href(['watch', 'monitors', m.id]));
        }}
      />
    </div>
    ${
      current
        ? html`<${MonitorDetail}
            key=${current.id}
            monitor=${current}
            onDeleted=${() => {
              list.reload();
              navigate('#/watch', { replace: true });
            }}
          />`
        : html`<section class="card">
            <h2>Events</h2>
            ${
              selected && list.data
                ? html`<${ErrorBox} error=${{ status: 404, message: `No monitor ${selected}: it may have been deleted.` }} />`
                : html`<p class="hint">
                    Choose a monitor to read its events: adoptions, drops and version changes of its companies' technologies, firmographic changes, news, and
                    companies entering or leaving it.
                  </p>`
            }
          </section>`
    }
  </div>`;
}

/** @param {{ route: Route }} props */
function CompanyTimeline({ route }) {
  const domain = route.query.get('domain') ?? '';
  // The field starts from the URL; the parent mounts a new timeline when the domain in the URL
  // changes (its key), so no effect resets what the user is typing.
  const [text, setText] = useState(domain);
  const go = (/** @type {Record<string, string | undefined>} */ changes) =>
    navigate(href(['watch', 'timeline'], { ...Object.fromEntries(route.query), ...changes }), { replace: true });
  return html`<div>
    <form
      class="card row-form"
      onSubmit=${(/** @type {FormEvent} */ e) => {
        e.preventDefault();
        navigate(href(['watch', 'timeline'], { domain: text.trim() }));
      }}
    >
      <label class="inline" for="t-domain">Company domain</label>
      <input id="t-domain" value=${text} onInput=${(/** @type {FieldEvent} */ e) => setText(e.currentTarget.value)} placeholder="acme.com" required />
      <button type="submit" class="primary">Show timeline</button>
      ${domain && html`<a href=${href(['companies', domain])}>Company page</a>`}
    </form>
    ${domain && html`<${Timeline} key=${domain} domain=${domain} query=${route.query} go=${go} />`}
  </div>`;
}

/** @param {{ route: Route }} props */
function Watch({ route }) {
  const section = route.parts[1] === 'timeline' || route.parts[1] === 'trends' ? route.parts[1] : 'monitors';
  useTitle(section === 'timeline' ? 'Company timeline' : section === 'trends' ? 'Adoption trends' : 'Monitors');
  const tabs = [
    { id: 'monitors', label: 'Monitors', href: '#/watch' },
    { id: 'timeline', label: 'Company timeline', href: '#/watch/timeline' },
    { id: 'trends', label: 'Adoption trends', href: '#/watch/trends' },
  ];
  return html`<div class="watch">
    <header class="page-head">
      <h1>Watch</h1>
      <div class="sub">Follow changes: monitors and their events, a company's timeline, adoption trends.</div>
    </header>
    <${Tabs} tabs=${tabs} current=${section} label="Watch sections" />
    ${section === 'monitors' && html`<${Monitors} selected=${route.parts[1] === 'monitors' ? route.parts[2] : undefined} />`}
    ${section === 'timeline' && html`<${CompanyTimeline} key=${route.query.get('domain') ?? ''} route=${route} />`}
    ${section === 'trends' && html`<${Trends} route=${route} />`}
  </div>`;
}

export const views = { watch: Watch };
