/**
 * The sandbox wallet's page (/sandbox/wallet): what the member's wallet application would show — their invoices with
 * Pay and Reject, and the notices it received (new mail, confirmation codes). Server-rendered, escaped, in en and ru,
 * no script (the CSP allows none inline), every action a POST form with a token.
 */
import type { Language } from '@mailroom/protocol';
import type { SandboxInvoiceRow, SandboxNoticeRow } from './sandbox.repository.js';

export const sandboxTexts = {
  en: {
    title: 'Sandbox wallet',
    sub: 'A stand-in for the provider’s wallet application: pay or reject invoices, read the notices it received.',
    signIn: 'Sign in to Mailroom first: the wallet shown is the signed-in member’s.',
    openMail: 'Open Mailroom',
    ownerOnly: 'Only the mailbox owner has a wallet: this session is held to one address.',
    impersonating:
      'This session has opened another member’s mailbox: a wallet is shown to its owner only. Go back to your own mailbox to see yours.',
    member: 'Member ID',
    invoices: 'Invoices',
    noInvoices: 'No invoices yet.',
    notices: 'Notices',
    noNotices: 'No notices yet.',
    pay: 'Pay',
    reject: 'Reject',
    status: {
      unpaid: 'unpaid',
      paid: 'paid',
      rejected: 'rejected',
      expired: 'expired',
      cancelled: 'cancelled',
      refunded: 'refunded',
    },
    done: { paid: 'The invoice is paid.', rejected: 'The invoice is rejected.' },
    notFound: 'There is no such invoice in your wallet.',
    language: 'Language',
  },
  ru: {
    title: 'Тестовый кошелёк',
    sub: 'Замена приложения кошелька провайдера: оплатите или отклоните счёт, прочитайте полученные уведомления.',
    signIn: 'Сначала войдите в Mailroom: здесь показан кошелёк вошедшего участника.',
    openMail: 'Открыть Mailroom',
    ownerOnly: 'Кошелёк есть только у владельца ящика: этот сеанс ограничен одним адресом.',
    impersonating:
      'В этом сеансе открыт ящик другого участника: кошелёк виден только его владельцу. Вернитесь в свой ящик, чтобы увидеть свой.',
    member: 'ID участника',
    invoices: 'Счета',
    noInvoices: 'Счетов пока нет.',
    notices: 'Уведомления',
    noNotices: 'Уведомлений пока нет.',
    pay: 'Оплатить',
    reject: 'Отклонить',
    status: {
      unpaid: 'не оплачен',
      paid: 'оплачен',
      rejected: 'отклонён',
      expired: 'просрочен',
      cancelled: 'отменён',
      refunded: 'возвращён',
    },
    done: { paid: 'Счёт оплачен.', rejected: 'Счёт отклонён.' },
    notFound: 'В вашем кошельке нет такого счёта.',
    language: 'Язык',
  },
} satisfies Record<Language, unknown>;

/** Why a session is shown no wallet. */
export type SandboxRefusal = 'signIn' | 'ownerOnly' | 'impersonating';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(lang: Language, body: string): string {
  const t = sandboxTexts[lang];
  const link = (code: Language, label: string) =>
    code === lang
      ? `<span aria-current="true">${label}</span>`
      : `<a href="?lang=${code}" hreflang="${code}" lang="${code}">${label}</a>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(t.title)}</title>
<style>
*{box-sizing:border-box}body{margin:0;background:#f3f4f6;color:#111827;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(640px,94vw);margin:32px auto;background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:24px 28px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}p.sub{margin:0 0 12px;color:#4b5563;font-size:13px}
ul{list-style:none;margin:0;padding:0}li{border-top:1px solid #e5e7eb;padding:10px 0}li.picked{background:#eff6ff}
.row{display:flex;gap:12px;align-items:center;flex-wrap:wrap}.grow{flex:1;min-width:200px}.muted{color:#6b7280;font-size:12px}
.id{font:12px ui-monospace,Menlo,monospace}.amount{font-weight:600}
form{display:inline}button{padding:6px 14px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#991b1b;border:1px solid #fecaca}
.flash{background:#ecfdf5;color:#065f46;border:1px solid #a7f3d0;border-radius:8px;padding:8px 11px;font-size:13px}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;border-radius:8px;padding:8px 11px;font-size:13px}
.notice-text{white-space:pre-wrap}a{color:#1d4ed8}
nav{display:flex;gap:16px;justify-content:center;font-size:13px;color:#4b5563;margin-bottom:32px}
</style></head><body><main>${body}</main><nav aria-label="${escapeHtml(t.language)}">${link('ru', 'Русский')}${link('en', 'English')}</nav></body></html>`;
}

