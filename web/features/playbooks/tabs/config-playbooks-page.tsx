import { Play } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import NotFoundPage from '@web/app/pages/not-found-page';
import { ConfigPage, configName, type ConfigDetail } from '@web/features/catalog/components';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';
import { useRunnablePlaybooks } from '../api/playbooks';
import { useRuns } from '../api/runs';
import type { RunnablePlaybook } from '../api/schema';
import { PlaybookIcon, playbookTitle } from '../components/badges';
import { RunsTable } from '../components/runs-table';
import { playbookPath, resourceRunsPath } from '../paths';
import { RunDialog } from '../run/run-dialog';
import { useCanRunPlaybooks } from '../run/run-menu';

const RECENT_RUNS = 20;

function ConfigPlaybooks({ config }: { config: ConfigDetail }) {
  const canRun = useCanRunPlaybooks();
  const target = { kind: 'config' as const, id: config.id, name: configName(config) };
  const runnable = useRunnablePlaybooks(target);
  const runs = useRuns({ resource: config.id, pageIndex: 0, pageSize: RECENT_RUNS });
  const [running, setRunning] = useState<RunnablePlaybook | null>(null);
  return (
    <div className="flex flex-col gap-6">
      <section aria-label="Runnable playbooks" className="flex flex-col gap-2">
        <h2 className="text-sm font-semibold text-slate-900">Playbooks for this item</h2>
        {runnable.isPending ? <Loading /> : null}
        {runnable.error ? <p role="alert" className="text-sm text-red-600">{runnable.error.message}</p> : null}
        {runnable.data && runnable.data.length === 0 ? <p className="text-sm text-slate-600">No playbook runs on this item.</p> : null}
        {runnable.data && runnable.data.length > 0 ? (
          <ul className="grid gap-2 md:grid-cols-2">
            {runnable.data.map((playbook) => (
              <li key={playbook.id} aria-label={playbookTitle(playbook)} className="flex items-center gap-3 rounded-md border border-slate-200 bg-white px-3 py-2">
                <PlaybookIcon icon={playbook.icon} className="size-5 shrink-0" />
                <div className="min-w-0 flex-1">
                  <Link to={playbookPath(playbook.id)} className="block truncate font-medium text-blue-700 hover:underline">
                    {playbookTitle(playbook)}
                  </Link>
                  {playbook.description ? <p className="truncate text-xs text-slate-500">{playbook.description}</p> : null}
                </div>
                {canRun ? (
                  <Button size="sm" onClick={() => setRunning(playbook)} aria-label={`Run ${playbookTitle(playbook)}`}>
                    <Play className="size-3.5" aria-hidden="true" />
                    Run
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section aria-label="Runs on this item" className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <h2 className="text-sm font-semibold text-slate-900">Runs on this item</h2>
          <Link to={resourceRunsPath(config.id)} className="text-sm text-blue-700 hover:underline">
            All runs
          </Link>
        </div>
        {runs.error ? <p role="alert" className="text-sm text-red-600">{runs.error.message}</p> : null}
        <RunsTable rows={runs.data?.rows ?? []} isLoading={runs.isPending} hideResource emptyText="No runs on this item yet" />
      </section>
      {running ? <RunDialog playbook={running} target={target} onClose={() => setRunning(null)} /> : null}
    </div>
  );
}

/** /catalog/{id}/playbooks (spec §2 catalog-scoped tabs): what can run on the item, and what ran (gone with the playbooks flag). */
export default function ConfigPlaybooksPage() {
  const flags = useFeatureFlags();
  if (flags.ready && !flags.isEnabled('playbooks')) return <NotFoundPage />;
  return <ConfigPage tab="playbooks">{(config) => <ConfigPlaybooks config={config} />}</ConfigPage>;
}
