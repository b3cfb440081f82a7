import { PostgrestClient } from '@supabase/postgrest-js';

/** The PostgREST client of /api/db (DESIGN §7: database calls go through a query builder, never strings). */
export const db = new PostgrestClient('/api/db', { fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }) });
