/** React Query keys of the views feature; every key starts with 'views' so one invalidation reaches them all. */
export const viewKeys = {
  all: ['views'] as const,
  answer: (id: string, variables: Record<string, string>) => ['views', 'answer', id, variables] as const,
  answers: (id: string) => ['views', 'answer', id] as const,
  rows: (table: string, fingerprint: string, query: unknown) => ['views', 'rows', table, fingerprint, query] as const,
  tableRows: (table: string) => ['views', 'rows', table] as const,
  values: (table: string, fingerprint: string, column: string) => ['views', 'values', table, fingerprint, column] as const,
  byName: (namespace: string, name: string) => ['views', 'by-name', namespace, name] as const,
  forConfig: (configId: string) => ['views', 'for-config', configId] as const,
};
