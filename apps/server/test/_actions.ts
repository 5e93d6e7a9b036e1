import type Mail from 'nodemailer/lib/mailer/index.js';
import type { FolderSystem } from '@mailroom/protocol';
import type { createTestApp } from './_util.js';
import { signUpAndSignIn } from './_util.js';
import { deliverTestMessage } from './_mail.js';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A signed-in user with its account id, system folder ids and a way to receive mail. */
export async function mailUser(ctx: TestApp, name = 'Ann Lee') {
  const { browser, memberId } = await signUpAndSignIn(ctx.app, name);
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  const rows = await ctx.db
    .selectFrom('folders')
    .select(['id', 'system'])
    .where('account_id', '=', account.id)
    .execute();
  const folders = Object.fromEntries(rows.filter((f) => f.system).map((f) => [f.system!, f.id])) as Record<
    FolderSystem,
    number
  >;
  return {
    browser,
    accountId: account.id,
    email: account.email,
    folders,
    deliver: (
      options: Mail.Options,
      store: { folderId?: number; seen?: boolean; flagged?: boolean; receivedAt?: Date } = {},
    ) => deliverTestMessage(ctx.db, ctx.blobs, account.id, { to: account.email, ...options }, store),
  };
}
export type MailUser = Awaited<ReturnType<typeof mailUser>>;

/** A folder's counters as stored, and as the messages really are. */
export async function counters(ctx: TestApp, folderId: number) {
  const folder = await ctx.db
    .selectFrom('folders')
    .select(['unread_count', 'total_count', 'uidnext'])
    .where('id', '=', folderId)
    .executeTakeFirstOrThrow();
  const truth = await ctx.db
    .selectFrom('messages')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('id').filterWhere('seen', '=', false).as('unread'),
    ])
    .where('folder_id', '=', folderId)
    .executeTakeFirstOrThrow();
  return {
    stored: { unread: folder.unread_count, total: folder.total_count },
    truth: { unread: Number(truth.unread), total: Number(truth.total) },
    uidnext: folder.uidnext,
  };
}
