import { ResourceForm } from '@web/features/settings/resources/resource-form';
import type { ResourceValues } from '@web/features/settings/resources/form-values';
import type { ResourceField } from '@web/features/settings/resources/types';
import type { ResourceRow } from '@web/features/settings/resources/values';
import { Button } from '@web/ui/primitives/button';

export interface SpecFormProps {
  fields: readonly ResourceField[];
  row: ResourceRow | null;
  saving: boolean;
  readOnly: boolean;
  onSubmit: (values: ResourceValues) => void;
  onCancel: () => void;
  onDelete: (() => void) | undefined;
}

/**
 * Spec §2 Topology form (and the log backend's, built the same way): the resource's fields (Name,
 * Namespace, Labels as a key-value list, Spec as YAML), Save or Update ('Saving' or 'Updating' while busy),
 * Cancel, and Delete when editing.
 */
export function SpecForm({ fields, row, saving, readOnly, onSubmit, onCancel, onDelete }: SpecFormProps) {
  const existing = row !== null;
  const actions = (
    <div className="flex items-center gap-2">
      {readOnly ? null : (
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? (existing ? 'Updating' : 'Saving') : existing ? 'Update' : 'Save'}
        </Button>
      )}
      <Button onClick={onCancel}>{readOnly ? 'Back' : 'Cancel'}</Button>
      {onDelete && !readOnly ? (
        <Button variant="danger" className="ml-auto" onClick={onDelete}>
          Delete
        </Button>
      ) : null}
    </div>
  );
  return <ResourceForm fields={fields} row={row} saving={saving} readOnly={readOnly} onSubmit={onSubmit} onBack={onCancel} yamlLabels actions={actions} />;
}
