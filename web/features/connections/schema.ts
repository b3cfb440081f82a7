import { z } from 'zod';

/** The embedded creator of a row (`created_by_person:people!connections_created_by_fkey(id,name)`). */
const personSchema = z.object({ id: z.string(), name: z.string().nullable() });

/**
 * A connection as /api/db/connections answers it: secret fields are '******' when a static value is
 * stored, the reference text (secret://name/key) when they refer elsewhere, and null when unset; the URL
 * comes with the password of its user info masked (DESIGN §9: no secret leaves the server).
 */
export const connectionRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  url: z.string().nullable().optional(),
  username: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
  certificate: z.string().nullable().optional(),
  insecure_tls: z.boolean().nullable().optional(),
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
  source: z.string().nullable().optional(),
  created_by: z.string().nullable().optional(),
  created_by_person: personSchema.nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
});
export type ConnectionRow = z.infer<typeof connectionRowSchema>;

/** Columns of the list and of one row, with the creator's name. */
export const CONNECTION_COLUMNS =
  'id,name,namespace,type,url,username,password,certificate,insecure_tls,properties,source,created_by,created_at,updated_at,created_by_person:people!connections_created_by_fkey(id,name)';

/** POST /api/connection/test/{id}: ok, or not testable here (tested false), or the failure; always a message. */
export const testResultSchema = z.object({
  ok: z.boolean(),
  tested: z.boolean(),
  message: z.string(),
  duration_ms: z.number().optional(),
});
export type TestResult = z.infer<typeof testResultSchema>;

/** A secret or config map, as the pickers of secret references read them (names and keys, never values). */
export const secretSummarySchema = z.object({ name: z.string(), namespace: z.string(), keys: z.array(z.string()).nullable() });
export type SecretSummary = z.infer<typeof secretSummarySchema>;
