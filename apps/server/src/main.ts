import { ConfigError, loadConfig, type Config } from './config.js';
import { checkpointIfDue, openConfiguredDatabase, upkeepDatabase, upkeepWanted } from './core/db/index.js';
import path from 'node:path';
import { loadSecrets } from './core/secrets.js';
import { openBlobStore, startBlobCollector } from './core/blobs/index.js';
import { createEventBus } from './core/events/index.js';
import { appBlobReferences, appInvoicePurposes, buildApp } from './app.js';
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
import { startContactImports } from './contacts/index.js';
import { startMailImports, sweepImportUploads } from './imports/index.js';
import { startSpamJobs } from './spam/index.js';
import { sweepExpiredEncrypted } from './encrypted/index.js';
import { runDomainUpkeep } from './addresses/index.js';
import { AddressPolicy, openDnsResolver } from './core/net/index.js';
import { startMetricsListener } from './http/index.js';
import { collectorView, connectImap, imapErrorCode, startCollectorJobs } from './collectors/index.js';

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
  const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'), config.blobs.s3);
  const events = await createEventBus(config);
  const wallet = openWalletGateway(config, db);
  const invoicePurposes = appInvoicePurposes(events);
  const admin = await startAdminSocket(db, config, invoicePurposes);
  const app = await buildApp({ config, db, secrets, blobs, events, wallet, invoicePurposes });
  // Prometheus metrics on a listener of their own, loopback by default (METRICS_HOST, METRICS_PORT).
  const metrics = config.metrics.listener
    ? await startMetricsListener(config.metrics.listener).catch((err: unknown) => {
        const { host, port } = config.metrics.listener!;
        console.error(
          `The metrics listener cannot listen on ${host}:${port} (${err instanceof Error ? err.message : String(err)}): set METRICS_PORT to a free port, or METRICS_PORT=off`,
        );
        process.exit(1);
      })
    : null;
  await app.listen({ port: config.port, host: config.host });
  const ingest = await startIngest(
    withFilterActions({ config, db, blobs, events, secrets, log: app.log.child({ area: 'smtp' }) }),
  );
  const sending = startSendingJobs(
    withFilterActions({ config, db, blobs, events, secrets, log: app.log.child({ area: 'outbox' }) }),
  );
  const walletJobs = startWalletJobs({ db, wallet, invoicePurposes, log: app.log.child({ area: 'wallet' }) });
  const filterRuns = startFilterRuns({ db, blobs, events, log: app.log.child({ area: 'filters' }) });
  // Rspamd taught from members' moves to and from Junk; Junk's retention.
  const spamJobs = startSpamJobs({ config, db, blobs, events, log: app.log.child({ area: 'spam' }) });
  const contactImports = startContactImports({
    db,
    blobs,
    events,
    log: app.log.child({ area: 'contacts' }),
    limits: config.contacts,
  });
  // Mail imports (issue 33): an mbox or an archive of .eml files into an account, a job a batch at a time.
  const mailImports = startMailImports({ db, blobs, events, log: app.log.child({ area: 'imports' }) });
  // Collectors: each due collector's import or poll, a job of the queue (core/jobs) shared by every process.
  const collectorNet = {
    dns: openDnsResolver(config.dnsServers),
    policy: new AddressPolicy(config.outboundAllowPrivate),
  };
  const collectors = startCollectorJobs({
    db,
    blobs,
    events,
    log: app.log.child({ area: 'collectors' }),
    settings: config.collectors,
    mailDomain: config.mailDomain,
    passwordSecret: secrets.collectorPasswordSecret,
    connect: (server, auth) => connectImap(server, auth, collectorNet),
    errorCode: imapErrorCode,
    view: collectorView,
  });
  app.log.info(
    {
      publicUrl: config.publicUrl,
      database: config.databaseUrl ? 'postgresql' : 'pglite',
      idp: config.oidc.issuer ?? 'embedded',
      metrics: config.metrics.listener
        ? `http://${config.metrics.listener.host}:${metrics?.port}/metrics`
        : 'off',
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
    // Import files' chunked uploads left unfinished, or never imported, for a day.
    { name: 'import-upload-sweep', run: () => sweepImportUploads(db) },
  ].map(({ name, run }) =>
    startRecurringJob({ db, name, intervalMs: 3600_000, run, log: app.log.child({ area: 'jobs' }) }),
  );
  // Hourly, once across every process: blobs nothing references after BLOB_GC_GRACE_HOURS, and the spool's
  // leftovers of writes that never finished (a message or attachment still spooled after a day).
  const blobCollector = startBlobCollector({
    db,
    store: blobs,
    referenced: appBlobReferences(db),
    graceMs: config.blobs.gcGraceMs,
    log: app.log.child({ area: 'blobs' }),
  });

  // Daily, once across every process: own domains proven again, unproven ones expired, DKIM rotations moved on.
  const domainLog = app.log.child({ area: 'domains' });
  const domainUpkeep = startRecurringJob({
    db,
    name: 'domains-upkeep',
    intervalMs: 24 * 3600_000,
    log: domainLog,
    run: async () => {
      const done = await runDomainUpkeep({
        db,
        blobs,
        events,
        log: domainLog,
        wallet,
        invoicePurposes,
        mailDomain: config.mailDomain,
        mxHost: config.mxHost,
        domains: config.domains,
        resolver: openDnsResolver(config.dnsServers),
        outboundPolicy: new AddressPolicy(config.outboundAllowPrivate),
        dkimKeySecret: secrets.dkimKeySecret,
      });
      domainLog.info(done, 'domains upkeep');
    },
  });

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

  /**
   * SIGTERM/SIGINT: readiness says 503 first (for SHUTDOWN_DELAY_SECONDS, everything still working, so a load
   * balancer stops sending); then at once the listeners close and what is in progress drains, within
   * SHUTDOWN_TIMEOUT_SECONDS: HTTP requests under way finish (new ones on open connections get 503) and websockets
   * are told 'going away' (the page reconnects to another node); SMTP sessions in DATA get their reply, the others
   * 421 (ingest's close); job loops stop between items and give back what they hold — claimed outbox rows, a
   * collector's lease — so another process takes them at once. What is still open at the deadline is cut (HTTP
   * connections closed, SMTP sessions told 421, never 250); then the database closes.
   */
  const { delayMs, timeoutMs } = config.shutdown;
  const shutdownLog = app.log.child({ area: 'shutdown' });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.health.shuttingDown = true;
    idleCollection.stop();
    shutdownLog.info({ signal, delayMs, timeoutMs }, 'shutting down');
    // Whatever happens below, the process ends.
    setTimeout(
      () => {
        shutdownLog.error('shutdown did not finish; exiting');
        process.exit(1);
      },
      delayMs + timeoutMs + 15_000,
    ).unref();
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

    // Past the deadline HTTP connections still open are cut; stores of SMTP messages cut at it get a few seconds more.
    const cutHttp = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
    const hardDeadline = Date.now() + timeoutMs + 5_000;
    const drain = async (part: string, work: () => Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, hardDeadline - Date.now()));
      });
      try {
        if ((await Promise.race([work(), late])) === 'late')
          shutdownLog.warn({ part }, 'not drained by the shutdown deadline');
      } catch (err) {
        shutdownLog.error({ err, part }, 'stopping failed');
      } finally {
        clearTimeout(timer);
      }
    };
    await Promise.all([
      drain('http', () => app.close()),
      drain('metrics', async () => metrics?.close()),
      drain('smtp', () => ingest.close(timeoutMs)),
      drain('outbox', () => sending.stop()),
      drain('filter-runs', () => filterRuns.stop()),
      drain('spam', () => spamJobs.stop()),
      drain('contact-imports', () => contactImports.stop()),
      drain('mail-imports', () => mailImports.stop()),
      drain('collectors', () => collectors.stop()),
      drain('recurring-jobs', () =>
        Promise.all(
          [...sweeps, blobCollector, ...walletJobs, domainUpkeep, ...(upkeep ? [upkeep] : [])].map((s) =>
            s.stop(),
          ),
        ),
      ),
    ]);
    clearTimeout(cutHttp);
    await drain('admin', () => admin.close());
    await drain('events', () => events.close());
    await drain('database', () => db.destroy());
    shutdownLog.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
