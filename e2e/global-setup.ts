import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..');

/** The journeys drive the built app: build it when it is missing or stale, and require Chromium. */
export function setup(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit', cwd: root });
}
