import { canRunChecks } from '@common/rbac';
import { formatDuration } from '@common/format';
import { Play } from 'lucide-react';
import { useSession } from '@web/app/session';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import type { RunResult } from '../api/schema';

/** Spec §6: 'Run Now' is shown only to admin, editor, responder and commander (and whoever may update canaries). */
export function useCanRunChecks(): boolean {
  const session = useSession();
  const user = session.status === 'ready' ? session.user : undefined;
  return user ? canRunChecks(user.roles, user.permissions) : false;
}

export function RunNowButton({ running, onRun }: { running: boolean; onRun: () => void }) {
  return (
    <Button variant="primary" size="sm" onClick={onRun} disabled={running} aria-busy={running}>
      <Play className="size-3.5" aria-hidden="true" />
      {running ? 'Running...' : 'Run Now'}
    </Button>
  );
}

/** The result Run Now answered, shown at once while the stats and history reload. */
export function RunResultBanner({ result }: { result: RunResult }) {
  const text = result.pass ? result.message : result.error || result.message;
  return (
    <p role="status" aria-label="Run result" className={cn('rounded-md border px-3 py-2 text-sm', result.pass ? 'border-green-200 bg-green-50 text-green-800' : 'border-red-200 bg-red-50 text-red-800')}>
      <span className="font-semibold">{result.pass ? 'Passed' : 'Failed'}</span> in {formatDuration(result.duration)}
      {text ? <span className="break-all">: {text}</span> : null}
    </p>
  );
}
