import { ChevronDown, Play } from 'lucide-react';
import { useState } from 'react';
import { useAccess } from '@web/app/session';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem, DropdownMenuLabel } from '@web/ui/primitives/dropdown-menu';
import { useRunnablePlaybooks } from '../api/playbooks';
import type { RunnablePlaybook } from '../api/schema';
import { PlaybookIcon, playbookTitle } from '../components/badges';
import type { RunTarget } from '../model/params';
import { RunDialog } from './run-dialog';

/** Spec §6: the run menu needs write on playbook_runs: the server asks for playbook:run there; it goes with the playbooks flag. */
export function useCanRunPlaybooks(): boolean {
  const { can } = useAccess();
  const flags = useFeatureFlags();
  return flags.isEnabled('playbooks') && can('playbook_runs', 'playbook:run');
}

/**
 * Spec §2 playbook picker menu: 'Run playbook' lists the playbooks runnable on this resource
 * (GET /api/playbook/list) and opens the Run dialog for it. Hidden without access or when none apply.
 */
export function RunPlaybookMenu({ target }: { target: RunTarget }) {
  const allowed = useCanRunPlaybooks();
  const runnable = useRunnablePlaybooks(target, allowed);
  const [running, setRunning] = useState<RunnablePlaybook | null>(null);
  if (!allowed || !runnable.data || runnable.data.length === 0) return null;
  return (
    <>
      <DropdownMenu
        align="end"
        label="Playbooks"
        trigger={
          <Button size="sm">
            <Play className="size-4" aria-hidden="true" />
            Run playbook
            <ChevronDown className="size-3.5" aria-hidden="true" />
          </Button>
        }
      >
        <DropdownMenuLabel>Playbooks</DropdownMenuLabel>
        {runnable.data.map((playbook) => (
          <DropdownMenuItem key={playbook.id} onSelect={() => setRunning(playbook)}>
            <PlaybookIcon icon={playbook.icon} className="size-4" />
            {playbookTitle(playbook)}
          </DropdownMenuItem>
        ))}
      </DropdownMenu>
      {running ? <RunDialog playbook={running} target={target} onClose={() => setRunning(null)} /> : null}
    </>
  );
}
