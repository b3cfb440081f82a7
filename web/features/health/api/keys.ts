/** Query keys of the health feature; mutations invalidate by these prefixes. */
export const healthKeys = {
  all: ['health'] as const,
  summaries: () => ['health', 'summary'] as const,
  summary: (filters: { range: string; query: string; hidePassing: boolean }) => ['health', 'summary', 'list', filters] as const,
  page: (request: object) => ['health', 'summary', 'page', request] as const,
  check: (id: string, range: string) => ['health', 'summary', 'check', id, range] as const,
  graph: (id: string, range: string) => ['health', 'graph', id, range] as const,
  histories: (id: string) => ['health', 'history', id] as const,
  history: (id: string, filters: { range: string; minDuration: number; pageIndex: number }) => ['health', 'history', id, filters] as const,
  spec: (id: string) => ['health', 'spec', id] as const,
  relationships: (id: string) => ['health', 'relationships', id] as const,
  agents: (ids: readonly string[]) => ['health', 'agents', ...ids] as const,
  about: () => ['health', 'about'] as const,
};
