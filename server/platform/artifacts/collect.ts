import fs from 'node:fs/promises';
import { globPaths } from './glob';
import { DEFAULT_ARTIFACT_LIMITS, limitNotes, type ArtifactLimits } from './limits';
import type { ArtifactInput } from './store';

/** One `artifacts` entry of an exec check or action (duty's shell.Artifact). */
export interface ArtifactSpec {
  path: string;
}

export interface CollectedArtifacts {
  artifacts: ArtifactInput[];
  /** What the limits left out, and files that could not be read: the run's result says so. */
  notes: string[];
  /** Patterns that matched nothing, and directories they matched (not an error, as in duty). */
  skipped: string[];
}

/**
 * What a script's `artifacts` name, collected after it ended, as duty's shell collects them: `/dev/stdout`
 * and `/dev/stderr` are the captured (trimmed) output, stored as `stdout` and `stderr`; anything else is a
 * file or a glob (`/tmp/exec-results/*`, `reports/**\/*.xml`), relative paths under the script's working
 * directory (its checkout). Files are read only up to the limits, so a huge file never fills memory.
 */
export async function collectArtifacts(
  specs: readonly ArtifactSpec[],
  run: { cwd: string; stdout: string; stderr: string },
  limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS,
): Promise<CollectedArtifacts> {
  const artifacts: ArtifactInput[] = [];
  const notes: string[] = [];
  const skipped: string[] = [];
  let total = 0;
  const admit = (artifactPath: string, size: number): number | undefined => {
    if (artifacts.length >= limits.count) {
      notes.push(limitNotes.count(artifactPath, limits));
      return undefined;
    }
    const kept = Math.min(size, limits.perArtifact);
    if (total + kept > limits.perRun) {
      notes.push(limitNotes.perRun(artifactPath, size, limits));
      return undefined;
    }
    total += kept;
    return kept;
  };
  for (const spec of specs) {
    if (spec.path === '/dev/stdout' || spec.path === '/dev/stderr') {
      const name = spec.path === '/dev/stdout' ? 'stdout' : 'stderr';
      const content = Buffer.from(name === 'stdout' ? run.stdout : run.stderr, 'utf8');
      if (admit(name, content.length) !== undefined) artifacts.push({ path: name, content, contentType: 'text/plain; charset=utf-8' });
      continue;
    }
    const matches = await globPaths(spec.path, run.cwd);
    if (matches.length === 0) skipped.push(`${spec.path} matched no file`);
    for (const match of matches) {
      if (match.directory) {
        skipped.push(`${match.path} is a directory; name its files (${match.path}/*)`);
        continue;
      }
      let handle;
      try {
        handle = await fs.open(match.path, 'r');
        const stat = await handle.stat();
        if (!stat.isFile()) {
          skipped.push(`${match.path} is not a regular file`);
          continue;
        }
        const kept = admit(match.path, stat.size);
        if (kept === undefined) continue;
        const content = Buffer.alloc(kept);
        const { bytesRead } = await handle.read(content, 0, kept, 0);
        artifacts.push({ path: match.path, content: content.subarray(0, bytesRead), size: stat.size });
      } catch (error) {
        notes.push(`artifact ${match.path} could not be read: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await handle?.close();
      }
    }
  }
  return { artifacts, notes, skipped };
}
