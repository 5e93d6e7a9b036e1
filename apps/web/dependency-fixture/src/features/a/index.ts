export { a } from './a';
