import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { Db } from './core/db/index.js';
// Only what every command needs is imported here; the admin commands and the Sieve host are loaded by the commands
// that use them (2-3 s each under tsx): asking a running server loads neither.
import { sendAdminCommand } from './admin/admin-client.js';
import type { AdminCommand, AdminResult } from './admin/commands.js';
import { DomainError } from './core/errors.js';

const usage = `Usage: npm run mailroom -- user add --name "Ann Lee" --password secret [--member-id 123456789012]
       npm run mailroom -- dkim set --domain example.com --selector mail2026 (--key-file key.pem | --generate)
       npm run mailroom -- wallet pay|reject <invoice-id>     (the sandbox wallet)
       npm run mailroom -- support list [--limit 50]          (the members' support requests, newest first)
       npm run mailroom -- import --member-id 123456789012 [--filters] FILE   (an mbox, .eml, .zip or .tar.gz)
       npm run mailroom -- sieve test --script F.sieve --message M.eml [--from ADDR] [--to ADDR] [--time-limit MS]`;

class UsageError extends Error {}
/** A problem on the operator's side (e.g. an unreadable file): one line, exit code 1. */
class CliError extends Error {}

/** Reads the command line into one admin command; UsageError when it does not make one. */
async function commandFrom(argv: string[]): Promise<AdminCommand> {
  const [area, action, ...rest] = argv;
  if (area === 'user' && action === 'add') {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, password: { type: 'string' }, 'member-id': { type: 'string' } },
    });
    if (!values.name || !values.password) throw new UsageError();
    return {
      command: 'user.add',
      name: values.name,
      password: values.password,
      ...(values['member-id'] ? { memberId: values['member-id'] } : {}),
    };
  }
  if (area === 'dkim' && action === 'set') {
    const { values } = parseArgs({
      args: rest,
      options: {
        domain: { type: 'string' },
        selector: { type: 'string' },
        'key-file': { type: 'string' },
        generate: { type: 'boolean' },
      },
    });
    const keyFile = values['key-file'];
    // Exactly one source of the key.
    if (!values.domain || !values.selector || Boolean(keyFile) === Boolean(values.generate))
      throw new UsageError();
    const privateKeyPem = keyFile
      ? await fs.readFile(keyFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
          throw new CliError(`Cannot read the key file ${keyFile}: ${err.code ?? err.message}`);
        })
      : generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString();
    return { command: 'dkim.set', domain: values.domain, selector: values.selector, privateKeyPem };
  }
  if (area === 'wallet' && (action === 'pay' || action === 'reject')) {
    if (rest.length !== 1 || !rest[0]) throw new UsageError();
    return { command: action === 'pay' ? 'wallet.pay' : 'wallet.reject', invoiceId: rest[0] };
  }
  if (area === 'import') {
    const { values, positionals } = parseArgs({
      args: argv.slice(1),
      options: { 'member-id': { type: 'string' }, filters: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (!values['member-id'] || positionals.length !== 1) throw new UsageError();
    return {
      command: 'mail.import',
      memberId: values['member-id'],
      file: path.resolve(positionals[0]!),
      filters: values.filters ?? false,
    };
  }
  if (area === 'support' && action === 'list') {
    const { values } = parseArgs({ args: rest, options: { limit: { type: 'string' } } });
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError();
    return { command: 'support.list', limit };
  }
  throw new UsageError();
}

/**
 * The `mailroom` operator command. With PostgreSQL it opens the database itself; with PGlite it
 * asks a running server over the admin socket (one process per PGlite folder) and opens the
 * folder only when no server runs.
 */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'sieve') return sieveTest(argv);
  let command: AdminCommand;
  try {
    command = await commandFrom(argv);
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof TypeError)) throw err;
    // parseArgs throws TypeError for an unknown option or a missing value.
    if (err instanceof TypeError) console.error(err.message);
    console.error(usage);
    return 2;
  }
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
  const [{ openConfiguredDatabase }, { runAdminCommand }] = await Promise.all([
    import('./core/db/index.js'),
    import('./admin/commands.js'),
  ]);
  const db = await openConfiguredDatabase(config);
  try {
    const result = await runAdminCommand(db, config, command);
    print(result);
    // No server runs the import on this database for us (PGlite), or one may (PostgreSQL): the CLI works the
    // queue itself until the import has finished, whoever does it.
    if ('import' in result) return await followImport(db, config, result.import.id);
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * `sieve test`: runs a script against a message file, no server or database needed. Prints the
 * outcome one line each (issue 14's form) and exits 0 / 1 / 2 for success / runtime failure /
 * compile error; a usage problem exits 64 and an unreadable file 66, so neither is taken for a script's outcome.
 */
async function sieveTest(argv: string[]): Promise<number> {
  let values: { script?: string; message?: string; from?: string; to?: string; 'time-limit'?: string };
  try {
    ({ values } = parseArgs({
      args: argv.slice(2),
      options: {
        script: { type: 'string' },
        message: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        'time-limit': { type: 'string' },
      },
    }));
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    console.error(err.message);
    values = {};
  }
  // The run gets the server's time (SIEVE_TIME_LIMIT_MS, default 100 ms) unless --time-limit says otherwise (0: none).
  const timeLimit = Number(values['time-limit'] ?? process.env.SIEVE_TIME_LIMIT_MS ?? 100);
  if (
    argv[1] !== 'test' ||
    !values.script ||
    !values.message ||
    !Number.isInteger(timeLimit) ||
    timeLimit < 0
  ) {
    console.error(usage);
    return 64;
  }
  const read = (file: string, what: string) =>
    fs.readFile(file).catch((err: NodeJS.ErrnoException) => {
      throw new CliError(`Cannot read the ${what} ${file}: ${err.code ?? err.message}`);
    });
  let script: string;
  let message: Buffer;
  try {
    script = (await read(values.script, 'script')).toString('utf8');
    message = await read(values.message, 'message');
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    console.error(err.message);
    return 66; // EX_NOINPUT: not a script outcome
  }
  const { runSieveTest } = await import('./filters/index.js');
  const { lines, exitCode } = await runSieveTest({
    script,
    message,
    ...(values.from !== undefined ? { from: values.from } : {}),
    ...(values.to !== undefined ? { to: values.to } : {}),
    timeLimitMs: timeLimit || null,
  });
  process.stdout.write(lines.join('\n') + '\n');
  return exitCode;
}

/** Runs due mail imports here and prints the progress of `id` until it has finished; 1 when it failed. */
async function followImport(db: Db, config: Config, id: number): Promise<number> {
  const [
    { openBlobStore },
    { createEventBus },
    { runMailImport },
    { closeParsePool },
    { closeSievePool },
    pino,
  ] = await Promise.all([
    import('./core/blobs/index.js'),
    import('./core/events/index.js'),
    import('./imports/index.js'),
    import('./mailbox/index.js'),
    import('./filters/index.js'),
    import('pino'),
  ]);
  const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'), config.blobs.s3);
  const events = await createEventBus(config);
  const log = pino.default({ level: 'warn' });
  let last = '';
  const deps = {
    db,
    blobs,
    events,
    log,
    afterBatch: (p: { position: number; total: number }) => {
      process.stderr.write(`\r${p.position} of ${p.total}`);
    },
  };
  try {
    for (;;) {
      const ran = await runMailImport(deps);
      const row = await db
        .selectFrom('mail_imports')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (row.state === 'done' || row.state === 'failed') {
        process.stderr.write('\n');
        console.log(
          `import ${id} ${row.state}${row.error ? ` (${row.error})` : ''}: ${row.stored} stored, ` +
            `${row.already_here} already here, ${row.skipped} skipped, ${row.failed} failed, of ${row.total}`,
        );
        return row.state === 'done' ? 0 : 1;
      }
      const now = `${row.position} of ${row.total}`;
      if (now !== last) process.stderr.write(`\r${(last = now)}`);
      if (!ran) await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await events.close();
    // The parse workers (and the Sieve ones, with --filters) would otherwise wait out their 30 s idle time before the
    // command could exit: `mailroom import` printed its last line and hung on for half a minute.
    await Promise.all([closeParsePool(), closeSievePool()]);
  }
}

function print(result: AdminResult) {
  if ('import' in result) {
    const i = result.import;
    console.log(`import ${i.id} of ${i.file_name} queued`);
    return;
  }
  if ('supportRequests' in result) {
    if (!result.supportRequests.length) console.log('No support requests.');
    for (const r of result.supportRequests) {
      console.log(`#${r.id}  ${r.created_at}  from ${r.name} <${r.email}> (member ID ${r.member_id})`);
      console.log(`subject: ${r.subject}${r.diagnostics ? '  [with diagnostics]' : ''}`);
      console.log(r.text.replace(/^/gm, '  '));
      console.log('');
    }
    return;
  }
  if ('invoiceId' in result) {
    console.log(`invoice ${result.invoiceId}: ${result.status}`);
    return;
  }
  if ('memberId' in result) {
    console.log(`member ID: ${result.memberId}`);
    console.log(`address:   ${result.email}`);
    return;
  }
  console.log(`DKIM key set for ${result.domain} (selector ${result.selector}). Publish this TXT record:`);
  console.log(`name:  ${result.dnsName}`);
  console.log(`value: ${result.dnsValue}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof ConfigError || err instanceof DomainError || err instanceof CliError) {
    console.error(err instanceof DomainError ? `${err.code}: ${err.message}` : err.message);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
