// The built web app: its files, and index.html for every route of the app (with the first screen's data for a
// signed-in browser).
export { registerWebApp } from './web-app.js';
