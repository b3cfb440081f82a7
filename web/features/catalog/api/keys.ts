/** Query keys of the catalog; everything under `catalogKeys.all`, so one invalidation refreshes the area. */
export const catalogKeys = {
  all: ['catalog'] as const,
  summary: (body: object) => ['catalog', 'summary', body] as const,
  list: (filters: object) => ['catalog', 'list', filters] as const,
  lookup: (name: 'types' | 'statuses' | 'tags' | 'labels') => ['catalog', 'lookup', name] as const,
  detail: (id: string) => ['catalog', 'config', id] as const,
  parents: (id: string) => ['catalog', 'config', id, 'parents'] as const,
  changeOptions: (id: string) => ['catalog', 'config', id, 'change-options'] as const,
  change: (id: string) => ['catalog', 'change', id] as const,
  insights: (id: string) => ['catalog', 'config', id, 'insights'] as const,
  related: (id: string, params: object) => ['catalog', 'config', id, 'related', params] as const,
  checks: (id: string) => ['catalog', 'config', id, 'checks'] as const,
};
