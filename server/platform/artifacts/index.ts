// Artifacts, a platform service (DESIGN §3): files that check runs (and later playbook actions) leave
// behind, stored compressed in the database so any instance serves them. docs/API.md describes the API.
export { collectArtifacts, type ArtifactSpec, type CollectedArtifacts } from './collect';
export { detectContentType } from './content-type';
export { DEFAULT_ARTIFACT_LIMITS, formatSize, MiB, type ArtifactLimits } from './limits';
export { artifactBytes, findArtifact, listArtifacts } from './read';
export { artifactRetentionJob, ARTIFACT_RETENTION_BATCH_SIZE } from './retention';
export { ARTIFACT_COLUMNS, type ArtifactRow, type ArtifactWithContent } from './rows';
export { prepareArtifacts, storeArtifacts, type ArtifactInput, type ArtifactOwner, type PreparedArtifact, type PreparedArtifacts, type StoredArtifacts } from './store';
