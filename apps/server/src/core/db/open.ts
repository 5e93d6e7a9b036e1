import path from 'node:path';
import type { Config } from '../../config.js';
import { migrate, openDatabase, type Db } from './index.js';

export async function openConfiguredDatabase(config: Config): Promise<Db> {
  const db = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  await migrate(db);
  return db;
}
