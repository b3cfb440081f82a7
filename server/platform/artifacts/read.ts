import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { z } from 'zod';
import type { Queryable } from '../jobs/db';
import { ARTIFACT_COLUMNS, artifactRowSchema, artifactWithContentSchema, type ArtifactRow, type ArtifactWithContent } from './rows';
import type { ArtifactOwner } from './store';

const gunzip = promisify(zlib.gunzip);

/** Rows still served: not deleted, not expired (the retention job may not have removed them yet). */
const LIVE = 'deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())';

/** The artifacts of a check result or a playbook action, in the order they were stored. */
export async function listArtifacts(db: Queryable, owner: ArtifactOwner): Promise<ArtifactRow[]> {
  const { rows } =
    'checkId' in owner
      ? await db.query(`SELECT ${ARTIFACT_COLUMNS} FROM artifacts WHERE check_id = $1 AND check_time = $2 AND ${LIVE} ORDER BY created_at, id`, [owner.checkId, owner.checkTime])
      : await db.query(`SELECT ${ARTIFACT_COLUMNS} FROM artifacts WHERE playbook_run_action_id = $1 AND ${LIVE} ORDER BY created_at, id`, [owner.playbookRunActionId]);
  return z.array(artifactRowSchema).parse(rows);
}

/** One artifact with its stored content, or undefined when there is none, or it is deleted or expired. */
export async function findArtifact(db: Queryable, id: string): Promise<ArtifactWithContent | undefined> {
  const { rows } = await db.query(`SELECT ${ARTIFACT_COLUMNS}, content_encoding, content FROM artifacts WHERE id = $1 AND ${LIVE}`, [id]);
  return rows[0] === undefined ? undefined : artifactWithContentSchema.parse(rows[0]);
}

/** The artifact's bytes as they were stored (decompressed). */
export async function artifactBytes(artifact: Pick<ArtifactWithContent, 'content' | 'content_encoding'>): Promise<Buffer> {
  return artifact.content_encoding === 'gzip' ? gunzip(artifact.content) : artifact.content;
}
