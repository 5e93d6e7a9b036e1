import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const i18nImports = ['i18next', 'react-i18next'].map((name) => ({
  name,
  message: "useTranslation comes from src/i18n: i18next would take 16 KB of the shell's 110 KB (DESIGN §5).",
}));
/**
 * The mail store's lock and move primitives (apps/server/src/mailbox): only the store composes them into operations
 * (mark, move, delete, purge, folders, ingest), so the lock order lives in one area (issue 29).
 */
const storePrimitives = [
  'lockFolders',
  'lockMessages',
  'lockFolder',
  'lockFolderTree',
  'allocateUids',
  'relocateMessages',
  'deleteMessageRows',
  'adjustCounters',
  'releaseQuota',
  'setFlag',
  'setLabel',
  'setAnswered',
  'purgeLocked',
  'counterEvent',
  'unseenCount',
  'insertFolders',
  'renameFolderTree',
  'deleteFolderRow',
];
const storePrimitivesRule = [
  'error',
  {
    patterns: [
      {
        regex: '(^|/)mailbox(/.*)?$',
        importNames: storePrimitives,
        message:
          "a lock or move primitive of the store: call one of mailbox/'s operations (message-actions, folders, " +
          'labels, ingest) instead (docs/ARCHITECTURE.md).',
      },
    ],
  },
];
/** Routes never publish: a service's change emits its events inside its transaction (issue 29). */
const routeImportsRule = [
  'error',
  {
    patterns: [
      ...storePrimitivesRule[1].patterns,
      {
        regex: '(^|/)core/events(/.*)?$',
        importNames: ['emit'],
        message:
          "a route publishes nothing: the service's change emits its events inside its transaction " +
          '(docs/ARCHITECTURE.md).',
      },
    ],
  },
];
const routerMessage =
  'Routing comes from src/lib/router.tsx, the one module that imports wouter (React Router took 12 KB of the ' +
  "shell's 110 KB, DESIGN §5).";

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/build/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      '**/e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...i18nImports,
            ...['wouter', 'react-router', 'react-router-dom'].map((name) => ({
              name,
              message: routerMessage,
            })),
          ],
          patterns: [{ group: ['wouter/*', 'react-router/*', 'react-router-dom/*'], message: routerMessage }],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/server/test/**/*.ts'],
    ignores: ['apps/server/src/mailbox/**'],
    rules: { 'no-restricted-imports': storePrimitivesRule },
  },
  {
    files: ['apps/server/src/**/*.routes.ts'],
    rules: { 'no-restricted-imports': routeImportsRule },
  },
  {
    // CommonJS configuration files (dependency-cruiser's) can only load their helpers with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The router module wraps wouter for the rest of the app.
    files: ['apps/web/src/lib/router.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: i18nImports }] },
  },
);
