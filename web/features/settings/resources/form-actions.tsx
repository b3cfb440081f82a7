import { Button } from '@web/ui/primitives/button';

interface FormActionsProps {
  onBack: () => void;
  /** Absent for a new resource: no Delete, and Save rather than Update. */
  existing: boolean;
  readOnly: boolean;
  saving: boolean;
  onDelete?: (() => void) | undefined;
}

/** The row under a resource editor: Back, Save or Update (not when read-only), and Delete on the right. */
export function FormActions({ onBack, existing, readOnly, saving, onDelete }: FormActionsProps) {
  return (
    <div className="flex items-center gap-2">
      <Button onClick={onBack}>Back</Button>
      {readOnly ? null : (
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? (existing ? 'Updating' : 'Saving') : existing ? 'Update' : 'Save'}
        </Button>
      )}
      {onDelete && !readOnly ? (
        <Button variant="danger" className="ml-auto" onClick={onDelete}>
          Delete
        </Button>
      ) : null}
    </div>
  );
}
