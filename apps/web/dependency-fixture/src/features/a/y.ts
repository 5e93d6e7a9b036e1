import { x } from './x';

export const y = typeof x === 'number' ? 1 : 2;
