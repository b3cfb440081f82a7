import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, useFormContext, type FieldPath } from 'react-hook-form';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem } from '@web/ui/primitives/dropdown-menu';
import { Field } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Select } from '@web/ui/primitives/select';
import { Switch } from '@web/ui/primitives/switch';
import { COLUMN_TYPES, FORM_QUERY_KINDS, isFormQueryKind, newColumn, newQuery, type ViewFormValues } from '../model/form-values';
import { isOneOf } from '@common/guards';

export interface ViewFormProps {
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
}

function Checkbox({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled: boolean }) {
  return (
    <label className="flex h-9 items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" className="size-4 rounded border-slate-300" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

/**
 * The Form tab: the view's name, title, icon, sidebar place, its columns (name, type, primary key,
 * hidden) and its catalog queries (configs or changes, by types and search). Everything else — merge,
 * mapping, panels, variables, other query kinds and the columns' other fields — is kept as written and
 * edited in Code.
 */
export function ViewForm({ existing, readOnly, live }: ViewFormProps) {
  const { register, control, formState, getFieldState } = useFormContext<ViewFormValues>();
  const columns = useFieldArray({ control, name: 'columns' });
  const queries = useFieldArray({ control, name: 'queries' });
  const error = (path: FieldPath<ViewFormValues>): string | undefined => {
    const state = getFieldState(path, formState);
    const message: unknown = state.error?.message;
    if (typeof message === 'string') return message;
    return state.isTouched || formState.isSubmitted ? live.get(path) : undefined;
  };
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" required markRequired disabled={existing || readOnly} error={error('name')} placeholder="deployments" {...register('name')} />
        <Field label="Namespace" disabled={existing || readOnly} error={error('namespace')} {...register('namespace')} />
        <Field label="Title" disabled={readOnly} error={error('title')} placeholder="Deployments" {...register('title')} />
        <Field label="Icon" disabled={readOnly} error={error('icon')} placeholder="layers" hint="A lucide icon name, e.g. layers, database, server" {...register('icon')} />
        <div className="flex flex-col gap-1">
          <Controller
            control={control}
            name="sidebar"
            render={({ field }) => <Switch label="Show in the sidebar" checked={field.value} onCheckedChange={field.onChange} disabled={readOnly} className="h-9 justify-start" />}
          />
          {error('sidebar') ? (
            <p role="alert" className="text-xs text-red-600">
              {error('sidebar')}
            </p>
          ) : null}
        </div>
        <Field label="Ordinal" inputMode="numeric" disabled={readOnly} error={error('ordinal')} hint="Position in the sidebar, lowest first" {...register('ordinal')} />
        <Controller
          control={control}
          name="labels"
          render={({ field }) => (
            <PairsInput label="Labels" item="Label" keyLabel="Key" value={field.value} onChange={field.onChange} onBlur={field.onBlur} disabled={readOnly} errorOf={(index) => formState.errors.labels?.[index]?.name?.message} />
          )}
        />
      </div>

      <section aria-label="Queries" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Queries</h2>
        {queries.fields.length === 0 ? <p className="text-sm text-slate-600">A view needs at least one query: the catalog's configs or changes, by type and search.</p> : null}
        {queries.fields.map((item, index) => (
          <div key={item.id} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-3">
            <div className="flex items-start gap-3">
              <span className="mt-7 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">{item.kind || '?'}</span>
              <Field label={`Query ${index + 1} name`} className="flex-1" required markRequired disabled={readOnly} error={error(`queries.${index}.name`)} {...register(`queries.${index}.name`)} />
              {readOnly ? null : <IconButton className="mt-6" label={`Remove query ${index + 1}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => queries.remove(index)} />}
            </div>
            {isFormQueryKind(item.kind) ? (
              <div className="grid gap-3 md:grid-cols-2">
                <Field
                  label={`Types of query ${index + 1}`}
                  disabled={readOnly}
                  error={error(`queries.${index}.types`)}
                  placeholder="Kubernetes::Deployment, Kubernetes::StatefulSet"
                  hint="Config types, comma separated"
                  {...register(`queries.${index}.types`)}
                />
                <Field label={`Search of query ${index + 1}`} disabled={readOnly} error={error(`queries.${index}.search`)} placeholder="health=unhealthy" {...register(`queries.${index}.search`)} />
              </div>
            ) : (
              <p className="text-xs text-slate-500">This {item.kind || 'query'} query is edited in Code.</p>
            )}
          </div>
        ))}
        {readOnly ? null : (
          <div>
            <DropdownMenu
              align="start"
              label="Query kinds"
              trigger={
                <Button size="sm">
                  <Plus className="size-4" aria-hidden="true" />
                  Add query
                </Button>
              }
            >
              {FORM_QUERY_KINDS.map((kind) => (
                <DropdownMenuItem key={kind} onSelect={() => queries.append(newQuery(queries.fields.length === 0 ? kind : '', kind))}>
                  {kind}
                </DropdownMenuItem>
              ))}
            </DropdownMenu>
          </div>
        )}
      </section>

      <section aria-label="Columns" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Columns</h2>
        {columns.fields.length === 0 ? <p className="text-sm text-slate-600">No columns: the view shows panels only.</p> : null}
        {columns.fields.map((item, index) => (
          <div key={item.id} className="flex flex-wrap items-start gap-3 rounded-md border border-slate-200 bg-white p-3">
            <Field label={`Column ${index + 1} name`} className="min-w-40 flex-1" required markRequired disabled={readOnly} error={error(`columns.${index}.name`)} {...register(`columns.${index}.name`)} />
            <Controller
              control={control}
              name={`columns.${index}.type`}
              render={({ field }) => {
                const options = isOneOf(COLUMN_TYPES, field.value) || field.value === '' ? COLUMN_TYPES : [...COLUMN_TYPES, field.value];
                const message = error(`columns.${index}.type`);
                return readOnly ? (
                  <Field label={`Type of column ${index + 1}`} className="w-44" disabled value={field.value} readOnly />
                ) : (
                  <div className="flex w-44 flex-col gap-1">
                    <Select label={`Type of column ${index + 1}`} value={field.value} options={options.map((type) => ({ value: type, label: type }))} onValueChange={field.onChange} placeholder="Choose a type" />
                    {message ? (
                      <p role="alert" className="text-xs text-red-600">
                        {message}
                      </p>
                    ) : null}
                  </div>
                );
              }}
            />
            <div className="mt-6 flex items-center gap-3">
              <Controller
                control={control}
                name={`columns.${index}.primaryKey`}
                render={({ field }) => <Checkbox label="Primary key" checked={field.value} onChange={field.onChange} disabled={readOnly} />}
              />
              <Controller control={control} name={`columns.${index}.hidden`} render={({ field }) => <Checkbox label="Hidden" checked={field.value} onChange={field.onChange} disabled={readOnly} />} />
              {readOnly ? null : <IconButton label={`Remove column ${index + 1}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => columns.remove(index)} />}
            </div>
          </div>
        ))}
        {readOnly ? null : (
          <div>
            <Button size="sm" onClick={() => columns.append(newColumn('', 'string'))}>
              <Plus className="size-4" aria-hidden="true" />
              Add column
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}
