/**
 * The web app's area map (DESIGN §3): the layers and which feature may import which. dependency-cruiser.cjs turns
 * it into lint rules; dependency-rules.test.ts checks that it has no cycle.
 */

/** Which feature may import which (a DAG; dependency-rules.test.ts checks that it has no cycle). */
const features = {
  account: [],
  'message-view': [],
  folders: [],
  filters: ['account', 'folders'],
  search: ['folders'],
  shell: ['account', 'folders', 'search'],
  auth: ['account', 'shell'],
  about: ['account', 'shell'],
  decrypt: ['message-view', 'shell'],
  compose: ['account', 'message-view'],
  mail: [
    'account',
    'compose',
    'contacts',
    'decrypt',
    'filters',
    'folders',
    'message-view',
    'search',
    'shell',
  ],
  settings: ['account', 'aliases', 'collectors', 'compose', 'domains', 'filters', 'folders', 'shell'],
  contacts: ['shell'],
  aliases: ['account'],
  domains: ['account', 'shell'],
  collectors: [],
};

const layers = {
  lib: [],
  i18n: ['lib'],
  ui: ['lib', 'i18n'],
  api: ['lib', 'i18n', 'ui'],
};

const esc = (name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/**
 * The forbidden rules for a source tree (SRC, a path pattern such as '^apps/web/src/'): any import not in the map,
 * a deep import into another feature, and a load-time cycle between modules.
 */
function forbiddenRules(SRC, { features, layers } = module.exports) {
  const layerPath = (name) => `${SRC}${esc(name)}/`;
  const featurePath = (name) => `${SRC}features/${esc(name)}/`;
  const basics = Object.keys(layers).map(layerPath);

  const forbidden = [
    ...Object.entries(layers).map(([layer, allowed]) => ({
      name: `layer-${layer}`,
      comment: `${layer}/ may import only ${allowed.join(', ') || 'packages'} (apps/web/dependency-cruiser.cjs)`,
      severity: 'error',
      from: { path: layerPath(layer) },
      to: { path: SRC, pathNot: [layerPath(layer), ...allowed.map(layerPath)] },
    })),
    ...Object.entries(features).map(([feature, allowed]) => ({
      name: `feature-${feature}`,
      comment:
        `features/${feature} may import lib, i18n, ui, api` +
        (allowed.length ? ` and the features ${allowed.join(', ')}` : '') +
        ' (the map in apps/web/dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: featurePath(feature) },
      to: { path: SRC, pathNot: [featurePath(feature), ...basics, ...allowed.map(featurePath)] },
    })),
    {
      name: 'feature-not-in-map',
      comment: 'every folder under features/ needs an entry in the map of apps/web/dependency-cruiser.cjs',
      severity: 'error',
      from: { path: `${SRC}features/[^/]+/`, pathNot: Object.keys(features).map(featurePath) },
      to: {},
    },
    {
      name: 'feature-through-index',
      comment: 'another feature is imported only through its index.ts, which exports what other areas use',
      severity: 'error',
      from: { path: `${SRC}features/([^/]+)/` },
      to: {
        path: `${SRC}features/[^/]+/`,
        pathNot: [`${SRC}features/$1/`, `${SRC}features/[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'app-through-index',
      comment:
        'app/ imports a feature only through its index.ts, and its live-event handler through its live.ts (only the ' +
        'lazy live-updates chunk needs those: DESIGN §5)',
      severity: 'error',
      from: { path: `${SRC}(app/|main\\.tsx$)` },
      to: { path: `${SRC}features/[^/]+/`, pathNot: `${SRC}features/[^/]+/(index|live)\\.ts$` },
    },
    {
      name: 'no-circular',
      comment:
        'modules must not import each other in a circle (a lazy import() back, or a type-only import, is not a ' +
        'load-time cycle and is allowed)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import', 'type-only'] } },
    },
  ];
  return forbidden;
}

/** What is cruised: type-only imports count (they couple areas too); tests and the test helpers are left out. */
const cruiseOptions = {
  tsPreCompilationDeps: true,
  doNotFollow: { path: 'node_modules' },
  exclude: { path: ['\\.test\\.tsx?$', '/src/test/'] },
  moduleSystems: ['es6'],
};

module.exports = { features, layers, forbiddenRules, cruiseOptions };
