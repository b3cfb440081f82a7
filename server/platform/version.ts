import { formatVersion } from '../../common/version';
import { gitCommit } from './build-info';
import { ROOT, VERSION } from './paths';

export interface RunningVersion {
  /** What the user menu shows: `0.1.0 (6b47328)`. */
  backend: string;
  /** package.json's version. */
  version: string;
  /** The full commit the server started from; null outside a git checkout. */
  commit: string | null;
  /** Tracked files differed from that commit when the server started. */
  dirty: boolean;
}

let running: RunningVersion | undefined;

/** This server's version, read once (the first call is at start, when the app is built): package version and git commit. */
export function runningVersion(): RunningVersion {
  if (!running) {
    const commit = gitCommit(ROOT);
    running = { backend: formatVersion(VERSION, commit), version: VERSION, commit: commit?.commit ?? null, dirty: commit?.dirty ?? false };
  }
  return running;
}
