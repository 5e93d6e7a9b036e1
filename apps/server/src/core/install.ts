import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let found: { dir: string; version: string } | undefined;

/**
 * The server package as installed: its folder (apps/server) and version, found from this module's place upward, so
 * they hold whether the server runs from src/ (tsx), dist/ (tsc's files) or build/ (the bundle `npm start` runs,
 * whose chunks sit one level below the package, not where the source files did).
 */
export function serverPackage(): { dir: string; version: string } {
  if (found) return found;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@mailroom/server') return (found = { dir, version: pkg.version ?? 'unknown' });
    }
    if (path.dirname(dir) === dir) throw new Error('the @mailroom/server package.json was not found');
  }
}
