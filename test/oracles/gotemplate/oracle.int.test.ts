import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The Go oracle itself: Go's text/template (Debian's golang-go, installed here when missing, as on CI) is run
 * over every case, and its answers must be the ones in cases.json, the fixture the engine's differential unit
 * test reads. So the fixture never drifts from what Go says. Needs root and apt to install Go when missing;
 * a machine without either skips this file, saying why.
 */
const DIR = import.meta.dirname;

function haveGo(): boolean {
  return spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
}

function installGo(): string | undefined {
  if (haveGo()) return undefined;
  if (process.getuid?.() !== 0) return 'Go is not installed and this user cannot install it (apt-get install golang-go needs root)';
  if (spawnSync('apt-get', ['--version']).status !== 0) return 'Go is not installed and there is no apt-get to install it with';
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', '-qq', 'golang-go'], { encoding: 'utf8', env, timeout: 600_000 });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { encoding: 'utf8', env, timeout: 300_000 });
    install = spawnSync('apt-get', ['install', '-y', '-qq', 'golang-go'], { encoding: 'utf8', env, timeout: 600_000 });
  }
  if (install.status !== 0 || !haveGo()) throw new Error(`could not install golang-go:\n${install.stderr.slice(-2000)}`);
  return undefined;
}

const unavailable = installGo();
if (unavailable) process.stdout.write(`skipped the live Go oracle: ${unavailable}\n`);

describe.skipIf(unavailable !== undefined)("Go's text/template, run live", () => {
  it('answers every case as cases.json records', () => {
    const ran = spawnSync('go', ['run', '.'], {
      cwd: DIR,
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, GOFLAGS: '-mod=mod', GOCACHE: path.join(DIR, '..', '..', '..', '.tmp', 'go-cache'), GOPATH: path.join(DIR, '..', '..', '..', '.tmp', 'go-path') },
    });
    expect(ran.status, ran.stderr).toBe(0);
    const live = JSON.parse(ran.stdout) as { cases: unknown[] };
    const recorded = JSON.parse(readFileSync(path.join(DIR, 'cases.json'), 'utf8')) as { cases: unknown[] };
    expect(live.cases.length).toBeGreaterThan(200);
    expect(live.cases).toEqual(recorded.cases);
  }, 600_000);
});
