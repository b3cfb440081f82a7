/** The id segment that opens an empty form instead of an existing row: /settings/{table}/new. */
export const NEW_ID = 'new';
