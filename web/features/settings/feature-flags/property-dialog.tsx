import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { useCreateProperty, useDeleteProperty, useUpdateProperty } from './queries';
import { propertyFormSchema, type Property, type PropertyForm } from './schema';

export interface PropertyDialogProps {
  /** The flag being edited, or null to add one. */
  property: Property | null;
  open: boolean;
  onClose: () => void;
  /** Spec §6: only those who may delete feature flags see Delete. */
  canDelete?: boolean;
}

/** Add or edit a feature flag; an existing flag keeps its name (spec §5) and can be deleted. */
export function PropertyDialog({ property, open, onClose, canDelete = true }: PropertyDialogProps) {
  const editing = property !== null;
  const create = useCreateProperty();
  const update = useUpdateProperty();
  const remove = useDeleteProperty();
  const [confirming, setConfirming] = useState(false);
  const formId = useId();
  const form = useForm<PropertyForm>({
    resolver: zodResolver(propertyFormSchema),
    // Spec §5: messages appear once a field is touched, then follow every change.
    mode: 'onTouched',
    defaultValues: { name: property?.name ?? '', value: property?.value ?? '' },
  });
  const { errors } = form.formState;
  const saving = create.isPending || update.isPending;

  const submit = form.handleSubmit(async (values) => {
    // The name is the key: when editing, the stored one is used whatever the (disabled) input holds.
    if (editing) await update.mutateAsync({ name: property.name, value: values.value });
    else await create.mutateAsync(values);
    onClose();
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={editing ? 'Edit Feature Flag' : 'Add Feature Flag'}
      size="small"
      footer={
        <>
          {editing && canDelete ? (
            <Button variant="danger" className="mr-auto" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          ) : null}
          <Button onClick={onClose}>Cancel</Button>
          {/* In the footer, outside the form: `form` ties it to the form, so Enter in a field still submits. */}
          <Button type="submit" form={formId} variant="primary" disabled={saving}>
            {saving ? (editing ? 'Updating' : 'Saving') : editing ? 'Update' : 'Save'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(event) => {
          // Failures already toast (the query client's mutation cache); the dialog stays open to retry.
          submit(event).catch(() => undefined);
        }}
        className="flex flex-col gap-4"
        noValidate
      >
        <Field label="Name" placeholder="e.g. incidents.disable" disabled={editing} error={errors.name?.message} {...form.register('name')} />
        <Field label="Value" placeholder="e.g. true" error={errors.value?.message} {...form.register('value')} />
      </form>
      {editing ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Delete Feature Flag"
          description={`Are you sure you want to delete ${property.name}?`}
          busy={remove.isPending}
          onConfirm={() => {
            remove.mutate(property.name, {
              onSuccess: () => {
                setConfirming(false);
                onClose();
              },
            });
          }}
        />
      ) : null}
    </Dialog>
  );
}
