// @ts-check
// The AI helpers as one prompt box: the answer, and how the prompt was understood (the
// X-Stacklens-Understood / -Parser headers of the AI endpoints) as the filters it became, so
// people can check it.
import { useState } from 'preact/hooks';
import { html, href, navigate, Loading, ErrorBox, Empty, Table, fmtDate, useTitle } from './ui.js';
import { request } from './api.js';

/**
 * The suggestions of each helper.
 * @typedef {{
 *   customers: import('./contract.js').PostAnswer<'/ai/find-customers-of-products'>,
 *   techstack: import('./contract.js').PostAnswer<'/ai/find-techstacks-for-company'>,
 *   people: import('./contract.js').PostAnswer<'/ai/find-people-profiles'>,
 * }} Suggestions
 * @typedef {keyof Suggestions} Kind
 * @typedef {{ items: Suggestions[Kind], understood: string | null, parser: string | null, fallback: string | null }} Answer
 * @typedef {import('./ui.js').Problem} Problem
 */

/** @type {{ [K in Kind]: { label: string, path: import('./contract.js').ApiPath<'post'>, example: string } }} */
const HELPERS = {
  customers: {
    label: 'Companies using products',
    path: '/ai/find-customers-of-products',
    example: 'companies in Germany using a CRM and a marketing automation tool',
  },
  techstack: { label: 'Tech stack of a company', path: '/ai/find-techstacks-for-company', example: 'what analytics does alpinebeverages.com use' },
  people: { label: 'People profiles', path: '/ai/find-people-profiles', example: 'marketing directors at software companies in France' },
};
const KINDS = /** @type {Kind[]} */ (Object.keys(HELPERS));

/** @param {string | null} h */
function decode(h) {
  if (!h) return null;
  try {
    return decodeURIComponent(h);
  } catch {
    return h;
  }
}

/**
 * @param {Kind} kind
 * @param {string} prompt
 * @param {number} size
 * @returns {Promise<Answer>}
 */
async function ask(kind, prompt, size) {
  /** @type {Response} */
  const res = await request('POST', `/api${HELPERS[kind].path}`, { params: { prompt, size }, raw: true });
  return {
    items: await res.json(),
    understood: decode(res.headers.get('x-stacklens-understood')),
    parser: res.headers.get('x-stacklens-parser'),
    fallback: decode(res.headers.get('x-stacklens-parser-fallback')),
  };
}

// The labels of describeQuery's filter names (src/intelligence/prompt/describe.ts).
/** @type {Partial<Record<string, string>>} */
const FILTER_LABELS = {
  products: 'Products',
  vendors: 'Vendors',
  categories: 'Categories',
  industries: 'Industries',
  countries: 'Countries',
  employees: 'Employees',
  revenue: 'Revenue',
  time: 'Time window',
  titles: 'Job titles',
  seniority: 'Seniority',
  functions: 'Functions',
  companies: 'Companies',
  terms: 'Other words',
};

/**
 * The understood line ("vendors=HubSpot (typo 'hubspt'); countries=DE") as filters, one row
 * each; null when it is not in that form (then the line is shown as it is).
 */
/**
 * @param {string | null} understood
 * @returns {{ label: string, value: string }[] | null}
 */
export function filtersOf(understood) {
  if (!understood || understood === 'nothing recognized') return [];
  const parts = understood.split('; ').map((p) => {
    const at = p.indexOf('=');
    return at > 0 ? { name: p.slice(0, at), value: p.slice(at + 1) } : null;
  });
  return parts.every((p) => p !== null) ? parts.map((p) => ({ label: FILTER_LABELS[p.name] ?? p.name, value: p.value })) : null;
}

/**
 * What to show for a failed AI call: a prompt too broad to answer in time (the server's 503
 * says so and how to narrow it) as advice on the prompt, not as a fault; anything else as the
 * API's message. The HTTP-speak of the retry hint is left out: the form is right there.
 */
/** @param {Problem | null} error */
export function aiProblemOf(error) {
  if (!error) return null;
  const message = String(error.message ?? '');
  if (error.status === 503 && /too broad/i.test(message)) {
    return { title: 'This prompt is too broad to answer in time.', text: message.replace(/;?\s*or retry after Retry-After seconds\.?$/u, '.') };
  }
  return null;
}

/** @param {{ error: Problem | null }} props */
function AiProblem({ error }) {
  const problem = aiProblemOf(error);
  if (!problem) return html`<${ErrorBox} error=${error} />`;
  return html`<div class="error" role="alert"><strong>${problem.title}</strong> <span class="error-message">${problem.text}</span></div>`;
}

