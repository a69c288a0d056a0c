// @ts-check
// Admin screens over /api/admin/*: console people (users), clients, API keys (the secret is shown once, on
// creation; revoke), plans, credits, usage, the audit log with its filters, and the queue of data-quality
// feedback reports (accept or reject each).
import { useState } from 'preact/hooks';
import { html, href, navigate, useAsync, Loading, ErrorBox, Empty, Table, Pager, Tabs, fmtDateTime, useTitle } from './ui.js';
import { get, post } from './api.js';
import { ROLES } from './choices.js';

/**
 * @typedef {import('./contract.js').Schemas} Schemas
 * @typedef {import('./contract.js').Role} Role
 * @typedef {import('./contract.js').User} User
 * @typedef {import('./ui.js').Route} Route
 * @typedef {import('./ui.js').Problem} Problem
 * @typedef {import('./ui.js').FormEvent} FormEvent
 * @typedef {import('./ui.js').SelectEvent} SelectEvent
 * @typedef {Schemas['AdminCredits']['ledger']['content'][number]} LedgerEntry
 * @typedef {Schemas['AuditPage']['entries'][number]} AuditEntry
 */
/**
 * @template T
 * @typedef {[{ busy: boolean, error: Problem | null, result: T | null }, (fn: () => Promise<T>) => Promise<T | undefined>]} Action
 */

const TABS = [
  ['users', 'People'],
  ['clients', 'Clients'],
  ['keys', 'API keys'],
  ['plans', 'Plans'],
  ['credits', 'Credits'],
  ['usage', 'Usage'],
  ['audit', 'Audit log'],
  ['feedback', 'Feedback'],
];
/** @type {NonNullable<Schemas['AdminFeedbackReport']['status']>[]} */
const FEEDBACK_STATUSES = ['open', 'accepted', 'rejected'];
/** @type {NonNullable<Schemas['AuditPage']['entries'][number]['outcome']>[]} */
const OUTCOMES = ['success', 'failure', 'denied'];

/**
 * An admin change: its state (busy, the error, the answer) and how to run it.
 * @template T
 * @returns {Action<T>}
 */
function useAction() {
  const [state, setState] = useState(/** @type {Action<T>[0]} */ ({ busy: false, error: null, result: null }));
  const run = async (/** @type {() => Promise<T>} */ fn) => {
    setState({ busy: true, error: null, result: null });
    try {
      const result = await fn();
      setState({ busy: false, error: null, result });
      return result;
    } catch (error) {
      setState({ busy: false, error: /** @type {Problem} */ (error), result: null });
      return undefined;
    }
  };
  return [state, run];
}

/**
 * The client the per-client tabs work on, chosen from the list and kept in the URL.
 * @param {{ tab: string, clientId: string | undefined }} props
 */
function ClientPicker({ tab, clientId }) {
  const clients = useAsync(() => get('/admin/clients', { query: { size: 200 } }), []);
  return html`<label class="inline"
      >Client
      <select value=${clientId ?? ''} onChange=${(/** @type {SelectEvent} */ e) => navigate(href(['admin', tab], { client: e.currentTarget.value }))}>
        <option value="">Choose a client…</option>
        ${(clients.data?.content ?? []).map((c) => html`<option value=${c.clientId}>${c.name} (${c.clientId})</option>`)}
      </select></label
    >
    <${ErrorBox} error=${clients.error} />`;
}

