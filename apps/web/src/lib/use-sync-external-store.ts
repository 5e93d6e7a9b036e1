// wouter reaches React's useSyncExternalStore through the `use-sync-external-store` shim, which exists for React
// before 18 and ships a fallback implementation (~0.4 KB gzipped) into the mail shell. React 19 has the hook itself:
// vite.config.ts points the shim here.
export { useSyncExternalStore } from 'react';
