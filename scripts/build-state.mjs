// Whether dist/ is up to date, by content: each build target (the web app, the server bundle) has a
// SHA-256 over the files it is built from, recorded in dist/build-state.json when its build succeeds.
// A start compares the recorded hash with the sources' hash now: equal means the build is what these
// sources make (whatever the files' times say: a fresh clone, a branch switch back and forth), different
// or missing means build again. Hashing the ~12 MB of sources takes a fraction of a second.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files every target depends on: dependency versions, the build itself, the TypeScript paths esbuild reads. */
const SHARED_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];

/**
 * What each target is built from, and the file whose absence means it is not built. The web app imports
 * server modules (schemas, shared rules) and its Vite config reads server/platform/build-info, so it
 * depends on server/ too; the server bundle does not import web/.
 */
export const TARGETS = {
  web: { inputs: ['web', 'server', 'common', ...SHARED_INPUTS], output: 'dist/web/index.html' },
  server: { inputs: ['server', 'common', ...SHARED_INPUTS], output: 'dist/server/main.js' },
};

export const STATE_FILE = 'dist/build-state.json';

/**
 * Tests are not built into either bundle: `*.test.ts(x)` files and `tests/` folders (harnesses, fixtures)
 * are left out of the hash, so editing a test does not rebuild. (scripts/build-state.test.ts checks that
 * no application module imports from a tests/ folder.)
 */
export function isBuildInput(relativePath) {
  const parts = relativePath.split(/[\\/]/);
  const name = parts[parts.length - 1] ?? '';
  if (parts.some((part) => part === 'node_modules' || part === 'tests' || part.startsWith('.'))) return false;
  return !/\.test\.[cm]?[jt]sx?$/.test(name);
}

function listFiles(root, relative, out) {
  const full = path.join(root, relative);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch (error) {
    if (error && error.code === 'ENOTDIR') {
      if (isBuildInput(relative)) out.push(relative);
      return;
    }
    if (error && error.code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (!isBuildInput(child)) continue;
    if (entry.isDirectory()) listFiles(root, child, out);
    else if (entry.isFile()) out.push(child);
  }
}

/** SHA-256 over the sorted relative paths and contents of a target's inputs (a rename or a deletion changes it too). */
export function sourceHash(root, inputs, digests = new Map()) {
  const files = [];
  for (const input of inputs) listFiles(root, input, files);
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    // Each file's own digest once (web and server share server/ and common/), then path and digest.
    let digest = digests.get(file);
    if (digest === undefined) {
      digest = createHash('sha256').update(readFileSync(path.join(root, file))).digest('hex');
      digests.set(file, digest);
    }
    hash.update(`${file.split(path.sep).join('/')}\0${digest}\n`);
  }
  return hash.digest('hex');
}

export function readState(root) {
  try {
    const parsed = JSON.parse(readFileSync(path.join(root, STATE_FILE), 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** Records (or, with `undefined`, forgets) the source hash a target was built from. */
export function recordBuild(root, target, hash) {
  const state = readState(root);
  if (hash === undefined) delete state[target];
  else state[target] = hash;
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The targets to build, each with the hash of its sources now and why: 'missing' (no output: a fresh
 * clone), 'unrecorded' (an output but no recorded hash: a build that stopped half-way, or one made before
 * hashes were recorded) or 'changed' (the sources differ from those it was built from).
 */
export function staleTargets(root, targets = TARGETS) {
  const state = readState(root);
  const digests = new Map();
  const stale = [];
  for (const [name, target] of Object.entries(targets)) {
    const hash = sourceHash(root, target.inputs, digests);
    if (!existsSync(path.join(root, target.output))) stale.push({ name, hash, reason: 'missing' });
    else if (typeof state[name] !== 'string') stale.push({ name, hash, reason: 'unrecorded' });
    else if (state[name] !== hash) stale.push({ name, hash, reason: 'changed' });
  }
  return stale;
}