/** @param {{ user: User }} props */
function Users({ user: me }) {
  const [page, setPage] = useState(0);
  const list = useAsync(() => get('/admin/users', { query: { page, size: 20 } }), [page]);
  /** @type {Action<Schemas['CreatedConsoleUser']>} */
  const [create, runCreate] = useAction();
  /** @type {Action<unknown>} */
  const [change, runChange] = useAction();
  const submit = async (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    /** @type {import('./contract.js').PostBody<'/admin/users'>} */
    const body = { email: String(f.get('email')), name: String(f.get('name')), role: /** @type {Role} */ (String(f.get('role'))) };
    if (f.get('password')) body.password = String(f.get('password'));
    if (await runCreate(() => post('/admin/users', { body }))) {
      form.reset();
      list.reload();
    }
  };
  const act = async (/** @type {() => Promise<unknown>} */ fn) => (await runChange(fn)) && list.reload();
  return html`<div class="grid-aside">
    <form class="card" onSubmit=${submit} aria-labelledby="new-user">
      <h2 id="new-user">Add a person</h2>
      <div class="field"><label for="u-email">Email</label><input id="u-email" name="email" type="email" required autocomplete="off" /></div>
      <div class="field"><label for="u-name">Name</label><input id="u-name" name="name" required maxlength="200" /></div>
      <div class="field">
        <label for="u-role">Role</label
        ><select id="u-role" name="role">
          ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="u-password">Password</label
        ><input id="u-password" name="password" type="password" autocomplete="new-password" aria-describedby="u-password-hint" /><small
          id="u-password-hint"
          class="hint"
          >Leave empty to generate one (shown once).</small
        >
      </div>
      <button type="submit" class="primary" disabled=${create.busy}>Add person</button>
      <${ErrorBox} error=${create.error} />
      ${
        create.result &&
        html`<div class="secret" role="status">
          <p>
            <strong>${create.result.user.email} can sign in now.</strong>${create.result.password ? ' Their generated password, shown only this once:' : ''}
          </p>
          ${create.result.password && html`<code>${create.result.password}</code>`}
        </div>`
      }
    </form>
    <section class="card" aria-labelledby="users-title" aria-busy=${list.loading}>
      <h2 id="users-title">People who use the console</h2>
      <${ErrorBox} error=${list.error ?? change.error} onRetry=${list.reload} />
      ${
        !list.data && !list.error
          ? html`<${Loading} rows=${5} />`
          : list.data &&
            html` <${Table}
                rows=${list.data.content}
                rowKey=${(/** @type {Schemas['ConsoleUser']} */ u) => u.id}
                empty="Nobody yet."
                columns=${
                  /** @satisfies {import('./ui.js').Column<Schemas['ConsoleUser']>[]} */ ([
                    {
                      key: 'name',
                      label: 'Person',
                      render: (u) =>
                        html`${u.name}
                          <div class="sub">${u.email}</div>`,
                    },
                    {
                      key: 'role',
                      label: 'Role',
                      render: (u) =>
                        u.id === me.id
                          ? u.role
                          : html`<select
                              aria-label=${`Role of ${u.name}`}
                              value=${u.role}
                              disabled=${change.busy}
                              onChange=${(/** @type {SelectEvent} */ e) => act(() => post('/admin/users/{userId}', { path: { userId: u.id }, body: { role: /** @type {Role} */ (e.currentTarget.value) } }))}
                            >
                              ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
                            </select>`,
                    },
                    { key: 'createdAt', label: 'Since', render: (u) => fmtDateTime(u.createdAt) },
                    { key: 'disabled', label: 'State', render: (u) => (u.disabled ? 'disabled' : 'active') },
                    {
                      key: 'actions',
                      label: 'Actions',
                      sortable: false,
                      render: (u) =>
                        u.id === me.id
                          ? html`<span class="sub">you</span>`
                          : html`<button
                              type="button"
                              disabled=${change.busy}
                              onClick=${() => act(() => post(u.disabled ? '/admin/users/{userId}/enable' : '/admin/users/{userId}/disable', { path: { userId: u.id }, body: {} }))}
                            >
                              ${u.disabled ? 'Enable' : 'Disable'}<span class="visually-hidden"> ${u.name}</span>
                            </button>`,
                    },
                  ])
                }
              />
              <${Pager} page=${page} totalPages=${list.data.totalPages} totalElements=${list.data.totalElements} label="people" onPage=${setPage} />`
      }
    </section>
  </div>`;
}

