// b may import a, but only through a's index.ts: this deep import must be reported.
import { a } from '../a/a';

export const b = a + 1;
