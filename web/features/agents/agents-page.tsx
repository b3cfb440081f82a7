import { Plus, Server } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, usePersistedPageSize, type SortingState } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { QueryPage } from '@web/ui/query-page';
import { SearchBox } from '@web/ui/search-box';
import { AddAgentDialog } from './add-agent-dialog';
import { AgentCreatedDialog } from './agent-created-dialog';
import { AgentDetail } from './agent-detail';
import { agentColumns } from './columns';
import { DeleteAgentDialog } from './delete-agent-dialog';
import { applyAgentsChange, closeAgentPatch, parseAgentFilters } from './filters';
import { useAgents } from './queries';
import type { GeneratedAgent } from './schema';

/** Ages ('2m ago') are re-read from the clock this often. */
const CLOCK_MS = 15_000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Why Add agent is disabled for someone who may write agents but not mint their tokens. */
export const AGENT_TOKENS_NEEDED = 'Adding an agent mints its token, which needs the capability agent_tokens: an admin grants it in Settings → Permissions';

/**
 * /settings/agents (spec §2): guarded by read on agents (spec §6); deleting needs write, adding (which
 * mints or rotates the agent's token) also the capability agent_tokens (issue 35).
 */
export default function AgentsPage() {
  const { ready, can } = useAccess();
  if (!ready || !can('agents', 'read')) return <Page title="Agents">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Agents canAdd={can('agents', 'create')} canMint={can('agent_tokens', 'create')} canDelete={can('agents', 'delete')} />;
}

function Agents({ canAdd: mayWrite, canMint, canDelete }: { canAdd: boolean; canMint: boolean; canDelete: boolean }) {
  const canAdd = mayWrite && canMint;
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseAgentFilters(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = filters.pageSize ?? storedSize;
  const agents = useAgents({ search: filters.search, sortBy: filters.sortBy, sortOrder: filters.sortOrder, pageIndex: filters.pageIndex, pageSize });
  const now = useNow();
  const columns = useMemo(() => agentColumns(now), [now]);
  // The one-time answer of generate is never in the URL (it holds a token).
  const [generated, setGenerated] = useState<GeneratedAgent | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);

  const setAdding = (open: boolean) => setParams((current) => applyAgentsChange(current, { dialog: open ? 'add' : undefined }));
  const closeDetail = () => setParams((current) => applyAgentsChange(current, closeAgentPatch()));
  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const empty = !agents.isLoading && !agents.error && filters.search === '' && (agents.data?.total ?? 0) === 0;
  const button = (
    <Button variant="primary" size="sm" disabled={!canAdd} aria-description={canAdd ? undefined : AGENT_TOKENS_NEEDED} onClick={() => setAdding(true)}>
      <Plus className="size-4" aria-hidden="true" />
      Add agent
    </Button>
  );
  // A disabled button shows no tooltip: the wrapper says why.
  const addButton = !mayWrite ? null : canAdd ? button : <span title={AGENT_TOKENS_NEEDED} className="inline-flex">{button}</span>;

  return (
    <QueryPage
      title="Agents"
      query={agents}
      extra={empty ? null : <span className="ml-auto">{addButton}</span>}
      toolbar={
        empty ? null : (
          <div role="search" aria-label="Agent filters" className="flex max-w-3xl flex-wrap items-center gap-3">
            <SearchBox label="Search agents" placeholder="Name, hostname or version" value={filters.search} onCommit={(q) => setParams((current) => applyAgentsChange(current, { q: q || undefined }))} />
          </div>
        )
      }
    >
      {empty ? (
        <div className="rounded-lg border border-slate-200 bg-white">
          <EmptyState
            icon={<Server className="size-5" aria-hidden="true" />}
            title="No agents yet"
            description="An agent is this program installed close to the systems (another cluster or network): it runs checks, scrapers and topologies there and pushes the results here."
            action={addButton ?? undefined}
          />
        </div>
      ) : (
        <DataTable
          aria-label="Agents"
          data={agents.data?.rows ?? []}
          columns={columns}
          getRowId={(row) => row.id}
          isLoading={agents.isLoading}
          emptyText="No agents match this search"
          manualSorting
          sorting={sorting}
          onSortingChange={(next) => {
            // Removing the sort returns to the default order (by name).
            setParams((current) => applyAgentsChange(current, { sortBy: undefined, sortOrder: undefined, ...sortingToParams(next) }));
          }}
          onRowClick={(row) => setParams((current) => applyAgentsChange(current, { id: row.id }))}
          pagination={{
            pageIndex: filters.pageIndex,
            pageSize,
            totalRows: agents.data?.total ?? 0,
            onChange: (next) => setParams((current) => applyAgentsChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
          }}
        />
      )}
      {filters.id ? <AgentDetail id={filters.id} now={now} canDelete={canDelete} onClose={closeDetail} onDelete={(agent) => setDeleting({ id: agent.id, name: agent.name })} /> : null}
      {filters.adding && canAdd ? (
        <AddAgentDialog
          onClose={() => setAdding(false)}
          onGenerated={(agent) => {
            setAdding(false);
            setGenerated(agent);
          }}
        />
      ) : null}
      {generated ? <AgentCreatedDialog agent={generated} onClose={() => setGenerated(null)} /> : null}
      <DeleteAgentDialog
        agent={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          const deletedId = deleting?.id;
          setDeleting(null);
          if (deletedId && filters.id === deletedId) closeDetail();
        }}
      />
    </QueryPage>
  );
}
