import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import { useAccess } from '@web/app/session';
import { db } from '@web/lib/db';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { DateTime } from '@web/ui/primitives/date-time';
import { IncidentStatusBadge, SeverityBadge } from './components/badges';

/** How many incidents a component or config page lists (newest first); the rest are one click away. */
export const RELATED_INCIDENTS_LIMIT = 10;

const relatedSchema = z.object({ id: z.string(), incident_id: z.string(), title: z.string(), status: z.string(), severity: z.string(), created_at: z.string() });
type RelatedIncident = z.infer<typeof relatedSchema>;

const SOURCES = {
  component: { relation: 'incidents_by_component', column: 'component_id' },
  config: { relation: 'incidents_by_config', column: 'config_id' },
} as const;

/** Spec §2 areas: incidents are shown only where the feature is on and the person may read them. */
export function useCanReadIncidents(): boolean {
  const access = useAccess();
  const flags = useFeatureFlags();
  return flags.ready && flags.isEnabled('incidents') && access.can('incident', 'read');
}

/** Incidents whose evidence names this component or config item (incidents_by_component / incidents_by_config). */
export function useRelatedIncidents(by: keyof typeof SOURCES, id: string, enabled: boolean) {
  const source = SOURCES[by];
  return useQuery({
    queryKey: ['incidents', 'related', by, id],
    enabled,
    queryFn: async ({ signal }) => {
      const { data, error, count } = await db
        .from(source.relation)
        .select('id,incident_id,title,status,severity,created_at', { count: 'exact' })
        .eq(source.column, id)
        .order('created_at', { ascending: false })
        .limit(RELATED_INCIDENTS_LIMIT)
        .abortSignal(signal);
      if (error) throw new Error(error.message);
      const rows = z.array(relatedSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
  });
}

function IncidentItem({ incident }: { incident: RelatedIncident }) {
  return (
    <li className="flex min-w-0 flex-col gap-0.5 text-sm">
      <Link to={`/incidents/${incident.id}`} className="min-w-0 truncate text-blue-700 hover:underline">
        <span className="font-mono text-xs text-slate-500">{incident.incident_id}</span> {incident.title}
      </Link>
      <span className="flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
        <IncidentStatusBadge status={incident.status} />
        <SeverityBadge severity={incident.severity} />
        <DateTime value={incident.created_at} />
      </span>
    </li>
  );
}

/**
 * The incidents that used this component or config item as evidence, newest first. `compact` draws
 * nothing while there are none (a page header); otherwise the empty and error states show.
 */
export function RelatedIncidents({ by, id, compact = false }: { by: keyof typeof SOURCES; id: string; compact?: boolean }) {
  const allowed = useCanReadIncidents();
  const incidents = useRelatedIncidents(by, id, allowed);
  if (!allowed) return null;
  const rows = incidents.data?.rows ?? [];
  if (compact && rows.length === 0) return null;
  const more = (incidents.data?.total ?? 0) - rows.length;
  return (
    <section aria-label="Incidents" className="flex flex-col gap-1.5">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Incidents</h2>
      {incidents.isPending ? <p className="text-sm text-slate-500">Loading…</p> : null}
      {incidents.error ? (
        <p role="alert" className="text-sm text-red-700">
          {incidents.error.message}
        </p>
      ) : null}
      {incidents.data && rows.length === 0 ? <p className="text-sm text-slate-500">No incidents name it as evidence.</p> : null}
      <ul className={compact ? 'grid gap-2 sm:grid-cols-2 xl:grid-cols-3' : 'flex flex-col gap-2'}>
        {rows.map((incident) => (
          <IncidentItem key={incident.id} incident={incident} />
        ))}
      </ul>
      {more > 0 ? (
        <p className="text-xs text-slate-500">
          and {more} older:{' '}
          <Link to={by === 'component' ? `/incidents?component=${encodeURIComponent(id)}` : '/incidents'} className="text-blue-700 hover:underline">
            all incidents
          </Link>
        </p>
      ) : null}
    </section>
  );
}
