import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (the folder with watchkeeper's package.json), from source or from the built bundle. */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (true) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      if (parsed && typeof parsed === 'object' && 'name' in parsed && parsed.name === 'watchkeeper') return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the watchkeeper package root');
    dir = parent;
  }
}

export const ROOT = findRoot();
export const MIGRATIONS_DIR = path.join(ROOT, 'server', 'db', 'migrations');
export const WEB_DIST = path.join(ROOT, 'dist', 'web');

function readVersion(): string {
  const parsed: unknown = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') return parsed.version;
  return 'unknown';
}
export const VERSION = readVersion();
