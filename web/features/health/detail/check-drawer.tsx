import { LOCAL_AGENT_ID } from '@common/constants';
import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { RunPlaybookMenu } from '@web/features/playbooks/run/run-menu';
import { GRAPH_TAB_HEIGHT_THRESHOLD_PX } from '@common/constants';
import * as RadixTabs from '@radix-ui/react-tabs';
import { Pencil } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@web/ui/primitives/badge';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { relativeRange, type TimeRangeValue } from '@web/ui/time-range';
import { useCheckRecord, useCheckRelationships, useCheckStats, usePushCheckTypes, useRunCheck } from '../api/check';
import type { CheckSpec } from '../api/schema';
import { closeCheckPatch, type HealthParams, type HealthPatch } from '../state/params';
import { defaultCheckRange } from '../state/time-range';
import { useMediaQuery } from '../state/use-media-query';
import { CheckLabels, CheckTitle } from './check-header';
import { CheckStats } from './check-stats';
import { ResourceNotificationsSection, useCanSeeNotifications } from '@web/features/notifications/tabs/resource-notifications-section';
import { HistoryTab } from './history-tab';
import { relationshipCount, RelationshipsTab } from './relationships-tab';
import { RunNowButton, RunResultBanner, useCanRunChecks } from './run-now';
import { Sheet } from '@web/ui/primitives/sheet';

// The chart and the YAML library load with the first graph or spec shown.
const CheckGraph = lazy(() => import('./check-graph'));
const SpecTab = lazy(() => import('./spec-tab'));

interface CheckDrawerProps {
  checkId: string;
  state: Pick<HealthParams, 'timeRange' | 'timeRangeChosen'>;
  onChange: (patch: HealthPatch) => void;
}

const tabTrigger = 'inline-flex items-center gap-1.5 -mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';


/**
 * The check detail (spec §2), a drawer over the Health page with checkId in the URL. Closing removes
 * checkId and resets the range to 1h. Without a range in the URL the detail looks back far enough to
 * include the check's last run (spec §9).
 */
export default function CheckDrawer({ checkId, state, onChange }: CheckDrawerProps) {
  const record = useCheckRecord(checkId);
  const close = () => onChange(closeCheckPatch());
  if (record.isLoading) {
    return (
      <Sheet width="wider" title="Loading check" onClose={close}>
        <Loading />
      </Sheet>
    );
  }
  if (record.error) {
    return (
      <Sheet width="wider" title="Check" onClose={close}>
        <p role="alert" className="text-sm text-red-600">
          {record.error.message}
        </p>
      </Sheet>
    );
  }
  if (!record.data || record.data.deleted_at) {
    return (
      <Sheet width="wider" title="Check not found" onClose={close}>
        <EmptyState title="No details found" description={record.data ? 'This check was deleted.' : `There is no check ${checkId}.`} />
      </Sheet>
    );
  }
  const timeRange = state.timeRangeChosen ? state.timeRange : relativeRange(defaultCheckRange(record.data.last_runtime));
  return <CheckDetail key={checkId} record={record.data} timeRange={timeRange} onTimeRangeChange={(value) => onChange({ timeRange: value })} onClose={close} />;
}

