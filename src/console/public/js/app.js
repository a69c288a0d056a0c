// @ts-check
// The console's entry: the session (cookie + CSRF token from /console/api/session), the
// page frame (skip link, navigation, sign-out) and hash routing — every view has its URL
// and the back button works. Screens load on demand, so the first paint needs little code.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, parseHash, href, navigate, Loading, ErrorBox, useTitle } from './ui.js';
import { session, setSession, whenSignedOut } from './api.js';

/**
 * @typedef {import('./contract.js').Session} Session
 * @typedef {import('./contract.js').User} User
 * @typedef {import('./ui.js').Route} Route
 * @typedef {import('./ui.js').Problem} Problem
 * @typedef {{ views: Record<string, (props: { route: Route, user: User }) => unknown> }} ScreenModule
 */

/** @type {Record<string, () => Promise<ScreenModule>>} */
const screens = {
  search: () => import('./search.js'),
  companies: () => import('./company.js'),
  products: () => import('./catalog.js'),
  vendors: () => import('./catalog.js'),
  admin: () => import('./admin.js'),
  ai: () => import('./ai.js'),
  watch: () => import('./watch.js'),
  lists: () => import('./lists.js'),
  lookalikes: () => import('./lists-use.js'),
};

// The first screen's module loads while the session is checked, not after.
const firstScreen = screens[parseHash().parts[0] || 'search'];
if (firstScreen) firstScreen().catch(() => {});

function useRoute() {
  const [route, setRoute] = useState(parseHash());
  useEffect(() => {
    const on = () => setRoute(parseHash());
    window.addEventListener('hashchange', on);
    window.addEventListener('popstate', on);
    return () => {
      window.removeEventListener('hashchange', on);
      window.removeEventListener('popstate', on);
    };
  }, []);
  return route;
}

/** @param {{ onSignedIn: (s: Session) => void, notice?: string | null }} props */
function SignIn({ onSignedIn, notice }) {
  useTitle('Sign in');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {Problem | null} */ (null));
  const submit = async (/** @type {import('./ui.js').FormEvent} */ e) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await session.signIn(String(form.get('email')), String(form.get('password'))));
    } catch (err) {
      setError(/** @type {Problem} */ (err));
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin">
    <form class="card signin-card" onSubmit=${submit} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to Stacklens</h1>
      ${notice && html`<p class="notice" role="status">${notice}</p>`}
      <label>Email<input name="email" type="email" autocomplete="username" required autofocus /></label>
      <label>Password<input name="password" type="password" autocomplete="current-password" required /></label>
      <${ErrorBox} error=${error} />
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
    </form>
  </main>`;
}

/** @param {{ route: Route, user: User }} props */
function Screen({ route, user }) {
  const name = route.parts[0] || 'search';
  const [mod, setMod] = useState(/** @type {ScreenModule | null} */ (null));
  const [error, setError] = useState(/** @type {Error | null} */ (null));
  useEffect(() => {
    const load = screens[name];
    if (!load) return;
    let live = true;
    load().then(
      (m) => live && setMod(() => m),
      (e) => live && setError(e),
    );
    return () => (live = false);
  }, [name]);
  if (!screens[name]) return html`<${NotFound} />`;
  if (error) return html`<${ErrorBox} error=${{ message: `This screen could not be loaded (${error.message})` }} />`;
  if (!mod) return html`<${Loading} />`;
  const View = mod.views[name];
  return html`<${View} route=${route} user=${user} />`;
}

function NotFound() {
  useTitle('Not found');
  return html`<div class="card">
    <h1>Page not found</h1>
    <p><a href="#/search">Go to company search</a></p>
  </div>`;
}

/** @param {{ user: User, route: Route, onSignOut: () => void }} props */
function Frame({ user, route, onSignOut }) {
  const top = route.parts[0] || 'search';
  const links = [
    { id: 'search', label: 'Companies', to: '#/search' },
    { id: 'lists', label: 'Lists', to: '#/lists' },
    { id: 'lookalikes', label: 'Lookalikes', to: '#/lookalikes' },
    { id: 'watch', label: 'Watch', to: '#/watch' },
    { id: 'ai', label: 'Ask AI', to: '#/ai' },
    ...(user.role === 'admin' ? [{ id: 'admin', label: 'Admin', to: '#/admin/users' }] : []),
  ];
  return html`<a
      class="skip"
      href="#main"
      onClick=${(/** @type {Event} */ e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
      >Skip to content</a
    >
    <header class="topbar">
      <a class="brand" href="#/search">Stacklens</a>
      <nav aria-label="Main">
        ${links.map((l) => html`<a href=${l.to} aria-current=${top === l.id || (l.id === 'search' && top === 'companies') ? 'page' : undefined}>${l.label}</a>`)}
      </nav>
      <div class="who">
        <span title=${user.email}>${user.name} <span class="role">${user.role}</span></span>
        <button type="button" class="link" onClick=${onSignOut}>Sign out</button>
      </div>
    </header>
    <main id="main" tabindex="-1"><${Screen} route=${route} user=${user} /></main>`;
}

/**
 * Where a sign-in for an application (OAuth, /oauth/authorize) continues once the person is
 * signed in: only that path of this origin, so the parameter cannot send anyone elsewhere.
 */
function continueUrl() {
  const next = new URLSearchParams(location.search).get('continue');
  return next && next.startsWith('/oauth/authorize?') ? next : null;
}

/** @returns {boolean} true when the page is leaving for the application's sign-in. */
function continueSignIn() {
  const next = continueUrl();
  if (next) location.replace(next);
  return next !== null;
}

function App() {
  const route = useRoute();
  const [state, setState] = useState(
    /** @type {{ checking: boolean, user: User | null, notice?: string | null, error?: Problem | null }} */ ({
      checking: true,
      user: null,
      notice: null,
      error: null,
    }),
  );
  useEffect(() => {
    whenSignedOut(() => {
      setSession(null);
      setState({ checking: false, user: null, notice: 'Your session has ended. Please sign in again.' });
    });
    session.current().then(
      (s) => {
        if (continueSignIn()) return;
        setSession(s);
        setState({ checking: false, user: s.user });
      },
      (err) => setState({ checking: false, user: null, error: err.status === 401 ? null : err }),
    );
  }, []);
  if (state.checking) return html`<main id="main"><${Loading} label="Checking your session…" /></main>`;
  if (!state.user) {
    return html`${state.error && html`<${ErrorBox} error=${state.error} />`}<${SignIn}
        notice=${state.notice ?? (continueUrl() ? 'Sign in to connect an application to Stacklens.' : null)}
        onSignedIn=${(/** @type {Session} */ s) => {
          if (continueSignIn()) return;
          setSession(s);
          setState({ checking: false, user: s.user });
          if (!location.hash || location.hash === '#/sign-in') navigate('#/search', { replace: true });
        }}
      />`;
  }
  const signOut = async () => {
    try {
      await session.signOut();
    } finally {
      setSession(null);
      setState({ checking: false, user: null, notice: 'You have signed out.' });
    }
  };
  return html`<${Frame} user=${state.user} route=${route} onSignOut=${signOut} />`;
}

export { href };
const root = /** @type {HTMLElement} */ (document.getElementById('app'));
root.textContent = '';
render(html`<${App} />`, root);