function Clients() {
  const [page, setPage] = useState(0);
  const list = useAsync(() => get('/admin/clients', { query: { page, size: 20 } }), [page]);
  const plans = useAsync(() => get('/admin/plans', { query: { size: 200 } }), []);
  /** @type {Action<Schemas['CreatedClient']>} */
  const [create, runCreate] = useAction();
  /** @type {Action<unknown>} */
  const [toggle, runToggle] = useAction();
  const submit = async (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    /** @type {import('./contract.js').PostBody<'/admin/clients'>} */
    const body = { name: String(f.get('name')), plan: String(f.get('plan')) };
    if (f.get('role')) body.role = /** @type {Role} */ (String(f.get('role')));
    if (await runCreate(() => post('/admin/clients', { body }))) list.reload();
  };
  return html`<div class="grid-aside">
    <form class="card" onSubmit=${submit} aria-labelledby="new-client">
      <h2 id="new-client">New client</h2>
      <div class="field"><label for="c-name">Name</label><input id="c-name" name="name" required maxlength="200" /></div>
      <div class="field">
        <label for="c-plan">Plan</label
        ><select id="c-plan" name="plan" required>
          ${(plans.data?.content ?? []).map((p) => html`<option value=${p.id}>${p.id}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="c-role">Admin role</label
        ><select id="c-role" name="role">
          <option value="">none (plain API client)</option>
          ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
        </select>
      </div>
      <button type="submit" class="primary" disabled=${create.busy}>Create client</button>
      <${ErrorBox} error=${create.error} />
      ${
        create.result &&
        html`<div class="secret" role="status">
          <p><strong>Client ${create.result.client.clientId} created.</strong> Copy its secret now: it is not shown again.</p>
          <code>${create.result.clientSecret}</code>
        </div>`
      }
    </form>
    <section class="card" aria-labelledby="clients-title" aria-busy=${list.loading}>
      <h2 id="clients-title">Clients</h2>
      <${ErrorBox} error=${list.error ?? toggle.error} onRetry=${list.reload} />
      ${
        !list.data && !list.error
          ? html`<${Loading} rows=${6} />`
          : list.data &&
            html` <${Table}
                rows=${list.data.content}
                rowKey=${(/** @type {Schemas['AdminClient']} */ c) => c.clientId}
                columns=${
                  /** @satisfies {import('./ui.js').Column<Schemas['AdminClient']>[]} */ ([
                    {
                      key: 'name',
                      label: 'Client',
                      render: (c) =>
                        html`${c.name}
                          <div class="sub">${c.clientId}</div>`,
                    },
                    { key: 'plan', label: 'Plan' },
                    { key: 'role', label: 'Role', render: (c) => c.role ?? '—' },
                    { key: 'credits', label: 'Credits', numeric: true },
                    { key: 'disabled', label: 'State', render: (c) => (c.disabled ? 'disabled' : 'active') },
                    {
                      key: 'actions',
                      label: 'Actions',
                      sortable: false,
                      render: (c) =>
                        html` <a href=${href(['admin', 'keys'], { client: c.clientId })}>Keys</a>
                          <button
                            type="button"
                            class="link"
                            disabled=${toggle.busy}
                            onClick=${async () => (await runToggle(() => post(c.disabled ? '/admin/clients/{clientId}/enable' : '/admin/clients/{clientId}/disable', { path: { clientId: c.clientId }, body: {} }))) && list.reload()}
                          >
                            ${c.disabled ? 'Enable' : 'Disable'}<span class="visually-hidden"> ${c.name}</span>
                          </button>`,
                    },
                  ])
                }
              />
              <${Pager} page=${page} totalPages=${list.data.totalPages} totalElements=${list.data.totalElements} label="clients" onPage=${setPage} />`
      }
    </section>
  </div>`;
}

/** @param {{ clientId: string | undefined }} props */
function Keys({ clientId }) {
  const keys = useAsync(() => (clientId ? get('/admin/clients/{clientId}/keys', { path: { clientId }, query: { size: 200 } }) : null), [clientId]);
  /** @type {Action<Schemas['CreatedApiKey']>} */
  const [create, runCreate] = useAction();
  /** @type {Action<unknown>} */
  const [revoke, runRevoke] = useAction();
  const [confirming, setConfirming] = useState(/** @type {string | null} */ (null));
  if (!clientId) return html`<${Empty}>Choose a client to see its API keys.</${Empty}>`;
  const submit = async (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    if (await runCreate(() => post('/admin/clients/{clientId}/keys', { path: { clientId }, body: name ? { name } : {} }))) {
      e.currentTarget?.reset?.();
      keys.reload();
    }
  };
  return html`<div class="grid-aside">
    <form class="card" onSubmit=${submit} aria-labelledby="new-key">
      <h2 id="new-key">New API key</h2>
      <div class="field"><label for="k-name">Label</label><input id="k-name" name="name" maxlength="200" placeholder="e.g. CRM sync" /></div>
      <button type="submit" class="primary" disabled=${create.busy}>Create key</button>
      <${ErrorBox} error=${create.error} />
      ${
        create.result &&
        html`<div class="secret" role="status">
          <p><strong>Key created.</strong> Copy it now: it is shown only this once.</p>
          <code class="api-key">${create.result.apiKey}</code>
        </div>`
      }
    </form>
    <section class="card" aria-labelledby="keys-title" aria-busy=${keys.loading}>
      <h2 id="keys-title">API keys of ${clientId}</h2>
      <${ErrorBox} error=${keys.error ?? revoke.error} onRetry=${keys.reload} />
      ${
        !keys.data && !keys.error
          ? html`<${Loading} rows=${4} />`
          : keys.data &&
            html` <${Table}
              rows=${keys.data.content}
              rowKey=${(/** @type {Schemas['AdminApiKey']} */ k) => k.id}
              empty="This client has no API keys."
              columns=${
                /** @satisfies {import('./ui.js').Column<Schemas['AdminApiKey']>[]} */ ([
                  { key: 'name', label: 'Label', render: (k) => k.name ?? '—' },
                  { key: 'prefix', label: 'Key', render: (k) => html`<code>sl_${k.prefix}_…</code>` },
                  { key: 'createdAt', label: 'Created', render: (k) => fmtDateTime(k.createdAt) },
                  { key: 'lastUsedAt', label: 'Last used', render: (k) => fmtDateTime(k.lastUsedAt) },
                  { key: 'revoked', label: 'State', render: (k) => (k.revoked ? `revoked ${fmtDateTime(k.revokedAt)}` : 'active') },
                  {
                    key: 'actions',
                    label: 'Actions',
                    sortable: false,
                    render: (k) =>
                      k.revoked
                        ? ''
                        : confirming === k.id
                          ? html`<span class="confirm-inline"
                              >Revoke for good?
                              <button
                                type="button"
                                class="danger"
                                disabled=${revoke.busy}
                                onClick=${async () => {
                                  if (await runRevoke(() => post('/admin/keys/{keyId}/revoke', { path: { keyId: k.id }, body: {} }))) {
                                    setConfirming(null);
                                    keys.reload();
                                  }
                                }}
                              >
                                Yes, revoke
                              </button>
                              <button type="button" onClick=${() => setConfirming(null)}>Cancel</button></span
                            >`
                          : html`<button type="button" onClick=${() => setConfirming(k.id)}>
                              Revoke<span class="visually-hidden"> key ${k.name ?? k.prefix}</span>
                            </button>`,
                  },
                ])
              }
            />`
      }
    </section>
  </div>`;
}

function Plans() {
  const plans = useAsync(() => get('/admin/plans', { query: { size: 200 } }), []);
  const yes = (/** @type {boolean} */ b) => (b ? 'yes' : 'no');
  return html`<section class="card" aria-labelledby="plans-title" aria-busy=${plans.loading}>
    <h2 id="plans-title">Plans</h2>
    <${ErrorBox} error=${plans.error} onRetry=${plans.reload} />
    ${
      !plans.data && !plans.error
        ? html`<${Loading} rows=${4} />`
        : plans.data &&
          html`<${Table}
            rows=${plans.data.content}
            rowKey=${(/** @type {Schemas['AdminPlan']} */ p) => p.id}
            columns=${
              /** @satisfies {import('./ui.js').Column<Schemas['AdminPlan']>[]} */ ([
                {
                  key: 'id',
                  label: 'Plan',
                  render: (p) =>
                    html`${p.id}
                      <div class="sub">${p.description ?? ''}</div>`,
                },
                { key: 'canExport', label: 'Export', render: (p) => yes(p.canExport) },
                { key: 'canAi', label: 'AI', render: (p) => yes(p.canAi) },
                { key: 'canPurchase', label: 'Purchase', render: (p) => yes(p.canPurchase) },
                { key: 'initialCredits', label: 'Initial credits', numeric: true },
                { key: 'requestsPerMinute', label: 'Requests / min', numeric: true },
                { key: 'aiRequestsPerMinute', label: 'AI / min', numeric: true },
                { key: 'exportRequestsPerMinute', label: 'Exports / min', numeric: true },
                { key: 'maxMonitors', label: 'Monitors', numeric: true },
                { key: 'maxWebhooks', label: 'Webhooks', numeric: true },
                { key: 'eventsPerDay', label: 'Events / day', numeric: true },
              ])
            }
          />`
    }
  </section>`;
}

/** @param {{ clientId: string | undefined }} props */
function Credits({ clientId }) {
  const [page, setPage] = useState(0);
  const credits = useAsync(
    () => (clientId ? get('/admin/clients/{clientId}/credits', { path: { clientId }, query: { page, size: 20 } }) : null),
    [clientId, page],
  );
  /** @type {Action<unknown>} */
  const [grant, runGrant] = useAction();
  if (!clientId) return html`<${Empty}>Choose a client to see its credits.</${Empty}>`;
  const submit = async (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const body = { amount: Number(f.get('amount')), reason: String(f.get('reason')) };
    if (await runGrant(() => post('/admin/clients/{clientId}/credits', { path: { clientId }, body }))) credits.reload();
  };
  return html`<div class="grid-aside">
    <form class="card" onSubmit=${submit} aria-labelledby="grant-title">
      <h2 id="grant-title">Grant credits</h2>
      <div class="field"><label for="g-amount">Amount (negative removes)</label><input id="g-amount" name="amount" type="number" step="1" required /></div>
      <div class="field"><label for="g-reason">Reason</label><input id="g-reason" name="reason" required maxlength="200" /></div>
      <button type="submit" class="primary" disabled=${grant.busy}>Grant</button>
      <${ErrorBox} error=${grant.error} />
    </form>
    <section class="card" aria-labelledby="ledger-title" aria-busy=${credits.loading}>
      <h2 id="ledger-title">Balance: ${credits.data ? credits.data.balance : '…'} credits</h2>
      <${ErrorBox} error=${credits.error} onRetry=${credits.reload} />
      ${
        !credits.data && !credits.error
          ? html`<${Loading} rows=${5} />`
          : credits.data &&
            html` <${Table}
                rows=${credits.data.ledger.content}
                rowKey=${(/** @type {LedgerEntry} */ e) => e.id}
                empty="No ledger entries."
                columns=${
                  /** @satisfies {import('./ui.js').Column<LedgerEntry>[]} */ ([
                    { key: 'createdAt', label: 'When', render: (e) => fmtDateTime(e.createdAt) },
                    { key: 'delta', label: 'Change', numeric: true, render: (e) => (e.delta > 0 ? `+${e.delta}` : e.delta) },
                    { key: 'reason', label: 'Reason' },
                    { key: 'reference', label: 'Reference', render: (e) => e.reference ?? '—' },
                  ])
                }
              />
              <${Pager} page=${page} totalPages=${credits.data.ledger.totalPages} label="entries" onPage=${setPage} />`
      }
    </section>
  </div>`;
}

/** @param {{ clientId: string | undefined, route: Route }} props */
function Usage({ clientId, route }) {
  const from = route.query.get('from') ?? '';
  const to = route.query.get('to') ?? '';
  const usage = useAsync(() => (clientId ? get('/admin/clients/{clientId}/usage', { path: { clientId }, query: { from, to } }) : null), [clientId, from, to]);
  if (!clientId) return html`<${Empty}>Choose a client to see its usage.</${Empty}>`;
  const submit = (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    navigate(href(['admin', 'usage'], { client: clientId, from: f.get('from'), to: f.get('to') }));
  };
  const u = usage.data;
  return html`<section class="card" aria-labelledby="usage-title" aria-busy=${usage.loading}>
    <h2 id="usage-title">Usage${u ? ` ${u.from} to ${u.to}: ${u.totalRequests} requests, ${u.totalErrors} errors` : ''}</h2>
    <form class="row-form" onSubmit=${submit}>
      <label class="inline">From <input type="date" name="from" value=${from} /></label>
      <label class="inline">To <input type="date" name="to" value=${to} /></label>
      <button type="submit">Show</button>
    </form>
    <${ErrorBox} error=${usage.error} onRetry=${usage.reload} />
    ${
      !u && !usage.error
        ? html`<${Loading} rows=${5} />`
        : u &&
          html`<${Table}
            rows=${u.byOperation}
            rowKey=${(/** @type {Schemas['AdminUsage']['byOperation'][number]} */ r) => r.operation}
            empty="No requests in this period."
            columns=${[
              { key: 'operation', label: 'Operation' },
              { key: 'requests', label: 'Requests', numeric: true },
              { key: 'errors', label: 'Errors', numeric: true },
            ]}
          />`
    }
  </section>`;
}

/** @param {{ route: Route }} props */
function Audit({ route }) {
  const q = route.query;
  const filters = {
    clientId: q.get('actor') ?? '',
    action: q.get('action') ?? '',
    outcome: q.get('outcome') ?? '',
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
  };
  const [cursors, setCursors] = useState(/** @type {string[]} */ ([]));
  const cursor = cursors[cursors.length - 1];
  const key = JSON.stringify(filters);
  const audit = useAsync(
    () =>
      get('/admin/audit', {
        query: {
          ...filters,
          // As the URL has it: the API refuses another outcome with a message the screen shows.
          outcome: /** @type {AuditEntry['outcome']} */ (filters.outcome),
          from: filters.from ? new Date(filters.from).toISOString() : '',
          to: filters.to ? new Date(filters.to).toISOString() : '',
          cursor,
          size: 50,
        },
      }),
    [key, cursor],
  );
  const submit = (/** @type {FormEvent} */ e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setCursors([]);
    navigate(href(['admin', 'audit'], { actor: f.get('actor'), action: f.get('action'), outcome: f.get('outcome'), from: f.get('from'), to: f.get('to') }));
  };
  return html`<section class="card" aria-labelledby="audit-title" aria-busy=${audit.loading}>
    <h2 id="audit-title">Audit log</h2>
    <form class="row-form" onSubmit=${submit} aria-label="Audit filters">
      <label class="inline">Client <input name="actor" value=${filters.clientId} placeholder="cli_…" /></label>
      <label class="inline">Action <input name="action" value=${filters.action} placeholder="e.g. profiles.purchase" /></label>
      <label class="inline"
        >Outcome
        <select name="outcome" value=${filters.outcome}>
          <option value="">any</option>
          ${OUTCOMES.map((o) => html`<option>${o}</option>`)}
        </select></label
      >
      <label class="inline">From <input type="datetime-local" name="from" value=${filters.from} /></label>
      <label class="inline">To <input type="datetime-local" name="to" value=${filters.to} /></label>
      <button type="submit">Filter</button>
    </form>
    <${ErrorBox} error=${audit.error} onRetry=${audit.reload} />
    ${
      !audit.data && !audit.error
        ? html`<${Loading} rows=${8} />`
        : audit.data &&
          html` <${Table}
              rows=${audit.data.entries}
              rowKey=${(/** @type {AuditEntry} */ e) => e.id}
              empty="No audit entries match."
              columns=${
                /** @satisfies {import('./ui.js').Column<AuditEntry>[]} */ ([
                  { key: 'at', label: 'When', render: (e) => fmtDateTime(e.at) },
                  { key: 'actor', label: 'Client', render: (e) => e.actor ?? (e.params?.actor === 'cli' ? 'command line' : '—') },
                  { key: 'onBehalfOf', label: 'User', render: (e) => e.onBehalfOf ?? '—' },
                  { key: 'action', label: 'Action' },
                  { key: 'outcome', label: 'Outcome', render: (e) => html`<span class=${`tag ${e.outcome}`}>${e.outcome}</span>` },
                  { key: 'params', label: 'Details', sortable: false, render: (e) => html`<code class="params">${JSON.stringify(e.params)}</code>` },
                ])
              }
            />
            <nav class="pager" aria-label="Pages of the audit log">
              <button type="button" disabled=${cursors.length === 0} onClick=${() => setCursors((c) => c.slice(0, -1))}>Newer</button>
              <button
                type="button"
                disabled=${!audit.data.nextCursor}
                onClick=${() => {
                  const next = audit.data?.nextCursor;
                  if (next) setCursors((c) => [...c, next]);
                }}
              >
                Older
              </button>
            </nav>`
    }
  </section>`;
}

/**
 * The feedback queue: reports of wrong or missing data, oldest first; an open one is accepted
 * or rejected with a note, and leaves the open queue.
 * @param {{ route: Route }} props
 */
function Feedback({ route }) {
  const status = /** @type {Schemas['AdminFeedbackReport']['status']} */ (route.query.get('status') ?? 'open');
  const [page, setPage] = useState(0);
  const queue = useAsync(() => get('/admin/feedback', { query: { status, page, size: 20 } }), [status, page]);
  /** @type {Action<Schemas['AdminFeedbackReport']>} */
  const [review, runReview] = useAction();
  const decide = async (/** @type {string} */ id, /** @type {'accepted' | 'rejected'} */ decision) => {
    const note = /** @type {HTMLInputElement | null} */ (document.getElementById(`note-${id}`))?.value.trim();
    const done = await runReview(() =>
      post('/admin/feedback/{feedbackId}', { path: { feedbackId: id }, body: { status: decision, ...(note ? { note } : {}) } }),
    );
    if (done) queue.reload();
  };
  /** @param {Schemas['AdminFeedbackReport']} r */
  const about = (r) => r.productId ?? r.field ?? '—';
  return html`<section class="card" aria-labelledby="feedback-title" aria-busy=${queue.loading}>
    <h2 id="feedback-title">Feedback</h2>
    <p class="sub">Reports of wrong or missing data from clients and their agents (POST /api/feedback, MCP submit_feedback).</p>
    <label class="inline"
      >Status
      <select
        value=${status}
        onChange=${(/** @type {SelectEvent} */ e) => (setPage(0), navigate(href(['admin', 'feedback'], { status: e.currentTarget.value })))}
      >
        ${FEEDBACK_STATUSES.map((s) => html`<option>${s}</option>`)}
      </select></label
    >
    <${ErrorBox} error=${queue.error ?? review.error} onRetry=${queue.reload} />
    ${review.result && html`<p role="status">Report ${review.result.id} ${review.result.status}.</p>`}
    ${
      !queue.data && !queue.error
        ? html`<${Loading} rows=${5} />`
        : queue.data &&
          html`<${Table}
              rows=${queue.data.content}
              rowKey=${(/** @type {Schemas['AdminFeedbackReport']} */ r) => r.id}
              empty=${`No ${status} reports.`}
              columns=${
                /** @satisfies {import('./ui.js').Column<Schemas['AdminFeedbackReport']>[]} */ ([
                  { key: 'createdAt', label: 'Filed', render: (r) => fmtDateTime(r.createdAt) },
                  {
                    key: 'clientId',
                    label: 'Client',
                    render: (r) =>
                      html`${r.clientId}
                        <div class="sub">${r.onBehalfOf ?? ''}</div>`,
                  },
                  { key: 'kind', label: 'Kind' },
                  { key: 'companyDomain', label: 'Company', render: (r) => html`<a href=${href(['companies', r.companyDomain])}>${r.companyDomain}</a>` },
                  {
                    key: 'productId',
                    label: 'About',
                    render: (r) => html`${about(r)}${r.suggestedValue ? html`<div class="sub">should be: ${r.suggestedValue}</div>` : ''}`,
                  },
                  { key: 'message', label: 'Message', sortable: false, render: (r) => r.message ?? '' },
                  {
                    key: 'status',
                    label: status === 'open' ? 'Decide' : 'Decision',
                    sortable: false,
                    render: (r) =>
                      r.status === 'open'
                        ? html`<div class="row-form">
                            <input id=${`note-${r.id}`} aria-label=${`Note on report ${r.id}`} placeholder="Note (optional)" maxlength="1000" />
                            <button type="button" disabled=${review.busy} onClick=${() => decide(r.id, 'accepted')} aria-label=${`Accept report ${r.id}`}>
                              Accept
                            </button>
                            <button type="button" disabled=${review.busy} onClick=${() => decide(r.id, 'rejected')} aria-label=${`Reject report ${r.id}`}>
                              Reject
                            </button>
                          </div>`
                        : html`<span class=${`tag ${r.status}`}>${r.status}</span>
                            <div class="sub">${r.reviewNote ?? ''}</div>`,
                  },
                ])
              }
            />
            <${Pager} page=${page} totalPages=${queue.data.totalPages} totalElements=${queue.data.totalElements} label="reports" onPage=${setPage} />`
    }
  </section>`;
}

/** @param {{ route: Route, user: User }} props */
function Admin({ route, user }) {
  const tab = route.parts[1] ?? 'users';
  const clientId = route.query.get('client') || undefined;
  useTitle(`Admin: ${TABS.find(([id]) => id === tab)?.[1] ?? ''}`);
  if (user.role !== 'admin')
    return html`<div class="card">
      <h1>Admin</h1>
      <p>Only administrators can open these pages; your role is ${user.role}.</p>
    </div>`;
  const perClient = ['keys', 'credits', 'usage'].includes(tab);
  return html`<div>
    <header class="page-head"><h1>Administration</h1></header>
    <${Tabs}
      label="Admin sections"
      current=${tab}
      tabs=${TABS.map(([id, label]) => ({ id, label, href: href(['admin', id], ['keys', 'credits', 'usage'].includes(id) && clientId ? { client: clientId } : undefined) }))}
    />
    ${perClient && html`<div class="toolbar"><${ClientPicker} tab=${tab} clientId=${clientId} /></div>`} ${tab === 'users' && html`<${Users} user=${user} />`}
    ${tab === 'clients' && html`<${Clients} />`} ${tab === 'keys' && html`<${Keys} clientId=${clientId} />`} ${tab === 'plans' && html`<${Plans} />`}
    ${tab === 'credits' && html`<${Credits} clientId=${clientId} />`} ${tab === 'usage' && html`<${Usage} clientId=${clientId} route=${route} />`}
    ${tab === 'audit' && html`<${Audit} route=${route} />`} ${tab === 'feedback' && html`<${Feedback} route=${route} />`}
  </div>`;
}

export const views = { admin: Admin };
