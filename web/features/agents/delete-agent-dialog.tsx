import { useId, useState } from 'react';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { useDeleteAgent } from './queries';

export interface DeleteAgentDialogProps {
  agent: { id: string; name: string } | null;
  onClose: () => void;
  /** After the delete succeeded (e.g. close the detail). */
  onDeleted: () => void;
}

/**
 * Spec §4 Deletion: the agent is soft-deleted and its tokens stop working; on request the checks,
 * configs and topologies it pushed go too (DELETE /api/agent/{id}?cleanup=true).
 */
export function DeleteAgentDialog({ agent, onClose, onDeleted }: DeleteAgentDialogProps) {
  const [cleanup, setCleanup] = useState(false);
  const checkboxId = useId();
  const remove = useDeleteAgent(() => {
    setCleanup(false);
    onDeleted();
  });
  return (
    <ConfirmDialog
      open={agent !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCleanup(false);
          onClose();
        }
      }}
      title="Delete agent"
      description={
        <>
          <span className="block">Are you sure you want to delete {agent?.name}? Its tokens stop working: a running agent is refused from now on.</span>
          <span className="mt-3 flex items-start gap-2">
            <input id={checkboxId} type="checkbox" className="mt-0.5 size-4" checked={cleanup} disabled={remove.isPending} onChange={(event) => setCleanup(event.target.checked)} />
            <label htmlFor={checkboxId} className="text-slate-800">
              Also delete the checks, configs and topologies it pushed
            </label>
          </span>
        </>
      }
      busy={remove.isPending}
      onConfirm={() => {
        if (agent) remove.mutate({ id: agent.id, name: agent.name, cleanup });
      }}
    />
  );
}
