import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module without types
import { isBuildInput, recordBuild, sourceHash, staleTargets, TARGETS } from './build-state.mjs';

/**
 * `npm start` and `npm install` build only what is stale, judged by the sources' content hash: a changed
 * source rebuilds its target, the same content (whatever its file times) does not.
 */
const root = path.resolve(import.meta.dirname, '..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-build-state-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function write(dir: string, file: string, body: string) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), body);
}

let projects = 0;
/** A small project shaped like this one: sources in web/, server/, common/, package files at the top. */
function project(): string {
  projects += 1;
  const dir = path.join(temp, `project-${projects}`);
  write(dir, 'package.json', '{"name":"p"}\n');
  write(dir, 'package-lock.json', '{}\n');
  write(dir, 'tsconfig.json', '{}\n');
  write(dir, 'scripts/build.mjs', '// build\n');
  write(dir, 'server/main.ts', "export const main = 'server';\n");
  write(dir, 'server/features/a/rules.ts', 'export const rule = 1;\n');
  write(dir, 'server/features/a/rules.test.ts', "it('rule', () => {});\n");
  write(dir, 'server/features/a/tests/fixtures/case.yaml', 'a: 1\n');
  write(dir, 'common/types.ts', 'export type T = string;\n');
  write(dir, 'web/main.tsx', "export const page = 'web';\n");
  return dir;
}

function built(dir: string) {
  for (const [name, target] of Object.entries(TARGETS) as Array<[string, { inputs: string[]; output: string }]>) {
    write(dir, target.output, `built ${name}\n`);
    recordBuild(dir, name, sourceHash(dir, target.inputs));
  }
}

const staleNames = (dir: string) => (staleTargets(dir) as Array<{ name: string; reason: string }>).map((target) => `${target.name}:${target.reason}`);

describe('staleTargets', () => {
  it('builds everything in a fresh clone, nothing once built', () => {
    const dir = project();
    expect(staleNames(dir)).toEqual(['web:missing', 'server:missing']);
    built(dir);
    expect(staleNames(dir)).toEqual([]);
  });

  it('does not rebuild for the same content with newer file times', () => {
    const dir = project();
    built(dir);
    const later = new Date(Date.now() + 60_000);
    for (const file of ['server/main.ts', 'web/main.tsx', 'package.json']) fs.utimesSync(path.join(dir, file), later, later);
    write(dir, 'common/types.ts', 'export type T = string;\n');
    expect(staleNames(dir)).toEqual([]);
  });

  it('rebuilds only the web app for a web change, both for a server or common change', () => {
    const dir = project();
    built(dir);
    write(dir, 'web/main.tsx', "export const page = 'web, changed';\n");
    expect(staleNames(dir)).toEqual(['web:changed']);
    built(dir);
    write(dir, 'server/features/a/rules.ts', 'export const rule = 2;\n');
    expect(staleNames(dir)).toEqual(['web:changed', 'server:changed']);
    built(dir);
    write(dir, 'common/types.ts', 'export type T = number;\n');
    expect(staleNames(dir)).toEqual(['web:changed', 'server:changed']);
  });

  it('rebuilds for a new dependency version, a renamed or a deleted source', () => {
    const dir = project();
    built(dir);
    write(dir, 'package-lock.json', '{"lockfileVersion":3}\n');
    expect(staleNames(dir)).toEqual(['web:changed', 'server:changed']);
    built(dir);
    fs.renameSync(path.join(dir, 'web/main.tsx'), path.join(dir, 'web/index.tsx'));
    expect(staleNames(dir)).toEqual(['web:changed']);
    built(dir);
    fs.rmSync(path.join(dir, 'common/types.ts'));
    expect(staleNames(dir)).toEqual(['web:changed', 'server:changed']);
  });

  it('does not rebuild for a test or a test fixture', () => {
    const dir = project();
    built(dir);
    write(dir, 'server/features/a/rules.test.ts', "it('rule, again', () => {});\n");
    write(dir, 'server/features/a/tests/fixtures/case.yaml', 'a: 2\n');
    write(dir, 'web/page.test.tsx', "it('renders', () => {});\n");
    expect(staleNames(dir)).toEqual([]);
  });

  it('rebuilds a target whose output is gone or whose build did not finish', () => {
    const dir = project();
    built(dir);
    fs.rmSync(path.join(dir, 'dist/server/main.js'));
    expect(staleNames(dir)).toEqual(['server:missing']);
    built(dir);
    recordBuild(dir, 'web', undefined);
    expect(staleNames(dir)).toEqual(['web:unrecorded']);
  });
});

