/**
 * How much one run may keep. The content lives in the database (compressed), so these bound what a
 * chatty script can add to it per run: a file over the per-artifact limit is kept truncated to it, and
 * once a run's artifacts reach the per-run limit (or count) the rest are refused. Both are said in the
 * run's result (`notes`), never silently.
 */
export interface ArtifactLimits {
  /** Bytes kept of one artifact; the rest is cut. */
  perArtifact: number;
  /** Bytes kept over all the artifacts of one run; an artifact that would go over is refused. */
  perRun: number;
  /** Artifacts kept per run (a glob can match thousands of files). */
  count: number;
}

export const MiB = 1024 * 1024;

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = { perArtifact: 10 * MiB, perRun: 50 * MiB, count: 100 };

/** `10.0 MiB`, `512 B`: sizes in notes, as the limits are written. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MiB) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

/** Why an artifact was not kept, in the same words wherever the limit is applied. */
export const limitNotes = {
  count: (artifactPath: string, limits: ArtifactLimits) => `artifact ${artifactPath} was not kept: a run keeps at most ${limits.count} artifacts`,
  perRun: (artifactPath: string, size: number, limits: ArtifactLimits) =>
    `artifact ${artifactPath} (${formatSize(size)}) was not kept: a run's artifacts may take at most ${formatSize(limits.perRun)}`,
  truncated: (artifactPath: string, size: number, kept: number) => `artifact ${artifactPath} (${formatSize(size)}) is kept truncated to its first ${formatSize(kept)}`,
};
