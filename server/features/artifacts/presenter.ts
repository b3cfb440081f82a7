import { z } from 'zod';
import type { ArtifactRow } from '../../platform/artifacts';

/** An artifact as the API answers it (duty's models.Artifact JSON names; never its content). */
export const artifactAnswer = z.object({
  id: z.string(),
  check_id: z.string().optional(),
  check_time: z.string().optional(),
  playbook_run_action_id: z.string().optional(),
  path: z.string(),
  filename: z.string(),
  size: z.number().describe('bytes of the file as it was'),
  stored_size: z.number().describe('bytes kept (less than size when the file went over the limit)'),
  truncated: z.boolean(),
  content_type: z.string().optional(),
  checksum: z.string().describe('sha256 of the stored bytes'),
  created_at: z.string(),
  expires_at: z.string().optional(),
});
export type ArtifactAnswer = z.infer<typeof artifactAnswer>;

export function presentArtifact(row: ArtifactRow): ArtifactAnswer {
  return {
    id: row.id,
    ...(row.check_id ? { check_id: row.check_id } : {}),
    ...(row.check_time ? { check_time: row.check_time.toISOString() } : {}),
    ...(row.playbook_run_action_id ? { playbook_run_action_id: row.playbook_run_action_id } : {}),
    path: row.path,
    filename: row.filename,
    size: row.size,
    stored_size: row.stored_size,
    truncated: row.truncated,
    ...(row.content_type ? { content_type: row.content_type } : {}),
    checksum: row.checksum,
    created_at: row.created_at.toISOString(),
    ...(row.expires_at ? { expires_at: row.expires_at.toISOString() } : {}),
  };
}

/**
 * RFC 6266: an ASCII `filename` for old clients (quotes, backslashes and anything outside printable ASCII
 * replaced) and the exact name as `filename*` in UTF-8.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
