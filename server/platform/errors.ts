/** The message of anything thrown, for logs and CLI output. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a thrown Node.js system error (ENOENT, EADDRINUSE, …), or of a fastify/pg error. */
export function codeOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** A plain JSON object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
