export { b } from './b';
