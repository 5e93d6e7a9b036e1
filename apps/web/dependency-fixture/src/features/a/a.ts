import { y } from './y';

export const a = y + 1;
