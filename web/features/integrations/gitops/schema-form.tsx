import { useId, useState } from 'react';
import { formatPath, type DocPath } from '@web/features/canaries/model/document';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { cn } from '@web/ui/primitives/cn';
import { getIn, isRecord, schemaType, setIn, type Values, type ValuesSchema } from './model';

export interface SchemaFormProps {
  schema: ValuesSchema;
  values: Values;
  onChange: (values: Values) => void;
  /** Problems by formatted path ('scraper.name'), shown under their fields. */
  problems: ReadonlyMap<string, string>;
}

/**
 * A form generated from a chart's values JSON schema: objects as sections, texts, numbers, booleans,
 * enums (a select), lists of texts (one per line) and maps of texts (key=value per line). Required fields
 * are marked; descriptions are the hints. Keys the form cannot show are edited in the Values editor.
 */
export function SchemaForm({ schema, values, onChange, problems }: SchemaFormProps) {
  return (
    <div className="flex flex-col gap-3">
      <Properties schema={schema} path={[]} values={values} onChange={onChange} problems={problems} />
    </div>
  );
}

interface NodeProps {
  schema: ValuesSchema;
  path: string[];
  values: Values;
  onChange: (values: Values) => void;
  problems: ReadonlyMap<string, string>;
}

function Properties({ schema, path, values, onChange, problems }: NodeProps) {
  const required = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([key, property]) => (
        <Property key={key} name={key} schema={property} path={[...path, key]} required={required.has(key)} values={values} onChange={onChange} problems={problems} />
      ))}
    </>
  );
}

function problemAt(problems: ReadonlyMap<string, string>, path: DocPath): string | undefined {
  return problems.get(formatPath(path));
}

function Property({ name, schema, path, required, values, onChange, problems }: NodeProps & { name: string; required: boolean }) {
  const type = schemaType(schema);
  const value = getIn(values, path);
  const set = (next: unknown) => onChange(setIn(values, path, next));
  const error = problemAt(problems, path);
  const hint = schema.description;
  const common = { markRequired: required, ...(error ? { error } : {}), ...(hint ? { hint } : {}) };

  if (type === 'object' && schema.properties && Object.keys(schema.properties).length > 0) {
    return (
      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">
          {name}
          {required ? <span aria-hidden="true" className="text-red-600"> *</span> : null}
        </legend>
        {hint ? <p className="-mt-1 text-xs text-slate-500">{hint}</p> : null}
        {error ? <p className="text-xs text-red-600">{error}</p> : null}
        <Properties schema={schema} path={path} values={values} onChange={onChange} problems={problems} />
      </fieldset>
    );
  }
  if (type === 'object') {
    // A map of texts (labels): key=value per line.
    const text = isRecord(value) ? Object.entries(value).map(([k, v]) => `${k}=${String(v)}`).join('\n') : '';
    return (
      <TextAreaField
        label={name}
        {...common}
        hint={`${hint ? `${hint}. ` : ''}One key=value per line`}
        rows={2}
        defaultValue={text}
        key={text}
        onBlur={(event) => {
          const entries = event.target.value
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
            .map((line) => {
              const at = line.indexOf('=');
              return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
            });
          set(entries.length > 0 ? Object.fromEntries(entries) : undefined);
        }}
      />
    );
  }
  if (type === 'boolean') return <CheckboxField name={name} checked={value === true} hint={hint} error={error} onChange={(checked) => set(checked)} />;
  if (schema.enum && schema.enum.length > 0) {
    return <EnumField name={name} required={required} options={schema.enum.map(String)} value={typeof value === 'string' ? value : value === undefined ? undefined : String(value)} hint={hint} error={error} onChange={(next) => set(next)} />;
  }
  if (type === 'integer' || type === 'number') {
    return (
      <Field
        label={name}
        {...common}
        type="number"
        step={type === 'integer' ? 1 : 'any'}
        value={typeof value === 'number' ? String(value) : ''}
        onChange={(event) => {
          const raw = event.target.value;
          set(raw === '' ? undefined : Number(raw));
        }}
      />
    );
  }
  if (type === 'array') {
    const items = Array.isArray(value) ? value : [];
    const itemType = schema.items ? schemaType(schema.items) : undefined;
    if (itemType !== undefined && itemType !== 'string') {
      return <p className="text-xs text-slate-500">{name}: a list of {itemType}s — edit it in the Values editor.</p>;
    }
    return <ListField name={name} items={items.map(String)} required={required} hint={hint} error={error} onChange={set} />;
  }
  return (
    <Field
      label={name}
      {...common}
      type={schema.format === 'uri' ? 'url' : 'text'}
      placeholder={typeof schema.default === 'string' && schema.default !== '' ? schema.default : undefined}
      value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
      onChange={(event) => set(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}

function CheckboxField({ name, checked, hint, error, onChange }: { name: string; checked: boolean; hint: string | undefined; error: string | undefined; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <div className="flex items-center gap-2">
        <input id={id} type="checkbox" className="size-4" checked={checked} onChange={(event) => onChange(event.target.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {name}
        </label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="pl-6 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? <p className="pl-6 text-xs text-red-600">{error}</p> : null}
    </div>
  );
}

function EnumField({
  name,
  required,
  options,
  value,
  hint,
  error,
  onChange,
}: {
  name: string;
  required: boolean;
  options: string[];
  value: string | undefined;
  hint: string | undefined;
  error: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {name}
        </label>
        {required ? (
          <span aria-hidden="true" className="text-sm text-red-600">
            *
          </span>
        ) : null}
      </div>
      <select
        id={id}
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value === '' && !options.includes('') ? undefined : event.target.value)}
        className={cn('h-9 rounded-md border border-slate-300 bg-white px-2 text-sm', error && 'border-red-500')}
      >
        {options.includes('') ? null : <option value="">(not set)</option>}
        {options.map((option) => (
          <option key={option} value={option}>
            {option === '' ? '(empty)' : option}
          </option>
        ))}
      </select>
      {error ? <p className="text-xs text-red-600">{error}</p> : hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

function listOf(text: string): string[] {
  return text.split('\n').map((line) => line.trim()).filter(Boolean);
}

/** A list of texts, one per line; the text typed stays as typed while it means the same list. */
function ListField({ name, items, required, hint, error, onChange }: { name: string; items: string[]; required: boolean; hint: string | undefined; error: string | undefined; onChange: (value: string[] | undefined) => void }) {
  const joined = items.join('\n');
  const [text, setText] = useState(joined);
  // The Values editor changed the list: show its items.
  if (listOf(text).join('\n') !== joined) setText(joined);
  return (
    <TextAreaField
      label={name}
      markRequired={required}
      {...(error ? { error } : {})}
      hint={`${hint ? `${hint}. ` : ''}One per line`}
      rows={2}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const list = listOf(event.target.value);
        onChange(list.length > 0 ? list : undefined);
      }}
    />
  );
}
