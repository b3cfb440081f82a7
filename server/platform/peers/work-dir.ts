import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { currentOrganization } from '../db/tenant';

/**
 * Where scripts (exec checks, exec playbook actions, exec scrapers) and their git checkouts work
 * (docs/SECURITY.md "Hosted mode"). The console's own work, and every script outside hosted mode, works in
 * the system's temporary folder as before. Work of an organization (hosted mode, an organization served
 * by this server's database) works in that organization's own folder,
 * `<tmp>/watchkeeper-organizations-<console uid>/<organization id>/`: each run in a fresh folder inside it,
 * and a checkout's `destination` only inside it. Both levels are the console's own, mode 0711: the script's
 * user may pass through to its run's folder but list neither the organizations nor another organization's
 * runs and checkouts.
 */

export class WorkDirError extends Error {
  override name = 'WorkDirError';
}

/** The folder that holds every organization's work folder (one per console user, so two consoles never share it). */
export function organizationsWorkBase(): string {
  return path.join(os.tmpdir(), `watchkeeper-organizations-${process.getuid?.() ?? 'user'}`);
}

/**
 * A folder the console owns and only it writes (mode 0711), made when missing. Anything else found at the
 * path (another user's folder made first, a symlink, a folder others may write) is refused, not used: a
 * script's user could otherwise have prepared it to read or plant another organization's files.
 */
async function ownFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { mode: 0o711 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const stat = await fs.lstat(dir);
  const self = process.getuid?.();
  if (!stat.isDirectory() || (self !== undefined && stat.uid !== self) || (stat.mode & 0o022) !== 0) {
    throw new WorkDirError(`${dir} is not this console's own folder (a link, another user's, or writable by others): remove it, the console makes it again`);
  }
  // mkdir's mode passes through the umask; 0711 exactly: others may pass through but not list.
  if ((stat.mode & 0o777) !== 0o711) await fs.chmod(dir, 0o711);
}

/** The work folder of an organization (made when missing), checked to be the console's own at every level. */
export async function organizationWorkDir(organizationId: string): Promise<string> {
  // Organization ids are UUIDs; anything else never names a folder.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(organizationId)) throw new WorkDirError(`organization ${organizationId} is not a UUID`);
  const base = organizationsWorkBase();
  await ownFolder(base);
  const dir = path.join(base, organizationId.toLowerCase());
  await ownFolder(dir);
  return dir;
}

/** Where the running work's scripts get their folders: its organization's folder, else the system's temporary folder. */
export async function scriptWorkRoot(): Promise<string> {
  const organization = currentOrganization();
  return organization ? organizationWorkDir(organization) : os.tmpdir();
}

/**
 * A checkout's `destination` (kept between runs) for the running work. Outside an organization: the path as
 * written, from the console's working directory. In an organization: a relative path inside the
 * organization's work folder; an absolute path or one that leaves it (`..`) is refused, so one
 * organization's checkout can never be another's (or any other folder of the server).
 */
export async function checkoutDestination(destination: string): Promise<string> {
  const organization = currentOrganization();
  if (!organization) return path.resolve(destination);
  const written = destination.trim();
  const parts = written.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (path.isAbsolute(written) || parts.length === 0 || parts.includes('..')) {
    throw new WorkDirError(
      `checkout.destination ${JSON.stringify(destination)}: in an organization a checkout is kept in the organization's own work folder: give a relative path without '..' (such as repos/app)`,
    );
  }
  return path.join(await organizationWorkDir(organization), ...parts);
}