describe('ensure-built', () => {
  /** The real ensure-built.mjs and build-state.mjs, with a build.mjs that records what it was asked to build. */
  function runnable(): string {
    const dir = project();
    for (const file of ['ensure-built.mjs', 'build-state.mjs']) fs.copyFileSync(path.join(root, 'scripts', file), path.join(dir, 'scripts', file));
    write(
      dir,
      'scripts/build.mjs',
      [
        "import fs from 'node:fs';",
        "import path from 'node:path';",
        "import { recordBuild, ROOT, sourceHash, TARGETS } from './build-state.mjs';",
        'const names = process.argv.slice(2);',
        "fs.appendFileSync(`${ROOT}/builds.log`, `${names.join(' ')}\\n`);",
        'for (const name of names) {',
        '  fs.mkdirSync(path.dirname(`${ROOT}/${TARGETS[name].output}`), { recursive: true });',
        "  fs.writeFileSync(`${ROOT}/${TARGETS[name].output}`, 'built');",
        '  recordBuild(ROOT, name, sourceHash(ROOT, TARGETS[name].inputs));',
        '}',
        '',
      ].join('\n'),
    );
    fs.mkdirSync(path.join(dir, 'node_modules', 'vite'), { recursive: true });
    return dir;
  }
  const ensure = (dir: string) => {
    const result = spawnSync(process.execPath, [path.join(dir, 'scripts', 'ensure-built.mjs')], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const builds = (dir: string) => fs.readFileSync(path.join(dir, 'builds.log'), 'utf8').trim().split('\n');

  it('builds what is stale and nothing when the content is the same', () => {
    const dir = runnable();
    expect(ensure(dir)).toContain('building web (not built yet), server (not built yet)');
    expect(builds(dir)).toEqual(['web server']);
    expect(ensure(dir)).toBe('');
    expect(builds(dir)).toEqual(['web server']);
    write(dir, 'web/main.tsx', "export const page = 'changed';\n");
    expect(ensure(dir)).toContain('building web (sources changed)');
    expect(builds(dir)).toEqual(['web server', 'web']);
    expect(ensure(dir)).toBe('');
    expect(builds(dir)).toEqual(['web server', 'web']);
  });

  it('waits for a build another live process holds the lock of, then finds nothing left to build', async () => {
    const dir = runnable();
    ensure(dir);
    write(dir, 'server/main.ts', "export const main = 'changed';\n");
    write(dir, 'dist/.build.lock', String(process.pid));
    const child = spawn(process.execPath, [path.join(dir, 'scripts', 'ensure-built.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 15_000;
    while (!out.includes('waiting for the build') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out).toContain(`waiting for the build another process (pid ${process.pid}) is running`);
    expect(builds(dir)).toEqual(['web server']);
    // The holder "finishes" the build and lets go: the waiter checks again and builds nothing.
    spawnSync(process.execPath, [path.join(dir, 'scripts', 'build.mjs'), 'web', 'server']);
    fs.rmSync(path.join(dir, 'dist/.build.lock'));
    expect(await exited).toBe(0);
    expect(builds(dir)).toEqual(['web server', 'web server']);
    expect(fs.existsSync(path.join(dir, 'dist/.build.lock'))).toBe(false);
  });

  it('takes over a lock its process left behind', () => {
    const dir = runnable();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    write(dir, 'dist/.build.lock', gone);
    expect(ensure(dir)).toContain('building web (not built yet), server (not built yet)');
    expect(fs.existsSync(path.join(dir, 'dist/.build.lock'))).toBe(false);
  });
});

describe('the build inputs', () => {
  it('leave out tests, test folders, node_modules and dot files', () => {
    expect(isBuildInput('server/features/a/rules.ts')).toBe(true);
    expect(isBuildInput('web/app/shell.tsx')).toBe(true);
    expect(isBuildInput('server/features/a/rules.test.ts')).toBe(false);
    expect(isBuildInput('server/features/a/routes.int.test.ts')).toBe(false);
    expect(isBuildInput('web/app/shell.test.tsx')).toBe(false);
    expect(isBuildInput('server/features/a/tests/harness.ts')).toBe(false);
    expect(isBuildInput('web/node_modules/x/index.js')).toBe(false);
    expect(isBuildInput('web/.cache/x')).toBe(false);
  });

  it('hold every module the app imports: none imports from a tests/ folder or a test file', () => {
    const offenders: string[] = [];
    for (const dir of ['web', 'server', 'common']) {
      for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.[cm]?[jt]sx?$/.test(entry.name)) continue;
        const file = path.relative(root, path.join(entry.parentPath, entry.name));
        if (!isBuildInput(file)) continue;
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
          const specifier = match[1] ?? '';
          if (/(^|\/)tests\//.test(specifier) || /\.test(\.[cm]?[jt]sx?)?$/.test(specifier)) offenders.push(`${file} imports ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
