/**
 * Server-rendered pages of the development identity provider: small, escaped output, in the app's languages.
 * Their one script (IDP_SCRIPT_PATH, same origin, so the CSP allows it) copies the new member ID and submits the
 * sign-out form that needs no question; every page works without it.
 */
import { passportLevelValues, type Language, type PassportLevel } from '@mailroom/protocol';
import { idpTexts, type IdpTexts } from './texts.js';

export const IDP_SCRIPT_PATH = '/idp/idp.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageOptions {
  lang: Language;
  /** The page's own address without `lang`: the language switch links to it with `?lang=`. */
  switchBase?: string;
}

function languageSwitch({ lang, switchBase }: PageOptions, t: IdpTexts): string {
  if (!switchBase) return '';
  const link = (code: Language, label: string) =>
    code === lang
      ? `<span aria-current="true">${label}</span>`
      : `<a href="${escapeHtml(`${switchBase}?lang=${code}`)}" hreflang="${code}" lang="${code}">${label}</a>`;
  return `<nav class="langs" aria-label="${escapeHtml(t.language)}">${link('ru', 'Русский')}${link('en', 'English')}</nav>`;
}

function layout(opts: PageOptions, title: string, body: string): string {
  const t = idpTexts[opts.lang];
  return `<!doctype html>
<html lang="${opts.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(t.brand)}</title>
<style>
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;align-content:center;gap:16px;background:#f3f4f6;color:#111827;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(380px,92vw);background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:28px;box-shadow:0 6px 24px rgb(0 0 0/.06)}
h1{font-size:20px;margin:0 0 4px}p.sub{margin:0 0 20px;color:#4b5563;font-size:13px}
label{display:block;font-size:13px;font-weight:600;margin:14px 0 6px}
input,select{width:100%;padding:9px 11px;border:1px solid #d1d5db;border-radius:8px;font:inherit;background:#fff}
p.hint{margin:6px 0 0;color:#4b5563;font-size:12px}
input:focus,select:focus,button:focus-visible,a:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
button,.button{display:block;width:100%;margin-top:20px;padding:10px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;
font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8;border:1px solid #bfdbfe;margin-top:10px}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:8px 11px;font-size:13px}
.alt{margin-top:16px;font-size:13px;text-align:center}.alt a{color:#1d4ed8}
.member-id{font:600 26px/1.2 ui-monospace,Menlo,monospace;letter-spacing:.08em;text-align:center;padding:14px;background:#eff6ff;border-radius:8px;margin:12px 0 0;user-select:all}
.langs{display:flex;gap:16px;justify-content:center;font-size:13px;color:#4b5563}.langs a{color:#1d4ed8}
</style><script src="${IDP_SCRIPT_PATH}" defer></script></head><body><main>${body}</main>${languageSwitch(opts, t)}</body></html>`;
}

const langInput = (lang: Language) => `<input type="hidden" name="lang" value="${lang}">`;

export function signInPage(uid: string, opts: PageOptions & { error?: string; memberId?: string }): string {
  const t = idpTexts[opts.lang];
  return layout(
    { lang: opts.lang, switchBase: `/idp/interaction/${uid}` },
    t.signInTitle,
    `<h1>${t.signInTitle}</h1><p class="sub">${t.signInSub}</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/idp/interaction/${escapeHtml(uid)}/login" autocomplete="on">${langInput(opts.lang)}
<label for="memberId">${t.memberId}</label>
<input id="memberId" name="memberId" inputmode="numeric" pattern="[0-9]{12}" maxlength="12" required autofocus
 autocomplete="username" value="${escapeHtml(opts.memberId ?? '')}" placeholder="${t.memberIdPlaceholder}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">${t.signInButton}</button>
</form>
<p class="alt">${t.noMemberId} <a href="/idp/interaction/${escapeHtml(uid)}/signup?lang=${opts.lang}">${t.createOne}</a></p>`,
  );
}