/** The page for someone not signed in, signed in to one address only, or in another member's mailbox. */
export function sandboxMessagePage(lang: Language, message: SandboxRefusal): string {
  const t = sandboxTexts[lang];
  return layout(
    lang,
    `<h1>${t.title}</h1><p class="error" role="alert">${t[message]}</p><p><a href="/">${t.openMail}</a></p>`,
  );
}

export function sandboxWalletPage(opts: {
  lang: Language;
  memberId: string;
  invoices: SandboxInvoiceRow[];
  notices: SandboxNoticeRow[];
  /** The invoice the pay link named. */
  picked?: string | undefined;
  flash?: 'paid' | 'rejected' | 'not_found' | undefined;
  /** The form token (sandbox.routes.ts). */
  token: string;
}): string {
  const t = sandboxTexts[opts.lang];
  const when = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const action = (id: string, verb: 'pay' | 'reject', label: string, cls = '') =>
    `<form method="post" action="/sandbox/wallet/invoices/${encodeURIComponent(id)}/${verb}?lang=${opts.lang}">` +
    `<input type="hidden" name="token" value="${escapeHtml(opts.token)}">` +
    `<button type="submit"${cls ? ` class="${cls}"` : ''}>${label}</button></form>`;
  const invoices = opts.invoices.length
    ? `<ul>${opts.invoices
        .map(
          (
            inv,
          ) => `<li class="${inv.id === opts.picked ? 'picked' : ''}" data-invoice="${escapeHtml(inv.id)}"><div class="row">
<div class="grow"><div>${escapeHtml(inv.description)}</div><div class="muted"><span class="id">${escapeHtml(inv.id)}</span> · ${when(inv.created_at)}</div></div>
<span class="amount">${escapeHtml(inv.amount)} ${escapeHtml(inv.currency)}</span><span class="status">${t.status[inv.status]}</span>
${inv.status === 'unpaid' ? `${action(inv.id, 'pay', t.pay)} ${action(inv.id, 'reject', t.reject, 'secondary')}` : ''}
</div></li>`,
        )
        .join('')}</ul>`
    : `<p class="muted">${t.noInvoices}</p>`;
  const notices = opts.notices.length
    ? `<ul>${opts.notices
        .map(
          (n) =>
            `<li data-kind="${escapeHtml(n.kind)}"><div><strong>${escapeHtml(n.title)}</strong> <span class="muted">${when(n.at)}</span></div><div class="notice-text">${escapeHtml(n.text)}</div></li>`,
        )
        .join('')}</ul>`
    : `<p class="muted">${t.noNotices}</p>`;
  const flash =
    opts.flash === 'not_found'
      ? `<p class="error" role="alert">${t.notFound}</p>`
      : opts.flash
        ? `<p class="flash" role="status">${t.done[opts.flash]}</p>`
        : '';
  return layout(
    opts.lang,
    `<h1>${t.title}</h1><p class="sub">${t.sub}</p><p class="muted">${t.member}: <span class="id">${escapeHtml(opts.memberId)}</span></p>${flash}
<h2>${t.invoices}</h2>${invoices}<h2>${t.notices}</h2>${notices}`,
  );
}