/** @param {{ answer: Answer }} props */
function Understood({ answer }) {
  const filters = filtersOf(answer.understood);
  return html`<section class="card" aria-labelledby="understood-title">
    <h2 id="understood-title">How the prompt was understood</h2>
    ${
      filters === null
        ? html`<p class="understood">${answer.understood ?? 'The server did not say.'}</p>`
        : filters.length === 0
          ? html`<p class="understood">No filter was recognized in the prompt: the suggestions are not narrowed by it.</p>`
          : html`<dl class="understood filters-understood">
              ${filters.map(
                (f) =>
                  html`<div>
                    <dt>${f.label}</dt>
                    <dd>${f.value}</dd>
                  </div>`,
              )}
            </dl>`
    }
    <p class="sub">Parser: ${answer.parser ?? 'unknown'}${answer.fallback ? ` (fell back: ${answer.fallback})` : ''}</p>
  </section>`;
}

/** @param {{ kind: Kind, items: Suggestions[Kind] }} props */
function Results({ kind, items }) {
  if (items.length === 0) return html`<${Empty}>No suggestions.</${Empty}>`;
  const company = (/** @type {{ companyDomain: string | null, companyName: string | null }} */ r) =>
    r.companyDomain ? html`<a href=${href(['companies', r.companyDomain])}>${r.companyName ?? r.companyDomain}</a>` : (r.companyName ?? '—');
  /** @type {{ [K in Kind]: import('./ui.js').Column<Suggestions[K][number]>[] }} */
  const columns = {
    customers: [
      { key: 'companyName', label: 'Company', render: company },
      { key: 'product', label: 'Product' },
      { key: 'probability', label: 'Probability', numeric: true, render: (r) => `${r.probability}%` },
      {
        key: 'evidence',
        label: 'Evidence',
        render: (r) =>
          html`${r.evidence}
            <div class="sub">${r.source}</div>`,
      },
      { key: 'dateLastVerified', label: 'Last seen', render: (r) => fmtDate(r.dateLastVerified) },
    ],
    techstack: [
      { key: 'software', label: 'Software' },
      { key: 'probability', label: 'Probability', numeric: true, render: (r) => `${r.probability}%` },
      {
        key: 'reason',
        label: 'Why',
        render: (r) =>
          html`${r.reason}
            <div class="sub">${r.source}</div>`,
      },
      { key: 'dateLastVerified', label: 'Last seen', render: (r) => fmtDate(r.dateLastVerified) },
    ],
    people: [
      { key: 'fullName', label: 'Name' },
      { key: 'title', label: 'Title' },
      { key: 'companyName', label: 'Company', render: company },
      { key: 'country', label: 'Country' },
      { key: 'confidence', label: 'Confidence', numeric: true, render: (r) => `${Math.round(r.confidence * 100)}%` },
    ],
  };
  return html`<${Table} columns=${columns[kind]} rows=${items} />`;
}

/** @param {{ route: import('./ui.js').Route }} props */
function Ai({ route }) {
  useTitle('Ask AI');
  const kind = KINDS.find((k) => k === route.query.get('kind')) ?? 'customers';
  const prompt = route.query.get('prompt') ?? '';
  const [state, setState] = useState(
    /** @type {{ busy: boolean, error: Problem | null, answer: Answer | null, for: string | null }} */ ({ busy: false, error: null, answer: null, for: null }),
  );
  const key = `${kind}|${prompt}`;
  if (prompt && state.for !== key && !state.busy) {
    setState({ busy: true, error: null, answer: null, for: key });
    ask(kind, prompt, Number(route.query.get('size') ?? 10)).then(
      (answer) => setState({ busy: false, error: null, answer, for: key }),
      (error) => setState({ busy: false, error, answer: null, for: key }),
    );
  }
  const submit = (/** @type {import('./ui.js').FormEvent} */ e) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    navigate(href(['ai'], { kind: f.get('kind'), prompt: String(f.get('prompt')).trim(), size: f.get('size') }));
  };
  return html`<div>
    <header class="page-head">
      <h1>Ask AI</h1>
      <p class="sub">Suggestions are probabilistic: check them on the company pages, which show the evidence.</p>
    </header>
    <form class="card prompt" onSubmit=${submit} aria-label="AI prompt">
      <fieldset class="checks">
        <legend>What to find</legend>
        ${Object.entries(HELPERS).map(([id, h]) => html`<label class="check"><input type="radio" name="kind" value=${id} checked=${id === kind} />${h.label}</label>`)}
      </fieldset>
      <div class="field">
        <label for="ai-prompt">Prompt</label>
        <textarea id="ai-prompt" name="prompt" rows="3" required maxlength="500" placeholder=${HELPERS[kind].example}>${prompt}</textarea>
      </div>
      <div class="actions">
        <label class="inline">Results <input name="size" type="number" min="1" max="50" value=${route.query.get('size') ?? 10} /></label>
        <button type="submit" class="primary" disabled=${state.busy}>${state.busy ? 'Thinking…' : 'Ask'}</button>
      </div>
    </form>
    ${state.busy && html`<${Loading} label="Working on it…" rows=${4} />`}
    <${AiProblem} error=${state.error} />
    ${
      state.answer &&
      html`<${Understood} answer=${state.answer} />
        <section class="card" aria-labelledby="ai-results">
          <h2 id="ai-results">Suggestions</h2>
          <${Results} kind=${kind} items=${state.answer.items} />
        </section>`
    }
  </div>`;
}

export const views = { ai: Ai };
