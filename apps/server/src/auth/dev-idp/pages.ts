/** Server-rendered pages of the development identity provider: small, no scripts, escaped output. */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Mailroom ID</title>
<style>
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f3f4f6;color:#111827;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(380px,92vw);background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px;box-shadow:0 6px 24px rgb(0 0 0/.06)}
h1{font-size:20px;margin:0 0 4px}p.sub{margin:0 0 20px;color:#4b5563;font-size:13px}
label{display:block;font-size:13px;font-weight:600;margin:14px 0 6px}
input{width:100%;padding:9px 11px;border:1px solid #d1d5db;border-radius:8px;font:inherit}
input:focus,button:focus-visible,a:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
button,.button{display:block;width:100%;margin-top:20px;padding:10px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;
font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:8px 11px;font-size:13px}
.alt{margin-top:16px;font-size:13px;text-align:center}.alt a{color:#1d4ed8}
.member-id{font:600 26px/1.2 ui-monospace,Menlo,monospace;letter-spacing:.08em;text-align:center;padding:14px;background:#eff6ff;border-radius:8px;margin:12px 0}
</style></head><body><main>${body}</main></body></html>`;
}

export function signInPage(uid: string, opts: { error?: string; memberId?: string } = {}): string {
  return layout(
    'Sign in',
    `<h1>Sign in</h1><p class="sub">Mailroom development identity provider</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/idp/interaction/${escapeHtml(uid)}/login" autocomplete="on">
<label for="memberId">Member ID</label>
<input id="memberId" name="memberId" inputmode="numeric" pattern="[0-9]{12}" maxlength="12" required autofocus
 autocomplete="username" value="${escapeHtml(opts.memberId ?? '')}" placeholder="12 digits">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button>
</form>
<p class="alt">No member ID yet? <a href="/idp/interaction/${escapeHtml(uid)}/signup">Create one</a></p>`,
  );
}

export function signUpPage(uid: string, opts: { error?: string; name?: string } = {}): string {
  return layout(
    'Sign up',
    `<h1>Create a member ID</h1><p class="sub">You get a fresh 12-digit member ID and a mailbox.</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/idp/interaction/${escapeHtml(uid)}/signup">
<label for="name">Name</label>
<input id="name" name="name" required maxlength="100" autocomplete="name" autofocus value="${escapeHtml(opts.name ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required minlength="6" maxlength="200" autocomplete="new-password">
<button type="submit">Sign up</button>
</form>
<p class="alt">Already have one? <a href="/idp/interaction/${escapeHtml(uid)}">Sign in</a></p>`,
  );
}

export function signedUpPage(memberId: string, continueUrl: string): string {
  return layout(
    'Welcome',
    `<h1>Welcome to Mailroom</h1><p class="sub">Your member ID — keep it, you sign in with it:</p>
<p class="member-id" data-testid="new-member-id">${escapeHtml(memberId)}</p>
<a class="button" href="${escapeHtml(continueUrl)}">Continue</a>`,
  );
}

export function errorPage(message: string): string {
  return layout(
    'Error',
    `<h1>Something went wrong</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p class="alt"><a href="/mail">Back to Mailroom</a></p>`,
  );
}
