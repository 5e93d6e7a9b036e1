export { sieveHostFor, type FilterContext } from './message-host.js';
export { runSieveTest, type SieveTestOptions } from './sieve-test.js';
