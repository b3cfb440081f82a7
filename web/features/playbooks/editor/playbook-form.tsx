import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem } from '@web/ui/primitives/dropdown-menu';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { FORM_ACTION_TYPES, MAIN_FIELDS, newAction, type PlaybookFormValues } from './playbook-form-values';

/**
 * The Form tab: the playbook's name, labels, title, description, category and icon, and its actions in
 * order (name and each type's main field). Parameters, selectors, triggers and the actions' other
 * fields are kept as written and edited in Code.
 */
export function PlaybookForm({ existing, readOnly }: { existing: boolean; readOnly: boolean }) {
  const { register, control, formState, getFieldState } = useFormContext<PlaybookFormValues>();
  const actions = useFieldArray({ control, name: 'actions' });
  const error = (path: Parameters<typeof getFieldState>[0]): string | undefined => {
    const message: unknown = getFieldState(path, formState).error?.message;
    return typeof message === 'string' ? message : undefined;
  };
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" required markRequired disabled={existing || readOnly} error={error('name')} placeholder="restart-deployment" {...register('name')} />
        <Field label="Namespace" disabled={existing || readOnly} error={error('namespace')} {...register('namespace')} />
        <Field label="Title" disabled={readOnly} error={error('title')} placeholder="Restart a deployment" {...register('title')} />
        <Field label="Category" disabled={readOnly} error={error('category')} placeholder="Kubernetes" {...register('category')} />
        <Field label="Icon" disabled={readOnly} error={error('icon')} placeholder="kubernetes" {...register('icon')} />
        <Controller
          control={control}
          name="labels"
          render={({ field }) => (
            <PairsInput label="Labels" item="Label" keyLabel="Key" value={field.value} onChange={field.onChange} onBlur={field.onBlur} disabled={readOnly} errorOf={(index) => formState.errors.labels?.[index]?.name?.message} />
          )}
        />
        <TextAreaField label="Description" className="md:col-span-2" rows={2} disabled={readOnly} error={error('description')} {...register('description')} />
      </div>
      <section aria-label="Actions" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Actions</h2>
        {actions.fields.length === 0 ? <p className="text-sm text-slate-600">A playbook needs at least one action.</p> : null}
        {actions.fields.map((item, index) => {
          const main = MAIN_FIELDS[item.type];
          return (
            <div key={item.id} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-3">
              <div className="flex items-start gap-3">
                <span className="mt-7 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">{item.type || '?'}</span>
                <Field label={`Action ${index + 1} name`} className="flex-1" required markRequired disabled={readOnly} error={error(`actions.${index}.name`)} {...register(`actions.${index}.name`)} />
                {readOnly ? null : <IconButton className="mt-6" label={`Remove action ${index + 1}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => actions.remove(index)} />}
              </div>
              {main ? (
                main.multiline ? (
                  <TextAreaField label={`${main.label} of action ${index + 1}`} monospace rows={5} required markRequired disabled={readOnly} error={error(`actions.${index}.main`)} {...register(`actions.${index}.main`)} />
                ) : (
                  <Field label={`${main.label} of action ${index + 1}`} required markRequired disabled={readOnly} error={error(`actions.${index}.main`)} {...register(`actions.${index}.main`)} />
                )
              ) : (
                <p className="text-xs text-slate-500">This {item.type} action is edited in Code.</p>
              )}
            </div>
          );
        })}
        {readOnly ? null : (
          <div>
            <DropdownMenu
              align="start"
              label="Action types"
              trigger={
                <Button size="sm">
                  <Plus className="size-4" aria-hidden="true" />
                  Add action
                </Button>
              }
            >
              {FORM_ACTION_TYPES.map((type) => (
                <DropdownMenuItem key={type} onSelect={() => actions.append(newAction(type))}>
                  {type}
                </DropdownMenuItem>
              ))}
            </DropdownMenu>
          </div>
        )}
      </section>
    </div>
  );
}
