import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { sendAdminCommand } from './admin/admin-socket.js';
import { runAdminCommand, type AdminCommand } from './admin/commands.js';
import { DomainError } from './http/errors.js';

const usage = `Usage: npm run mailroom -- user add --name "Ann Lee" --password secret [--member-id 123456789012]`;

/**
 * The `mailroom` operator command. With PostgreSQL it opens the database itself; with PGlite it
 * asks a running server over the admin socket (one process per PGlite folder) and opens the
 * folder only when no server runs.
 */
async function main(argv: string[]): Promise<number> {
  const [area, action, ...rest] = argv;
  if (area !== 'user' || action !== 'add') {
    console.error(usage);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, password: { type: 'string' }, 'member-id': { type: 'string' } },
  });
  if (!values.name || !values.password) {
    console.error(usage);
    return 2;
  }
  const command: AdminCommand = {
    command: 'user.add',
    name: values.name,
    password: values.password,
    ...(values['member-id'] ? { memberId: values['member-id'] } : {}),
  };
  const config = loadConfig();

  if (!config.databaseUrl) {
    const reply = await sendAdminCommand(config.dataDir, command);
    if (reply) {
      if (!reply.ok) {
        console.error(`${reply.code}: ${reply.message}`);
        return 1;
      }
      print(reply.result);
      return 0;
    }
  }
  const { openConfiguredDatabase } = await import('./db-open.js');
  const db = await openConfiguredDatabase(config);
  try {
    print(await runAdminCommand(db, config, command));
    return 0;
  } finally {
    await db.destroy();
  }
}

function print(result: { memberId: string; email: string }) {
  console.log(`member ID: ${result.memberId}`);
  console.log(`address:   ${result.email}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof ConfigError || err instanceof DomainError) {
    console.error(err instanceof DomainError ? `${err.code}: ${err.message}` : err.message);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
