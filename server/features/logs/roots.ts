import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Config, LOG_ROOTS_ENV, logRootsSetting } from '../../platform/config';
import { currentOrganization } from '../../platform/db/tenant';
import type { LogBackendSpec } from './spec';

/**
 * Where log backends may read (docs/LOGS.md "Where backends may read", issue 35 finding 5): only under the
 * roots an admin configures (WATCHKEEPER_LOG_ROOTS; by default ./logs), never in the data directory (its
 * secret.key, postgres.json, the embedded cluster) even when a root contains it. Checked when a backend
 * is saved (each path, as written) and again when a file is read: by its real path (symlinks resolved)
 * and by what the opened file descriptor really is, so a symlink inside a root that points outside is
 * not followed.
 */

export interface LogRootPolicy {
  /** Absolute folders backends may read under. */
  roots: string[];
  /** Absolute folders never read (the data directory). */
  denied: string[];
  /**
   * Set in an organization's scope (hosted mode): the organization whose folder under each root (`<root>/<id>`)
   * the roots are, for the refusals' words.
   */
  organization?: string;
}

let configured: LogRootPolicy | undefined;

/** The policy of this process: set from the configuration when the feature registers (serve, tests). */
export function configureLogRoots(config: Pick<Config, 'dataDir'> & { logRoots?: string[] | undefined }): void {
  configured = { roots: config.logRoots ?? rootsFromEnvironment(), denied: [path.resolve(config.dataDir)] };
}

function rootsFromEnvironment(): string[] {
  const roots = logRootsSetting(process.env);
  // A bad value refuses everything here; `serve` and the commands already stopped on it with the message.
  return roots instanceof Error ? [] : roots;
}

/**
 * The policy: the configured one, else (a command that did not register the feature) from the environment.
 * In an organization's scope (hosted mode: its requests, its playbook runs) each root narrows to the
 * organization's own folder in it, `<root>/<organization id>/` (docs/HOSTED.md "Log roots per
 * organization"): the roots are the console's, and one organization's backends never read what lies
 * under another's folder, or beside them, under a root.
 */
export function logRootPolicy(organization = currentOrganization()): LogRootPolicy {
  const policy = configured ?? { roots: rootsFromEnvironment(), denied: [path.resolve(process.env.WATCHKEEPER_DATA?.trim() || 'data')] };
  if (!organization) return policy;
  return { ...policy, roots: policy.roots.map((root) => path.join(path.resolve(root), organization.toLowerCase())), organization };
}

function inside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** A folder as written and as it really is (symlinks resolved), when it exists. */
function forms(folder: string): string[] {
  try {
    const real = fs.realpathSync(folder);
    return real === folder ? [folder] : [folder, real];
  } catch {
    return [folder];
  }
}

const hasMagic = (part: string) => /[*?{[]/.test(part);
const PARENT = /(^|[/{,])\.\.($|[/},])/;

/** The folder a path or glob can reach at most: the path itself, or the part of a glob before its first wildcard. */
function reach(absolute: string): string {
  const parts = absolute.split('/');
  const first = parts.findIndex(hasMagic);
  return first < 0 ? absolute : parts.slice(0, first).join('/') || '/';
}

/** Why a backend may not name `pattern` (as written, `{{name}}`/`{{type}}` standing for one folder); undefined when it may. */
export function pathRefusal(pattern: string, policy = logRootPolicy()): string | undefined {
  const written = pattern.replace(/\{\{\s*\.?(name|type)\s*\}\}/g, 'x');
  if (PARENT.test(written)) return `${pattern} must not contain '..': name the files under a log root directly`;
  const absolute = path.resolve(written);
  const top = reach(absolute);
  if (policy.denied.some((folder) => forms(folder).some((form) => inside(form, top)))) {
    return `${pattern} is in the data directory, which log backends never read`;
  }
  if (!policy.roots.some((root) => forms(root).some((form) => inside(form, top)))) {
    if (policy.organization) {
      const folders = policy.roots.length > 0 ? policy.roots.join(', ') : `none: ${LOG_ROOTS_ENV} allows no folder`;
      return `${pattern} is outside this organization's log folders (${folders}: its own folder under each of the console's ${LOG_ROOTS_ENV})`;
    }
    return `${pattern} is outside the log roots this console allows (${LOG_ROOTS_ENV})`;
  }
  return undefined;
}

/** Save-time problems of a backend's paths (spec.files[0].paths[1]: …). */
export function rootProblems(spec: LogBackendSpec, policy = logRootPolicy()): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  spec.files.forEach((source, i) => {
    source.paths.forEach((pattern, j) => {
      const refused = pathRefusal(pattern, policy);
      if (refused) problems.push({ path: `spec.files[${i}].paths[${j}]`, message: refused });
    });
  });
  return problems;
}

async function realForms(folders: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const folder of folders) {
    out.add(path.resolve(folder));
    const real = await fsp.realpath(folder).catch(() => undefined);
    if (real) out.add(real);
  }
  return [...out];
}

/** Whether a real path (no symlinks) may be read: under a root's real path and in no denied folder. */
async function allowed(real: string, policy: LogRootPolicy): Promise<boolean> {
  const denied = await realForms(policy.denied);
  if (denied.some((folder) => inside(folder, real))) return false;
  const roots = (await Promise.all(policy.roots.map((root) => fsp.realpath(root).catch(() => undefined)))).filter((root): root is string => root !== undefined);
  return roots.some((root) => inside(root, real));
}

/** Whether the files a pattern names may be looked for at all (read time: rows saved before the roots, or roots changed since). */
export function patternAllowed(pattern: string, policy = logRootPolicy()): boolean {
  return pathRefusal(pattern, policy) === undefined;
}

/** Whether `file` may be read: its real path (symlinks resolved) is under a root and not in the data directory. */
export async function fileAllowed(file: string, policy = logRootPolicy()): Promise<boolean> {
  const real = await fsp.realpath(file).catch(() => undefined);
  return real !== undefined && (await allowed(real, policy));
}

/**
 * Opens `file` for reading only if what was opened is allowed: the descriptor's own path (Linux
 * /proc/self/fd), else the real path checked to be the same file. A symlink swapped in between the
 * listing and the read is not followed out of the roots. Undefined when refused or unreadable.
 */
export async function openAllowed(file: string, policy = logRootPolicy()): Promise<FileHandle | undefined> {
  const handle = await fsp.open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    let real = await fsp.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (real === undefined || !path.isAbsolute(real)) {
      real = await fsp.realpath(file);
      const [opened, named] = await Promise.all([handle.stat(), fsp.stat(real)]);
      if (opened.dev !== named.dev || opened.ino !== named.ino) throw new Error('changed while opened');
    }
    if (!(await allowed(real, policy))) throw new Error('outside the log roots');
    return handle;
  } catch {
    await handle.close().catch(() => undefined);
    return undefined;
  }
}
