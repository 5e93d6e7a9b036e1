import { z } from 'zod';
import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import { ensureAccount } from '../accounts/index.js';
import { createIdpUser } from '../auth/index.js';
import { setDkimKey, type DkimKeyResult } from '../addresses/index.js';

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
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export interface UserAddResult {
  memberId: string;
  email: string;
}

export type AdminResult = UserAddResult | DkimKeyResult;

export async function runAdminCommand(db: Db, config: Config, command: AdminCommand): Promise<AdminResult> {
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
      });
      return { memberId: user.memberId, email: account.email };
    }
    case 'dkim.set':
      return setDkimKey(db, command);
  }
}
