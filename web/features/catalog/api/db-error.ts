/** A PostgREST error answer as an Error whose message a person can read (the server's own text). */
export function dbError(error: { message: string }): Error {
  return new Error(error.message, { cause: error });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Config ids are uuids: anything else in the URL is a page that does not exist, not a query to send. */
export function isConfigId(id: string | undefined): id is string {
  return id !== undefined && UUID.test(id);
}

/**
 * The filter that lifts /api/db's soft-delete rule (a relation hides deleted rows unless the query names
 * deleted_at): deleted or not, both pass.
 */
export const ANY_DELETED = 'deleted_at.is.null,deleted_at.not.is.null';
