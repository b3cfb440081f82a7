import { insightsBySeverity, type TopologyComponent } from '@common/topology';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ConfigHealthDot, ConfigIcon, KeyValueList } from '@web/features/catalog/components';
import { RelatedIncidents } from '@web/features/incidents/related-incidents';
import { ComponentLogsLink } from '@web/features/logs/component-logs-link';
import { db } from '@web/lib/db';
import { DateTime } from '@web/ui/primitives/date-time';
import { PropertyValue } from './component-card';

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];

const changeSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  config_name: z.string().nullable(),
  change_type: z.string(),
  severity: z.string().nullable(),
  summary: z.string().nullable(),
  created_at: z.string(),
});

/** The latest changes of the configs attached to the component (changes_by_component). */
function useComponentChanges(id: string) {
  return useQuery({
    queryKey: ['topology', 'changes', id],
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('changes_by_component')
        .select('id,config_id,config_name,change_type,severity,summary,created_at')
        .eq('component_id', id)
        .order('created_at', { ascending: false })
        .limit(10)
        .abortSignal(signal);
      if (error) throw new Error(error.message);
      return z.array(changeSchema).parse(data ?? []);
    },
  });
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1.5">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      {children}
    </section>
  );
}

/** /topology/{id}'s sidebar: properties, labels, checks, configs, insights and changes of the component. */
export function ComponentSidebar({ component }: { component: TopologyComponent }) {
  const changes = useComponentChanges(component.id);
  const bySeverity = insightsBySeverity(component.summary.insights);
  const insights = SEVERITY_ORDER.filter((severity) => (bySeverity[severity] ?? 0) > 0);
  return (
    <aside aria-label="Details" className="flex w-full flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 lg:w-80 lg:shrink-0">
      {component.description ? <p className="text-sm text-slate-700">{component.description}</p> : null}
      {component.properties.length > 0 ? (
        <Section title="Properties">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {component.properties.map((property) => (
              <div key={property.name} className="contents">
                <dt className="text-slate-500">{property.label ?? property.name}</dt>
                <dd className="min-w-0 truncate">
                  <PropertyValue property={property} />
                </dd>
              </div>
            ))}
          </dl>
        </Section>
      ) : null}
      {component.owner || Object.keys(component.labels).length > 0 ? (
        <Section title="Labels">
          {component.owner ? <p className="text-sm text-slate-700">Team: {component.owner}</p> : null}
          <KeyValueList label="Labels" values={component.labels} limit={8} />
        </Section>
      ) : null}
      <Section title="Checks">
        {component.checks.length === 0 ? <p className="text-sm text-slate-500">No checks attached.</p> : null}
        <ul className="flex flex-col gap-1">
          {component.checks.map((check) => (
            <li key={check.id} className="flex min-w-0 items-center gap-2 text-sm">
              <ConfigHealthDot health={check.status === 'healthy' || check.status === 'unhealthy' ? check.status : 'unknown'} />
              <Link to={`/health?checkId=${check.id}`} className="min-w-0 truncate text-blue-700 hover:underline">
                {check.name}
              </Link>
              {check.type ? <span className="text-xs text-slate-500">{check.type}</span> : null}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Configs">
        {component.configs.length === 0 ? <p className="text-sm text-slate-500">No configs attached.</p> : null}
        <ul className="flex flex-col gap-1">
          {component.configs.map((config) => (
            <li key={config.id} className="flex min-w-0 items-center gap-2 text-sm">
              <ConfigHealthDot health={config.health === 'healthy' || config.health === 'unhealthy' || config.health === 'warning' ? config.health : 'unknown'} />
              <ConfigIcon type={config.type} />
              <Link to={`/catalog/${config.id}`} className="min-w-0 truncate text-blue-700 hover:underline" title={config.type}>
                {config.name ?? config.id}
              </Link>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Insights">
        {insights.length === 0 ? (
          <p className="text-sm text-slate-500">No open insights on its configs.</p>
        ) : (
          <p className="text-sm text-slate-700">{insights.map((severity) => `${bySeverity[severity]} ${severity}`).join(', ')}</p>
        )}
      </Section>
      <ComponentLogsLink componentId={component.id} />
      <RelatedIncidents by="component" id={component.id} />
      <Section title="Changes">
        {changes.isPending ? <p className="text-sm text-slate-500">Loading…</p> : null}
        {changes.error ? <p className="text-sm text-red-700">{changes.error.message}</p> : null}
        {changes.data?.length === 0 ? <p className="text-sm text-slate-500">No changes to its configs.</p> : null}
        <ul className="flex flex-col gap-1.5">
          {changes.data?.map((change) => (
            <li key={change.id} className="text-sm">
              <Link to={`/catalog/${change.config_id}/changes`} className="text-blue-700 hover:underline">
                {change.change_type}
              </Link>{' '}
              <span className="text-slate-600">{change.config_name}</span>
              <span className="block text-xs text-slate-500">
                <DateTime value={change.created_at} />
                {change.summary ? ` · ${change.summary}` : ''}
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </aside>
  );
}
