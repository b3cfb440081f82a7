import { z } from 'zod';

/** The columns of an artifact row without its content (lists never read the content). */
export const ARTIFACT_COLUMNS =
  'id, check_id, check_time, playbook_run_action_id, path, filename, size, stored_size, truncated, content_type, checksum, created_at, expires_at';

const count = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().nonnegative());

/** An artifact as read from the database (bigint columns come back as text). */
export const artifactRowSchema = z.object({
  id: z.string(),
  check_id: z.string().nullable(),
  check_time: z.date().nullable(),
  playbook_run_action_id: z.string().nullable(),
  path: z.string(),
  filename: z.string(),
  size: count,
  stored_size: count,
  truncated: z.boolean(),
  content_type: z.string().nullable(),
  checksum: z.string(),
  created_at: z.date(),
  expires_at: z.date().nullable(),
});
export type ArtifactRow = z.infer<typeof artifactRowSchema>;

export const artifactWithContentSchema = artifactRowSchema.extend({
  content_encoding: z.enum(['gzip', 'identity']),
  content: z.instanceof(Buffer),
});
export type ArtifactWithContent = z.infer<typeof artifactWithContentSchema>;
