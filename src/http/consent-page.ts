// The HTML of the sign-in consent screen (GET /oauth/authorize) and of its error page:
// server-rendered, no script, one inline stylesheet allowed by its hash. Every value is
// escaped; the form posts the request's parameters back with the session's CSRF token.
import { createHash } from 'node:crypto';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1c1e21}
main{max-width:32rem;margin:3rem auto;background:#fff;border:1px solid #d8dbe0;border-radius:8px;padding:1.5rem 2rem}
h1{font-size:1.3rem;margin-top:0}ul{padding-left:1.2rem}li{margin:.4rem 0}.muted{color:#555;font-size:.9rem}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer}
button.primary{background:#1f5fbf;border-color:#1f5fbf;color:#fff}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The page's Content-Security-Policy. form-action names the client's origin too: browsers
 * check the redirect that answers the form against it.
 */
export function consentCsp(redirectOrigin?: string): string {
  const formAction = redirectOrigin ? `'self' ${redirectOrigin}` : "'self'";
  return `default-src 'none'; style-src ${STYLE_HASH}; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Stacklens</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

interface ConsentView {
  clientName: string;
  redirectHost: string;
  person: { name: string; email: string; role: string };
  scopes: { name: string; text: string }[];
  resource: string;
  /** The authorization request's parameters, posted back as they came. */
  fields: Record<string, string>;
  csrfToken: string;
}

export function consentPage(v: ConsentView): string {
  const hidden = Object.entries(v.fields)
    .map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val)}">`)
    .join('');
  const scopes = v.scopes.map((s) => `<li><strong>${esc(s.name)}</strong>: ${esc(s.text)}</li>`).join('');
  return page(
    'Allow access',
    `<h1>Allow <span id="client-name">${esc(v.clientName)}</span> to use Stacklens as you?</h1>
<p>Signed in as <strong>${esc(v.person.name)}</strong> (${esc(v.person.email)}, role ${esc(v.person.role)}).</p>
<p>It asks to:</p><ul id="scopes">${scopes}</ul>
<p class="muted">It can do no more than your role allows. Access is for ${esc(v.resource)}; you will be sent back to ${esc(v.redirectHost)}.
Only allow applications you trust.</p>
<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="csrf_token" value="${esc(v.csrfToken)}">
<div class="actions"><button type="submit" class="primary" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div></form>`,
  );
}

export function errorPage(message: string): string {
  return page('Sign-in problem', `<h1>This sign-in request cannot be completed</h1><p id="problem">${esc(message)}</p>`);
}
