import { ConfigError, loadConfig, type Config } from './config.js';
import { checkpointIfDue, openConfiguredDatabase, upkeepDatabase, upkeepWanted } from './core/db/index.js';
import path from 'node:path';
import { loadSecrets } from './core/secrets.js';
import { openBlobStore } from './core/blobs/index.js';
import { createEventBus } from './core/events/index.js';
import { appInvoicePurposes, buildApp } from './app.js';
import { openWalletGateway, startWalletJobs } from './wallet/index.js';
import { startRecurringJob } from './core/jobs/index.js';
import { startIdleCollection } from './core/idle-collection.js';
import { startAdminSocket } from './admin/admin-socket.js';
import {
  deleteExpiredIdpModels,
  deleteExpiredSessions,
  deleteOldAuthLog,
  deleteQuietSignInThrottles,
} from './auth/index.js';
import { startIngest } from './delivery/index.js';
import { startSendingJobs, withFilterActions } from './sending/index.js';
import { startFilterRuns } from './filters/index.js';
import { sweepExpiredEncrypted } from './encrypted/index.js';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const db = await openConfiguredDatabase(config);
  const secrets = await loadSecrets(config, db);
  const blobs = openBlobStore(db, path.join(config.dataDir, 'blobs'));
  const events = await createEventBus(config);
  const wallet = openWalletGateway(config, db);
  const invoicePurposes = appInvoicePurposes(events);
  const admin = await startAdminSocket(db, config, invoicePurposes);
  const app = await buildApp({ config, db, secrets, blobs, events, wallet, invoicePurposes });
  await app.listen({ port: config.port, host: config.host });
  const ingest = await startIngest(
    withFilterActions({ config, db, blobs, events, log: app.log.child({ area: 'smtp' }) }),
  );
  const sending = startSendingJobs(
    withFilterActions({ config, db, blobs, events, secrets, log: app.log.child({ area: 'outbox' }) }),
  );
  const walletJobs = startWalletJobs({ db, wallet, invoicePurposes, log: app.log.child({ area: 'wallet' }) });
  const filterRuns = startFilterRuns({ db, blobs, events, log: app.log.child({ area: 'filters' }) });
  app.log.info(
    {
      publicUrl: config.publicUrl,
      database: config.databaseUrl ? 'postgresql' : 'pglite',
      idp: config.oidc.issuer ?? 'embedded',
    },
    `Mailroom is running at ${config.publicUrl}`,
  );

  // Hourly, once across every process on the database.
  const sweeps = [
    { name: 'session-sweep', run: () => deleteExpiredSessions(db) },
    { name: 'idp-sweep', run: () => deleteExpiredIdpModels(db) },
    { name: 'sign-in-throttle-sweep', run: () => deleteQuietSignInThrottles(db) },
    // The sign-in log is kept AUTH_LOG_DAYS.
    { name: 'auth-log-sweep', run: () => deleteOldAuthLog(db) },
    { name: 'encrypted-sweep', run: () => sweepExpiredEncrypted({ db, blobs }) },
    // A message or attachment still spooled after a day belongs to a process that stopped mid-way.
    { name: 'spool-sweep', run: () => blobs.sweepSpool(24 * 3600_000) },
  ].map(({ name, run }) =>
    startRecurringJob({ db, name, intervalMs: 3600_000, run, log: app.log.child({ area: 'jobs' }) }),
  );

  // Where no autovacuum runs (embedded PGlite, or PostgreSQL with it turned off) the server does its work, once a
  // minute across every process on the database.
  const upkeepLog = app.log.child({ area: 'upkeep' });
  const upkeep = (await upkeepWanted(db, !config.databaseUrl))
    ? startRecurringJob({
        db,
        name: 'database-upkeep',
        intervalMs: 60_000,
        log: upkeepLog,
        run: async () => {
          const done = await upkeepDatabase(db);
          if (done.length > 0) upkeepLog.info({ done }, 'database upkeep');
          // PostgreSQL's checkpointer does this on a server; embedded PGlite has none.
          if (!config.databaseUrl && (await checkpointIfDue(db))) upkeepLog.info('checkpoint');
        },
      })
    : null;

  // The heap a burst of work grew is given back once the server is quiet (with --expose-gc, as the serve script runs it).
  const gcLog = app.log.child({ area: 'memory' });
  const idleCollection = startIdleCollection({
    collected: (before, after) =>
      gcLog.debug(
        { heapUsedMb: Math.round(before / 2 ** 20), afterMb: Math.round(after / 2 ** 20) },
        'idle collection',
      ),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    idleCollection.stop();
    app.log.info({ signal }, 'shutting down');
    await Promise.all([...sweeps, ...walletJobs, ...(upkeep ? [upkeep] : [])].map((s) => s.stop()));
    await ingest.close();
    await sending.stop();
    await filterRuns.stop();
    await app.close();
    await admin.close();
    await events.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