function CheckDetail({ record, timeRange, onTimeRangeChange, onClose }: { record: CheckSpec; timeRange: TimeRangeValue; onTimeRangeChange: (value: TimeRangeValue) => void; onClose: () => void }) {
  const stats = useCheckStats(record.id, timeRange);
  const relationships = useCheckRelationships(record.id);
  const run = useRunCheck(record.id);
  const pushTypes = usePushCheckTypes();
  // A check made by a transform runs with its parent; a pushed check (webhook) only receives results; an
  // agent's check runs on the agent.
  const canRun = useCanRunChecks() && !record.transformed_from && record.agent_id === LOCAL_AGENT_ID && pushTypes.data !== undefined && !pushTypes.data.has(record.type);
  // Spec §9: on screens at least 992 px tall the graph sits above the tabs; shorter ones get a Graph tab.
  const tall = useMediaQuery(`(min-height: ${GRAPH_TAB_HEIGHT_THRESHOLD_PX}px)`);
  const [tab, setTab] = useState('history');
  const activeTab = tall && tab === 'graph' ? 'history' : tab;
  const check = stats.data ?? null;
  const count = relationshipCount(relationships.data);
  const showNotifications = useCanSeeNotifications();

  const title = check ? <CheckTitle check={check} /> : record.name;
  const actions = (
    <>
      {canRun ? <RunNowButton running={run.isPending} onRun={() => run.mutate()} /> : null}
      <RunPlaybookMenu target={{ kind: 'check', id: record.id, name: record.name }} />
      <AttachEvidenceButton target={{ type: 'check', check_id: record.id, summary: `the check ${record.name} with its latest result` }} />
      <Link to={`/settings/canaries/${record.canary_id}`} className={cn(buttonBase, 'h-8 gap-1.5 border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:bg-slate-50')}>
        <Pencil className="size-3.5" aria-hidden="true" />
        Edit
      </Link>
    </>
  );
  const graph = (
    <Suspense fallback={<Loading className="py-6" />}>
      <CheckGraph checkId={record.id} timeRange={timeRange} onTimeRangeChange={onTimeRangeChange} />
    </Suspense>
  );
  return (
    <Sheet width="wider" title={title} onClose={onClose} actions={actions}>
      <div className="flex flex-col gap-4">
        {check ? <CheckLabels labels={check.labels} /> : null}
        {run.data ? <RunResultBanner result={run.data} /> : null}
        {stats.error ? (
          <p role="alert" className="text-sm text-red-600">
            {stats.error.message}
          </p>
        ) : null}
        <CheckStats check={check} timeRange={timeRange} onTimeRangeChange={onTimeRangeChange} />
        {tall ? <section aria-label="Graph">{graph}</section> : null}
        <RadixTabs.Root value={activeTab} onValueChange={setTab} className="flex flex-col gap-3">
          <RadixTabs.List aria-label="Check details" className="flex gap-1 border-b border-slate-200">
            <RadixTabs.Trigger value="history" className={tabTrigger}>
              History
            </RadixTabs.Trigger>
            {tall ? null : (
              <RadixTabs.Trigger value="graph" className={tabTrigger}>
                Graph
              </RadixTabs.Trigger>
            )}
            <RadixTabs.Trigger value="spec" className={tabTrigger}>
              Spec
            </RadixTabs.Trigger>
            <RadixTabs.Trigger value="relationships" className={tabTrigger}>
              Relationships <Badge>{count}</Badge>
            </RadixTabs.Trigger>
            {showNotifications ? (
              <RadixTabs.Trigger value="notifications" className={tabTrigger}>
                Notifications
              </RadixTabs.Trigger>
            ) : null}
          </RadixTabs.List>
          <RadixTabs.Content value="history">
            <HistoryTab checkId={record.id} timeRange={timeRange} />
          </RadixTabs.Content>
          {tall ? null : <RadixTabs.Content value="graph">{graph}</RadixTabs.Content>}
          <RadixTabs.Content value="spec">
            <Suspense fallback={<Loading className="py-6" />}>
              <SpecTab record={record} />
            </Suspense>
          </RadixTabs.Content>
          <RadixTabs.Content value="relationships">
            <RelationshipsTab relationships={relationships.data} loading={relationships.isLoading} error={relationships.error} />
          </RadixTabs.Content>
          {showNotifications ? (
            <RadixTabs.Content value="notifications">
              <ResourceNotificationsSection resourceId={record.id} kind="check" heading={false} />
            </RadixTabs.Content>
          ) : null}
        </RadixTabs.Root>
      </div>
    </Sheet>
  );
}
