import { ConfigError, loadConfig, type Config } from './config.js';
import { openConfiguredDatabase } from './core/db/index.js';
import path from 'node:path';
import { loadSecrets } from './core/secrets.js';
import { FsBlobStore } from './core/blobs/index.js';
import { createEventBus } from './core/events/index.js';
import { buildApp } from './app.js';
import { startAdminSocket } from './admin/admin-socket.js';
import { deleteExpiredIdpModels, deleteExpiredSessions } from './auth/index.js';
import { startIngest } from './delivery/index.js';
import { startSendingJobs } from './sending/index.js';
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
  const admin = await startAdminSocket(db, config);
  const blobs = new FsBlobStore(path.join(config.dataDir, 'blobs'));
  const events = await createEventBus(config);
  const app = await buildApp({ config, db, secrets, blobs, events });
  await app.listen({ port: config.port, host: config.host });
  const ingest = await startIngest({ config, db, blobs, events, log: app.log.child({ area: 'smtp' }) });
  const sending = startSendingJobs({ config, db, blobs, events, log: app.log.child({ area: 'outbox' }) });
  app.log.info(
    {
      publicUrl: config.publicUrl,
      database: config.databaseUrl ? 'postgresql' : 'pglite',
      idp: config.oidc.issuer ?? 'embedded',
    },
    `Mailroom is running at ${config.publicUrl}`,
  );

  const sweep = setInterval(() => {
    void deleteExpiredSessions(db).catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
    void deleteExpiredIdpModels(db).catch((err: unknown) => app.log.warn({ err }, 'IdP sweep failed'));
    void sweepExpiredEncrypted({ db, blobs }).catch((err: unknown) =>
      app.log.warn({ err }, 'encrypted message sweep failed'),
    );
  }, 3600_000);
  sweep.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(sweep);
    await ingest.close();
    await sending.stop();
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
