import { PGlite } from '@electric-sql/pglite';
import { pgliteInitdbParams } from './pglite-cluster.js';

/**
 * The child process that creates an embedded database cluster (`createPgliteClusterIfMissing` of pglite-cluster.ts
 * runs it, then opens the finished cluster): `node pglite-initdb.js <folder>`. A file of its own, so the bundle has it
 * as an entry beside main.js.
 */
const pglite = await PGlite.create(process.argv[2]!, { initDbStartParams: pgliteInitdbParams });
await pglite.close();
