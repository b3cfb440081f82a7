import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Queryable } from '../jobs/db';
import { detectContentType } from './content-type';
import { DEFAULT_ARTIFACT_LIMITS, limitNotes, type ArtifactLimits } from './limits';
import { ARTIFACT_COLUMNS, artifactRowSchema, type ArtifactRow } from './rows';

const gzip = promisify(zlib.gzip);

/** One file a run produced, as its producer hands it over. */
export interface ArtifactInput {
  /** Where it was (`/tmp/exec-results/hello`), or `stdout` / `stderr` for captured output. */
  path: string;
  content: Buffer;
  /** Detected from the content (and the name) when not given. */
  contentType?: string;
  /** The file's real size when `content` is already only its first bytes (a producer reading within the limit). */
  size?: number;
}

/** What an artifact belongs to: a check result (its check_statuses key) or, later, a playbook action. */
export type ArtifactOwner = { checkId: string; checkTime: Date } | { playbookRunActionId: string };

/** An artifact ready to insert: checksum taken and content compressed, outside any transaction. */
export interface PreparedArtifact {
  path: string;
  filename: string;
  size: number;
  storedSize: number;
  contentType: string;
  checksum: string;
  content: Buffer;
}

export interface PreparedArtifacts {
  items: PreparedArtifact[];
  /** Truncations and refusals, one sentence each, for the run's result. */
  notes: string[];
}

export interface StoredArtifacts {
  artifacts: ArtifactRow[];
  notes: string[];
}

function filenameOf(artifactPath: string): string {
  return path.posix.basename(artifactPath.replaceAll('\\', '/')) || artifactPath;
}

/**
 * Applies the limits (an artifact over the per-artifact size is kept truncated; one that would take the run
 * over its total or count is refused), takes each checksum and compresses the content. Done before the
 * transaction that stores them, so compressing megabytes never holds a row lock.
 */
export async function prepareArtifacts(inputs: readonly ArtifactInput[], limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS): Promise<PreparedArtifacts> {
  const items: PreparedArtifact[] = [];
  const notes: string[] = [];
  let total = 0;
  for (const input of inputs) {
    const size = Math.max(input.size ?? 0, input.content.length);
    const kept = input.content.subarray(0, limits.perArtifact);
    if (items.length >= limits.count) {
      notes.push(limitNotes.count(input.path, limits));
      continue;
    }
    if (total + kept.length > limits.perRun) {
      notes.push(limitNotes.perRun(input.path, size, limits));
      continue;
    }
    if (kept.length < size) notes.push(limitNotes.truncated(input.path, size, kept.length));
    total += kept.length;
    items.push({
      path: input.path,
      filename: filenameOf(input.path),
      size,
      storedSize: kept.length,
      contentType: input.contentType ?? detectContentType(input.path, kept),
      checksum: createHash('sha256').update(kept).digest('hex'),
      content: await gzip(kept),
    });
  }
  return { items, notes };
}

function isPrepared(value: readonly ArtifactInput[] | PreparedArtifacts): value is PreparedArtifacts {
  return !Array.isArray(value);
}

/**
 * Stores a run's artifacts with their owner, within the caller's transaction (`client`). Raw inputs are
 * prepared first; prepared ones (prepareArtifacts) go straight in. `expiresAt` is when they stop being
 * served and the ArtifactRetention job deletes them.
 */
export async function storeArtifacts(
  client: Queryable,
  owner: ArtifactOwner,
  artifacts: readonly ArtifactInput[] | PreparedArtifacts,
  options: { expiresAt?: Date | null; limits?: ArtifactLimits } = {},
): Promise<StoredArtifacts> {
  const prepared = isPrepared(artifacts) ? artifacts : await prepareArtifacts(artifacts, options.limits);
  const checkId = 'checkId' in owner ? owner.checkId : null;
  const checkTime = 'checkId' in owner ? owner.checkTime : null;
  const actionId = 'playbookRunActionId' in owner ? owner.playbookRunActionId : null;
  const stored: ArtifactRow[] = [];
  for (const item of prepared.items) {
    // clock_timestamp(): rows of one transaction keep the order they were stored in.
    const { rows } = await client.query(
      `INSERT INTO artifacts (check_id, check_time, playbook_run_action_id, path, filename, size, stored_size, content_type, checksum, content_encoding, content, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'gzip', $10, $11, clock_timestamp())
       RETURNING ${ARTIFACT_COLUMNS}`,
      [checkId, checkTime, actionId, item.path, item.filename, item.size, item.storedSize, item.contentType, item.checksum, item.content, options.expiresAt ?? null],
    );
    stored.push(artifactRowSchema.parse(rows[0]));
  }
  return { artifacts: stored, notes: prepared.notes };
}
