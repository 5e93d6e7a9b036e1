export { exportRoutes } from './export.routes.js';
