import { createHmac, timingSafeEqual } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { languageValues, type Language } from '@mailroom/protocol';
import { findAccountById } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { sendHtml } from '../http/index.js';
import { SANDBOX_WALLET_PATH } from './sandbox-gateway.js';
import { sandboxMessagePage, sandboxWalletPage, type SandboxRefusal } from './sandbox-page.js';
import { sandboxWalletOf, settleInSandbox } from './sandbox.service.js';

/** The page's language: `lang` in the query, the app's cookie, the browser's first language, else English. */
function languageOf(request: FastifyRequest): Language {
  const query = (request.query as { lang?: unknown }).lang;
  const candidates = [
    typeof query === 'string' ? query : null,
    request.cookies.lang,
    request.headers['accept-language']?.split(',')[0]?.split(';')[0],
  ];
  for (const c of candidates) {
    const lang = c?.slice(0, 2).toLowerCase();
    if (lang && (languageValues as readonly string[]).includes(lang)) return lang as Language;
  }
  return 'en';
}

/**
 * /sandbox/wallet, registered only while the sandbox is the wallet: the signed-in member's invoices (Pay, Reject) and
 * the notices their wallet application received. Whose wallet it is comes from the session cookie (the session plugin
 * resolves it for /sandbox too). A POST is admitted only with the page's token — an HMAC of the signed-in account under the deployment's cookie secret, so a
 * page of another site cannot make one — and, when the browser sends an Origin, ours.
 */
export const sandboxWalletRoutes: FastifyPluginAsync = async (app) => {
  const { deps } = app;
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  const tokenFor = (request: FastifyRequest) =>
    createHmac('sha256', deps.secrets.cookieSecret)
      .update(`sandbox-wallet:${request.principal?.accountId ?? ''}`)
      .digest('base64url');

  /**
   * The signed-in owner's member ID, or the page to show instead. A session that has opened another member's mailbox
   * (impersonation: `actorAccountId` is the member who really signed in) is not that member: their invoices and the
   * codes their wallet received are theirs alone, never shown or paid by the grantee.
   */
  const memberOf = async (
    request: FastifyRequest,
  ): Promise<{ memberId: string } | { refused: SandboxRefusal }> => {
    const principal = request.principal;
    if (!principal) return { refused: 'signIn' };
    if (principal.aliasEmail) return { refused: 'ownerOnly' };
    if (principal.actorAccountId) return { refused: 'impersonating' };
    const account = await findAccountById(deps.db, principal.accountId);
    return account ? { memberId: account.member_id } : { refused: 'signIn' };
  };
  const refusal = (reply: FastifyReply, lang: Language, refused: SandboxRefusal) =>
    sendHtml(reply, sandboxMessagePage(lang, refused), refused === 'impersonating' ? 403 : 401);

  await app.register(formbody);

  app.get(SANDBOX_WALLET_PATH, { schema: { hide: true } }, async (request, reply) => {
    const lang = languageOf(request);
    const member = await memberOf(request);
    if ('refused' in member) return refusal(reply, lang, member.refused);
    const query = request.query as { invoice?: unknown; done?: unknown };
    const done = query.done;
    const { invoices, notices } = await sandboxWalletOf(deps.db, member.memberId);
    return sendHtml(
      reply,
      sandboxWalletPage({
        lang,
        memberId: member.memberId,
        invoices,
        notices,
        picked: typeof query.invoice === 'string' ? query.invoice : undefined,
        flash: done === 'paid' || done === 'rejected' || done === 'not_found' ? done : undefined,
        token: tokenFor(request),
      }),
    );
  });

  app.post<{ Params: { id: string; verb: string } }>(
    `${SANDBOX_WALLET_PATH}/invoices/:id/:verb`,
    { schema: { hide: true } },
    async (request, reply) => {
      const lang = languageOf(request);
      const { verb, id } = request.params;
      if (verb !== 'pay' && verb !== 'reject') throw new DomainError('not_found');
      const origin = request.headers.origin;
      const token = (request.body as { token?: unknown } | undefined)?.token;
      const expected = Buffer.from(tokenFor(request));
      const given = Buffer.from(typeof token === 'string' ? token : '');
      if (
        (origin && origin !== publicOrigin) ||
        given.length !== expected.length ||
        !timingSafeEqual(given, expected)
      )
        throw new DomainError('csrf_failed');
      const member = await memberOf(request);
      if ('refused' in member) return refusal(reply, lang, member.refused);
      let done: 'paid' | 'rejected' | 'not_found';
      try {
        const invoice = await settleInSandbox(
          deps,
          id,
          verb === 'pay' ? 'paid' : 'rejected',
          member.memberId,
        );
        // Paid or rejected before (another tab, the CLI): the page says how it stands.
        done = invoice.status === 'paid' ? 'paid' : 'rejected';
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'not_found')) throw err;
        done = 'not_found';
      }
      return reply.redirect(
        `${SANDBOX_WALLET_PATH}?lang=${lang}&done=${done}&invoice=${encodeURIComponent(id)}`,
        303,
      );
    },
  );
};
