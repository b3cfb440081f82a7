import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { reportApiPath } from './paths';

/** Answers of /api/applications (server/features/applications), checked at the boundary. */

const health = z.object({ healthy: z.number(), unhealthy: z.number(), warning: z.number(), unknown: z.number(), total: z.number() });
export type HealthSummary = z.infer<typeof health>;

const card = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  source: z.string(),
  health,
  environments: z.array(z.string()),
  configs: z.number(),
  open_incidents: z.number(),
});
export type ApplicationCard = z.infer<typeof card>;

const configRef = z.object({ id: z.string(), name: z.string().nullable(), type: z.string() });
const userRef = z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), user_type: z.string() });
const config = configRef.extend({ namespace: z.string().nullable(), health: z.string().nullable(), status: z.string().nullable(), deleted: z.boolean() });
export type ReportConfig = z.infer<typeof config>;

const property = z.object({ name: z.string().optional(), label: z.string().optional(), text: z.string().optional(), value: z.number().optional(), unit: z.string().optional(), tooltip: z.string().optional() });

const report = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  source: z.string(),
  properties: z.array(property),
  range: z.object({ from: z.string(), to: z.string() }),
  health,
  environments: z.array(z.object({ name: z.string(), purpose: z.string().nullable(), health, configs: z.array(config) })),
  datasources: z.array(config),
  logins: z.array(z.object({ id: z.string(), config: configRef, user: userRef, role: z.string().nullable(), client_ip: z.string(), verb: z.string().nullable(), outcome: z.string(), mfa: z.boolean(), count: z.number(), created_at: z.string() })),
  access: z.array(z.object({
    id: z.string(), config: configRef, user: userRef.nullable(), group: z.object({ id: z.string(), name: z.string(), group_type: z.string() }).nullable(),
    role: z.string().nullable(), mapped_role: z.string().nullable(), created_at: z.string(), last_reviewed_at: z.string().nullable(), last_login: z.string().nullable(),
  })),
  accessReviews: z.array(z.object({ id: z.string(), config: configRef, user: userRef, role: z.string().nullable(), status: z.string(), source: z.string(), created_at: z.string() })),
  changes: z.array(z.object({ id: z.string(), config: configRef, change_type: z.string(), severity: z.string(), summary: z.string().nullable(), source: z.string().nullable(), count: z.number(), created_at: z.string() })),
  incidents: z.array(z.object({ id: z.string(), incident_id: z.string(), title: z.string(), type: z.string(), severity: z.string(), status: z.string(), created_at: z.string(), resolved_at: z.string().nullable(), config: configRef })),
  sections: z.array(z.object({ title: z.string(), icon: z.string().nullable(), namespace: z.string(), name: z.string(), id: z.string().nullable(), error: z.string().optional() })),
  truncated: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type ApplicationReport = z.infer<typeof report>;

export const applicationKeys = {
  all: ['applications'] as const,
  list: ['applications', 'list'] as const,
  report: (namespace: string, name: string, from: string, to: string) => ['applications', 'report', namespace, name, from, to] as const,
};

export function useApplications() {
  return useQuery({ queryKey: applicationKeys.list, queryFn: ({ signal }) => api.get('/api/applications', (data) => z.array(card).parse(data), { signal }) });
}

export function useApplicationReport(namespace: string, name: string, range: { from: string; to: string }) {
  return useQuery({
    queryKey: applicationKeys.report(namespace, name, range.from, range.to),
    queryFn: ({ signal }) => api.get(reportApiPath(namespace, name, range), (data) => report.parse(data), { signal }),
  });
}
