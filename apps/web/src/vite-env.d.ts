/// <reference types="vite/client" />

/** The web app's version from its package.json (vite.config.ts `define`). */
declare const __APP_VERSION__: string;
