/**
 * The web app's layers and feature map (DESIGN §3), checked by `npm run lint` and by dependency-rules.test.ts.
 *
 * Layers, each importing only those before it:  lib ← i18n ← ui ← api ← features ← app
 *   lib   browser plumbing with no product knowledge: the router over wouter, cookies, frame detection
 *   i18n  t(), the locales, the language
 *   ui    shared components and UI state (dialogs, dropdowns, notices, preloader, lazy loading)
 *   api   the typed client over the protocol route table, ApiError and its message, the live socket dispatcher
 *   features/<area>  see `features` below: an area may import the areas listed for it, only through their index.ts
 *   app   router table, guards, providers, layout, start-up: wires the features together (also via index.ts only)
 * Tests (*.test.ts[x]) and src/test/ (render helpers that mount the whole app) are outside the map.
 */

const { cruiseOptions, forbiddenRules } = require('./dependency-map.cjs');

module.exports = {
  forbidden: forbiddenRules('^apps/web/src/'),
  options: cruiseOptions,
};
