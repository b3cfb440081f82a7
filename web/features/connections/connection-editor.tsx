import { useState } from 'react';
import { useNavigate } from 'react-router';
import { connectionType } from '@common/connections';
import { useAccess } from '@web/app/session';
import { toast } from '@web/lib/toast';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { ConnectionForm } from './connection-form';
import { formToPatch, type FormProblems } from './form';
import { useDeleteConnection, useUpdateConnection } from './queries';
import { saveErrorProblems } from './save-errors';
import type { ConnectionRow } from './schema';
import { TestPanel } from './test-panel';

/**
 * A connection's form (Update, Delete with confirmation) and its Test; back to `listPath` after a save or a
 * delete. A linked connection (another source) is read-only, said in a note unless the page says it already.
 */
export function ConnectionEditor({ row, listPath, linkedNote = true }: { row: ConnectionRow; listPath: string; linkedNote?: boolean }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  const def = connectionType(row.type);
  const toList = () => void navigate(listPath);
  const update = useUpdateConnection(row.id, toList);
  const remove = useDeleteConnection(row.id, row.name, toList);
  const [confirming, setConfirming] = useState(false);
  const [serverProblems, setServerProblems] = useState<FormProblems>({});
  const linked = row.source && row.source !== 'UI' ? row.source : undefined;
  const readOnly = linked !== undefined || !can('connections', 'update');
  const onDelete = linked === undefined && can('connections', 'delete') ? () => setConfirming(true) : undefined;

  if (!def) {
    return (
      <p role="alert" className="text-sm text-red-600">
        This connection's type, "{row.type}", is not known to this console, so it cannot be shown as a form.
      </p>
    );
  }
  return (
    <>
      {linked && linkedNote ? (
        <p role="note" className="mb-4 max-w-2xl rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
          This connection comes from {linked} and is read-only here: change it where it is defined.
        </p>
      ) : null}
      <ConnectionForm
        def={def}
        row={row}
        readOnly={readOnly}
        saving={update.isPending}
        serverProblems={serverProblems}
        onBack={toList}
        onDelete={onDelete}
        onSubmit={(values, initial) => {
          setServerProblems({});
          update.mutate(formToPatch(def, initial, values), {
            onError: (error) => {
              const problems = saveErrorProblems(def, error);
              if (problems) setServerProblems(problems);
              else toast.error(error);
            },
          });
        }}
        extra={(dirty) => <TestPanel id={row.id} dirty={dirty} />}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Connection"
        description={`Are you sure you want to delete ${row.name}?`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
