// A load-time cycle: x and y import each other.
import { y } from './y';

export const x = y + 1;
