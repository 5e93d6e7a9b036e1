import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { MailImport } from '@mailroom/protocol';
import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import { ensureAccount, findAccountByMemberId } from '../accounts/index.js';
import { importFormat, startImport } from '../imports/index.js';
import { createIdpUser } from '../auth/index.js';
import { setDkimKey, type DkimKeyResult } from '../addresses/index.js';
import { DomainError } from '../core/errors.js';
import { createEventBus } from '../core/events/index.js';
import { settleInSandbox, type InvoicePurposes } from '../wallet/index.js';
import { operatorSupportRequests, type OperatorSupportRequest } from '../support/index.js';

/** Operator commands, run by the CLI directly or by the server on the CLI's behalf (admin socket). */
export const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('user.add'),
    name: z.string().trim().min(1).max(100),
    password: z.string().min(1).max(200),
    memberId: z.string().optional(),
  }),
  z.object({
    command: z.literal('dkim.set'),
    domain: z.string().max(253),
    selector: z.string().max(63),
    // A 4096-bit RSA key in PEM is about 3.3 KB; the socket reads at most 64 KB per line anyway.
    privateKeyPem: z.string().max(16_000),
  }),
  z.object({
    command: z.enum(['wallet.pay', 'wallet.reject']),
    /** The wallet's invoice id (the sandbox page shows it, an invoice's `id` in the API). */
    invoiceId: z.string().min(1).max(200),
  }),
  z.object({
    /** A file on the server's disk imported into a member's mailbox (issue 33): queued as a mail-import job. */
    command: z.literal('mail.import'),
    memberId: z.string().min(1).max(20),
    file: z.string().min(1).max(4096),
    filters: z.boolean().default(false),
  }),
  z.object({
    command: z.literal('support.list'),
    /** How many of the latest requests (default 50). */
    limit: z.number().int().min(1).max(1000).default(50),
  }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export interface UserAddResult {
  memberId: string;
  email: string;
}

export interface WalletSettleResult {
  invoiceId: string;
  status: string;
}

export interface SupportListResult {
  supportRequests: OperatorSupportRequest[];
}

export interface MailImportResult {
  import: MailImport;
}

export type AdminResult =
  UserAddResult | DkimKeyResult | WalletSettleResult | SupportListResult | MailImportResult;

/**
 * Runs one operator command. `invoicePurposes`: the running server's (over the admin socket), else the app's, so a
 * payment made here does what the server's would.
 */
export async function runAdminCommand(
  db: Db,
  config: Config,
  command: AdminCommand,
  invoicePurposes?: InvoicePurposes,
): Promise<AdminResult> {
  switch (command.command) {
    case 'user.add': {
      const user = await createIdpUser(db, {
        name: command.name,
        password: command.password,
        memberId: command.memberId,
      });
      const { account } = await ensureAccount(db, {
        memberId: user.memberId,
        name: user.name,
        mailDomain: config.mailDomain,
        undoSendSeconds: config.timeControls.undoSendDefault,
      });
      return { memberId: user.memberId, email: account.email };
    }
    case 'dkim.set':
      return setDkimKey(db, command);
    case 'support.list':
      return { supportRequests: await operatorSupportRequests(db, command.limit) };
    case 'mail.import': {
      const account = await findAccountByMemberId(db, command.memberId);
      if (!account) throw new DomainError('user_not_found');
      const file = path.resolve(command.file);
      await fs.access(file, fs.constants.R_OK).catch(() => {
        throw new DomainError('import_file_unreadable', `Cannot read ${file}`);
      });
      await importFormat(null, { path: file });
      return {
        import: await startImport(db, account.id, {
          file: { path: file },
          options: { filters: command.filters },
        }),
      };
    }
    case 'wallet.pay':
    case 'wallet.reject': {
      // The member's own action in the sandbox wallet: with the provider's wallet there is nothing of ours to press.
      if (config.wallet.apiUrl)
        throw new DomainError('forbidden', 'The sandbox wallet is off: WALLET_API_URL is set');
      // The CLI on its own (no server running) loads the app's purposes only for this command: app.ts is heavy. Its
      // own event bus tells open tabs (through PostgreSQL's NOTIFY; with embedded PGlite no server is running).
      const ownEvents = invoicePurposes ? undefined : await createEventBus(config);
      try {
        const purposes = invoicePurposes ?? (await import('../app.js')).appInvoicePurposes(ownEvents!);
        const invoice = await settleInSandbox(
          { db, invoicePurposes: purposes },
          command.invoiceId,
          command.command === 'wallet.pay' ? 'paid' : 'rejected',
        );
        return { invoiceId: invoice.id, status: invoice.status };
      } finally {
        await ownEvents?.close();
      }
    }
  }
}
