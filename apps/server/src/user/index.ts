export { userRoutes } from './user.routes.js';
