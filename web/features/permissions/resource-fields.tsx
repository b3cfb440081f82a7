import { Plus, X } from 'lucide-react';
import { CAPABILITY_DESCRIPTIONS, isCapability } from '@common/rbac';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { Field } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Select } from '@web/ui/primitives/select';
import { FieldError } from './field-error';
import { OBJECT_OPTIONS, RESOURCE_KIND_LABELS, RESOURCE_KINDS, resourceKindPatch, type PermissionFormValues, type ResourceKind, type SelectorKind } from './form';

const ID_LABELS: Record<SelectorKind, string> = {
  catalog: 'Catalog item ID',
  component: 'Component ID',
  connection: 'Connection ID',
  playbook: 'Playbook ID',
};

const set = { shouldDirty: true, shouldTouch: true, shouldValidate: true } as const;

/**
 * Spec §4: what the permission is about. Global names an area (or an RBAC resource); the other kinds
 * name one resource by id, or select resources by tags and agents.
 */
export function ResourceFields() {
  const form = useFormContext<PermissionFormValues>();
  const kind = useWatch({ control: form.control, name: 'resourceKind' });
  const object = useWatch({ control: form.control, name: 'object' });
  const { errors, touchedFields, isSubmitted } = form.formState;

  const changeKind = (next: ResourceKind) => {
    if (next === kind) return;
    const patch = resourceKindPatch(next, form.getValues());
    form.setValue('resourceKind', patch.resourceKind, { shouldDirty: true });
    form.setValue('object', patch.object, { shouldDirty: true });
    form.setValue('resourceId', patch.resourceId, { shouldDirty: true });
    form.setValue('tags', patch.tags, { shouldDirty: true });
    form.setValue('agents', patch.agents, { shouldDirty: true, shouldValidate: isSubmitted });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr]">
        <Select label="Resource kind" value={kind} options={RESOURCE_KINDS.map((value) => ({ value, label: RESOURCE_KIND_LABELS[value] }))} onValueChange={changeKind} />
        {kind === 'global' ? (
          <div className="flex flex-col gap-1">
            <Select label="Object" value={object} options={OBJECT_OPTIONS.map((value) => ({ value, label: value }))} onValueChange={(value) => form.setValue('object', value, set)} />
            <FieldError message={touchedFields.object || isSubmitted ? errors.object?.message : undefined} />
            {isCapability(object) ? (
              <p className="text-xs text-slate-600">
                A capability: {CAPABILITY_DESCRIPTIONS[object]}. Action <code>*</code> (or <code>create</code>) grants it; a deny takes it away.
              </p>
            ) : null}
          </div>
        ) : (
          <Field
            label={ID_LABELS[kind]}
            placeholder="00000000-0000-0000-0000-000000000000"
            hint="Or leave it empty and select by tags or agents below."
            autoComplete="off"
            error={errors.resourceId?.message}
            {...form.register('resourceId', { deps: ['tags', 'agents'] })}
          />
        )}
      </div>
      {kind === 'global' ? null : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TagList />
          <AgentList />
        </div>
      )}
    </div>
  );
}

function TagList() {
  const form = useFormContext<PermissionFormValues>();
  const tags = useFieldArray({ control: form.control, name: 'tags' });
  const errors = form.formState.errors.tags;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">Tags</legend>
      {tags.fields.map((field, index) => (
        <div key={field.id} className="flex items-start gap-2">
          <Field label={`Tag ${index + 1} key`} className="flex-1 [&>label]:sr-only" placeholder="key" error={errors?.[index]?.key?.message} {...form.register(`tags.${index}.key`, { deps: ['resourceId'] })} />
          <Field label={`Tag ${index + 1} value`} className="flex-1 [&>label]:sr-only" placeholder="value" {...form.register(`tags.${index}.value`)} />
          <IconButton label={`Remove tag ${index + 1}`} onClick={() => tags.remove(index)} icon={<X className="size-4" aria-hidden="true" />} />
        </div>
      ))}
      <Button size="sm" className="self-start" onClick={() => tags.append({ key: '', value: '' })}>
        <Plus className="size-4" aria-hidden="true" />
        Add tag
      </Button>
    </fieldset>
  );
}

function AgentList() {
  const form = useFormContext<PermissionFormValues>();
  const agents = useFieldArray({ control: form.control, name: 'agents' });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">Agents</legend>
      {agents.fields.map((field, index) => (
        <div key={field.id} className="flex items-start gap-2">
          <Field label={`Agent ${index + 1}`} className="flex-1 [&>label]:sr-only" placeholder="agent name or id" {...form.register(`agents.${index}.name`, { deps: ['resourceId'] })} />
          <IconButton label={`Remove agent ${index + 1}`} onClick={() => agents.remove(index)} icon={<X className="size-4" aria-hidden="true" />} />
        </div>
      ))}
      <Button size="sm" className="self-start" onClick={() => agents.append({ name: '' })}>
        <Plus className="size-4" aria-hidden="true" />
        Add agent
      </Button>
    </fieldset>
  );
}
