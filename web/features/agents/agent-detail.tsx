import { Trash2 } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE, SHELL_PAGE_SIZES } from '@common/constants';
import { formatDate } from '@common/format/date';
import { formatDuration } from '@common/format/duration';
import { ResourceCell } from '@web/features/settings/jobs/columns';
import { JobDetailsDialog } from '@web/features/settings/jobs/details-dialog';
import { useJobHistory } from '@web/features/settings/jobs/queries';
import type { JobHistory } from '@web/features/settings/jobs/schema';
import { JobStatusBadge } from '@web/features/settings/jobs/status-badge';
import { useDisplayPreferences } from '@web/lib/preferences';
import { patchSearchParams, readInteger, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { DateTime } from '@web/ui/primitives/date-time';
import { Loading } from '@web/ui/primitives/loading';
import { HealthBadge, LastSeen } from './columns';
import { propertyRows } from './model';
import { useAgent, useAgentJobs } from './queries';
import type { AgentSummary } from './schema';
import { Sheet } from '@web/ui/primitives/sheet';


function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const COUNTS = [
  ['checks', 'Checks'],
  ['configs', 'Configs'],
  ['canaries', 'Canaries'],
  ['scrapers', 'Scrapers'],
  ['topologies', 'Topologies'],
] as const;

function Overview({ agent, now }: { agent: AgentSummary; now: Date }) {
  const properties = propertyRows(agent.properties);
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Item label="Health">
          <HealthBadge health={agent.health} />
        </Item>
        <Item label="Version">{agent.version ?? '-'}</Item>
        {agent.local ? null : (
          <>
            <Item label="Hostname">{agent.hostname ?? '-'}</Item>
            <Item label="Created">
              <DateTime value={agent.created_at ?? null} empty="-" />
            </Item>
            <Item label="Last seen">
              <LastSeen value={agent.last_seen} now={now} />
            </Item>
            <Item label="Last received">
              <LastSeen value={agent.last_received} now={now} />
            </Item>
          </>
        )}
        {agent.description ? (
          <div className="col-span-2">
            <Item label="Description">{agent.description}</Item>
          </div>
        ) : null}
      </dl>
      {agent.local ? (
        <p className="text-sm text-slate-600">
          The local agent is this instance itself: what it runs and scrapes is its own, not pushed by an agent. Its job history is below.
        </p>
      ) : null}
      <section aria-label={agent.local ? 'Resources' : 'Pushed resources'}>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">{agent.local ? 'Resources' : 'Pushed resources'}</h3>
        <dl className="grid grid-cols-5 gap-2">
          {COUNTS.map(([key, label]) => (
            <div key={key} className="rounded-md border border-slate-200 px-3 py-2">
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums text-slate-900">{agent[key]}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-label="Properties">
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Properties</h3>
        {properties.length === 0 ? (
          <p className="text-sm text-slate-500">No properties</p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {properties.map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="font-mono text-xs text-slate-500">{key}</dt>
                <dd className="break-all text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}

/** The agent's job runs (job_history pushed by it, or run here for the local agent), in server pages; page and open run live in the URL. */
function AgentJobs({ id, local }: { id: string; local: boolean }) {
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const pageIndex = readInteger(read.jobsPage, 0);
  const pageSize = readInteger(read.jobsPageSize, DEFAULT_PAGE_SIZE, { min: 1, max: 1000 });
  const { dateFormat, timeZone } = useDisplayPreferences();
  const jobs = useAgentJobs(id, { pageIndex, pageSize });
  const rows = jobs.data?.rows ?? [];
  const open = useJobHistory(read.job, rows.find((row) => row.id === read.job));
  const patch = (change: Record<string, string | undefined>) => setParams((current) => patchSearchParams(current, change, { jobsPage: '0', jobsPageSize: String(DEFAULT_PAGE_SIZE) }));
  const columns = useMemo(
    (): ColumnDef<JobHistory>[] => [
      { accessorKey: 'name', header: 'Job Name', enableSorting: false },
      { id: 'resource', header: 'Resource', enableSorting: false, cell: ({ row }) => <ResourceCell job={row.original} /> },
      { accessorKey: 'status', header: 'Status', enableSorting: false, cell: ({ row }) => <JobStatusBadge status={row.original.status} /> },
      { accessorKey: 'time_start', header: 'Started', enableSorting: false, cell: ({ row }) => formatDate(row.original.time_start, dateFormat, timeZone) },
      { accessorKey: 'duration_millis', header: 'Duration', enableSorting: false, cell: ({ row }) => formatDuration(row.original.duration_millis) },
      { accessorKey: 'success_count', header: 'Success', enableSorting: false },
      { accessorKey: 'error_count', header: 'Errors', enableSorting: false },
    ],
    [dateFormat, timeZone],
  );
  return (
    <section aria-label="Job history" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-slate-900">Job history</h3>
      {jobs.error ? (
        <p role="alert" className="text-sm text-red-600">
          {jobs.error.message}
        </p>
      ) : null}
      <DataTable
        aria-label="Agent job history"
        data={rows}
        columns={columns}
        getRowId={(row) => row.id}
        isLoading={jobs.isLoading}
        emptyText={local ? 'No job runs yet' : 'This agent has pushed no job runs yet'}
        onRowClick={(row) => patch({ job: row.id })}
        pagination={{
          pageIndex,
          pageSize,
          totalRows: jobs.data?.total ?? 0,
          pageSizeOptions: SHELL_PAGE_SIZES,
          persistKey: false,
          onChange: (next) => patch({ jobsPage: String(next.pageIndex), jobsPageSize: String(next.pageSize) }),
        }}
      />
      {read.job ? <JobDetailsDialog job={open.data} loading={open.isLoading} onClose={() => patch({ job: undefined })} /> : null}
    </section>
  );
}

export interface AgentDetailProps {
  id: string;
  now: Date;
  canDelete: boolean;
  onClose: () => void;
  onDelete: (agent: AgentSummary) => void;
}

/** Spec §2 /settings/agents?id={id}: the agent's properties, counts, last seen and received, and its job history. */
export function AgentDetail({ id, now, canDelete, onClose, onDelete }: AgentDetailProps) {
  const agent = useAgent(id);
  if (agent.isLoading) {
    return (
      <Sheet title="Agent" onClose={onClose}>
        <Loading />
      </Sheet>
    );
  }
  if (agent.error || !agent.data) {
    return (
      <Sheet title="Agent" onClose={onClose}>
        <p role="alert" className="text-sm text-red-600">
          {agent.error ? agent.error.message : 'No agent found with this id: it may have been deleted.'}
        </p>
      </Sheet>
    );
  }
  const data = agent.data;
  return (
    <Sheet
      title={`Agent ${data.name}`}
      onClose={onClose}
      actions={
        // The local agent (this instance) cannot be deleted (DELETE /api/agent refuses it).
        canDelete && !data.local ? (
          <Button size="sm" variant="danger" onClick={() => onDelete(data)}>
            <Trash2 className="size-4" aria-hidden="true" />
            Delete
          </Button>
        ) : null
      }
    >
      <div className="flex flex-col gap-6">
        <Overview agent={data} now={now} />
        <AgentJobs id={id} local={data.local === true} />
      </div>
    </Sheet>
  );
}
