export const playbookKeys = {
  all: ['playbooks'] as const,
  schema: ['playbooks', 'schema'] as const,
  validate: (body: string) => ['playbooks', 'validate', body] as const,
  list: (search: string) => ['playbooks', 'list', search] as const,
  names: ['playbooks', 'names'] as const,
  one: (id: string) => ['playbooks', 'one', id] as const,
  lastRuns: ['playbooks', 'last-runs'] as const,
  runnable: (query: Record<string, string>) => ['playbooks', 'runnable', query] as const,
  params: (id: string, query: Record<string, string>) => ['playbooks', 'params', id, query] as const,
  runs: (filters: unknown) => ['playbooks', 'runs', filters] as const,
  run: (id: string) => ['playbooks', 'run', id] as const,
  actions: (id: string) => ['playbooks', 'run-actions', id] as const,
  approvals: (id: string) => ['playbooks', 'approvals', id] as const,
  runSpec: (id: string) => ['playbooks', 'run-spec', id] as const,
  resourceSearch: (kind: string, types: readonly string[], text: string) => ['playbooks', 'resource-search', kind, types, text] as const,
  resourceName: (kind: string, id: string) => ['playbooks', 'resource-name', kind, id] as const,
};

/** Throws a PostgREST error as an Error a page can show. */
export function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}
