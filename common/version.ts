/**
 * A running part's version as the user menu shows it (spec §2 'frontend X, backend Y'): the package
 * version and the git commit it was started or built from, `0.1.0 (6b47328)`, with `-dirty` (as
 * `git describe --dirty` writes it) when tracked files differed from that commit. Without a commit (an
 * installed package) the package version alone.
 */
export function formatVersion(version: string, commit?: { commit: string; dirty: boolean }): string {
  if (!commit) return version;
  return `${version} (${commit.commit.slice(0, 7)}${commit.dirty ? '-dirty' : ''})`;
}
