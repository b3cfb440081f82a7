import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import type { ConnectionTester } from '../types';
import { failed, passed } from './shared';

/** `folder`: the path (kept in url) exists on this server and is a directory it may list. */
export const testFolder: ConnectionTester = async (connection) => {
  const path = connection.url.trim().replace(/^file:\/\//, '');
  if (!path) return failed('the path is empty');
  const stat = await fs.stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (stat instanceof Error) return failed(stat.code === 'ENOENT' ? `${path} does not exist` : stat.code === 'EACCES' ? `${path} cannot be reached: permission denied` : `${path}: ${stat.message}`);
  if (!stat.isDirectory()) return failed(`${path} is not a directory`);
  try {
    await fs.access(path, constants.R_OK | constants.X_OK);
  } catch {
    return failed(`${path} is a directory this server may not read`);
  }
  return passed(`${path} is a readable directory`);
};
