import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, chmodSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory `watchkeeper migrate` made: the embedded database created and migrated, stopped. */
    e2eDataTemplate: string;
  }
}

/**
 * The journeys drive the built app: build it when it is missing or stale, and require Chromium. Then one
 * data directory is made as `watchkeeper migrate` makes it (the embedded database initialised and
 * migrated); each journey's server starts on a copy of it (e2e/harness.ts), so the 30-odd journeys do not
 * each wait for initdb and every migration. A journey that must start from nothing passes `fresh: true`.
 */
export function setup(project: TestProject): () => void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit', cwd: root });
  const template = mkdtempSync(path.join(os.tmpdir(), 'wk-e2e-template-'));
  chmodSync(template, 0o755);
  execFileSync(process.execPath, [path.join(root, 'bin', 'watchkeeper.mjs'), 'migrate'], {
    cwd: root,
    env: { ...process.env, WATCHKEEPER_DATA: template, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  project.provide('e2eDataTemplate', template);
  return () => rmSync(template, { recursive: true, force: true });
}
