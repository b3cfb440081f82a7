import type { ViewListQuery } from './views';

export const viewSettingsKeys = {
  all: ['view-settings'] as const,
  list: (query: ViewListQuery) => ['view-settings', 'list', query] as const,
  one: (id: string) => ['view-settings', 'one', id] as const,
  schema: ['view-settings', 'schema'] as const,
  validate: (body: string) => ['view-settings', 'validate', body] as const,
};

/** Throws a PostgREST error as an Error a page can show. */
export function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}