export function signUpPage(
  uid: string,
  opts: PageOptions & { error?: string; name?: string; passportLevel?: PassportLevel },
): string {
  const t = idpTexts[opts.lang];
  const picked = opts.passportLevel ?? 'formal';
  const levels = passportLevelValues
    .map(
      (level) =>
        `<option value="${level}"${level === picked ? ' selected' : ''}>${escapeHtml(t.passportLevels[level])}</option>`,
    )
    .join('');
  return layout(
    { lang: opts.lang, switchBase: `/idp/interaction/${uid}/signup` },
    t.signUpTitle,
    `<h1>${t.signUpHeading}</h1><p class="sub">${t.signUpSub}</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/idp/interaction/${escapeHtml(uid)}/signup">${langInput(opts.lang)}
<label for="name">${t.name}</label>
<input id="name" name="name" required maxlength="100" autocomplete="name" autofocus value="${escapeHtml(opts.name ?? '')}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" required minlength="6" maxlength="200" autocomplete="new-password">
<label for="passportLevel">${t.passportLevel}</label>
<select id="passportLevel" name="passportLevel" aria-describedby="passportLevelHint">${levels}</select>
<p class="hint" id="passportLevelHint">${escapeHtml(t.passportLevelHint)}</p>
<button type="submit">${t.signUpButton}</button>
</form>
<p class="alt">${t.haveOne} <a href="/idp/interaction/${escapeHtml(uid)}?lang=${opts.lang}">${t.signInButton}</a></p>`,
  );
}

/** After sign-up: the new member ID, a button to copy it (shown once the script runs), and on to the app. */
export function signedUpPage(memberId: string, continueUrl: string, opts: PageOptions): string {
  const t = idpTexts[opts.lang];
  return layout(
    opts,
    t.welcomeTitle,
    `<h1>${t.welcomeHeading}</h1><p class="sub">${t.welcomeSub}</p>
<p class="member-id" data-testid="new-member-id">${escapeHtml(memberId)}</p>
<button type="button" class="secondary" hidden data-copy="${escapeHtml(memberId)}" data-copied="${t.copied}">${t.copy}</button>
<a class="button" href="${escapeHtml(continueUrl)}">${t.continue}</a>`,
  );
}

export function errorPage(message: string, opts: PageOptions): string {
  const t = idpTexts[opts.lang];
  return layout(
    opts,
    t.errorTitle,
    `<h1>${t.errorHeading}</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p class="alt"><a href="/mail">${t.backToMailroom}</a></p>`,
  );
}

/**
 * oidc-provider's sign-out question. `form` is its form (the xsrf field) with the id op.logoutForm. `confirmed`:
 * Mailroom itself sent the browser here with the ID token of the session (a valid id_token_hint), so the page asks
 * nothing and its script submits at once; a visible button does it without the script.
 */
export function signOutPage(form: string, opts: PageOptions & { confirmed: boolean }): string {
  const t = idpTexts[opts.lang];
  if (opts.confirmed) {
    const auto = form
      .replace('<form ', '<form data-autosubmit ')
      .replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
    return layout(
      opts,
      t.signOutTitle,
      `<h1>${t.signingOut}</h1>${auto}<button type="submit" form="op.logoutForm">${t.signOutButton}</button>`,
    );
  }
  return layout(
    opts,
    t.signOutTitle,
    `<h1>${t.signOutHeading}</h1><p class="sub">${t.signOutText}</p>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t.signOutButton}</button>
<button type="submit" form="op.logoutForm" class="secondary">${t.staySignedIn}</button>`,
  );
}

/** Signed out at the provider without a way back to a client (no post-logout redirect URI). */
export function signedOutPage(opts: PageOptions): string {
  const t = idpTexts[opts.lang];
  return layout(
    opts,
    t.signedOutTitle,
    `<h1>${t.signedOutHeading}</h1><p class="alt"><a href="/mail">${t.backToMailroom}</a></p>`,
  );
}

/** The pages' script: copy the member ID; submit a sign-out form that asks nothing. */
export const idpScript = `'use strict';
document.querySelectorAll('form[data-autosubmit]').forEach(function (form) { form.submit(); });
document.querySelectorAll('[data-copy]').forEach(function (button) {
  var label = button.textContent;
  button.hidden = false;
  button.addEventListener('click', function () {
    var done = function () {
      button.textContent = button.getAttribute('data-copied');
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    var text = button.getAttribute('data-copy');
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { selectId(); });
    } else selectId();
  });
});
function selectId() {
  var id = document.querySelector('[data-testid="new-member-id"]');
  if (id) window.getSelection().selectAllChildren(id);
}
`;
