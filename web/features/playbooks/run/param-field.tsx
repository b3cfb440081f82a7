import { useId, useState } from 'react';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import type { PlaybookParam } from '../api/schema';
import { configTypes, isMultiline, listOptions, paramLabel, paramType } from '../model/params';
import { SearchPicker, type PickedOption, type PickerSource } from './search-picker';

export interface ParamFieldProps {
  param: PlaybookParam;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  /** Shown once the field is touched (spec §5). */
  error?: string | undefined;
  disabled?: boolean;
}

const HINTS: Record<string, string> = {
  bytes: 'A size in Mi, Gi or Ti, e.g. 512Mi',
  millicores: 'Millicores with an m suffix, e.g. 500m',
  dns1123: 'Lowercase letters, digits, - and .',
};

function pickerSource(param: PlaybookParam): PickerSource | undefined {
  switch (paramType(param)) {
    case 'people':
      return { kind: 'people' };
    case 'team':
      return { kind: 'team' };
    case 'config':
      return { kind: 'config', types: configTypes(param) };
    case 'component':
      return { kind: 'component' };
    case 'check':
      return { kind: 'check' };
    default:
      return undefined;
  }
}

/** A picked resource's value is its id; its name is kept here for display. */
function PickerField({ param, value, onChange, onBlur, error, source }: ParamFieldProps & { source: PickerSource }) {
  const [picked, setPicked] = useState<PickedOption | null>(value ? { id: value, name: value } : null);
  const shown = picked && picked.id === value ? picked : value ? { id: value, name: value } : null;
  return (
    <div className="flex flex-col gap-1">
      <SearchPicker
        source={source}
        label={paramLabel(param)}
        required={param.required ?? false}
        value={shown}
        onChange={(next) => {
          setPicked(next);
          onChange(next?.id ?? '');
          onBlur();
        }}
        onBlur={onBlur}
        error={error}
        invalid={Boolean(error)}
      />
      {param.description ? <p className="text-xs text-slate-500">{param.description}</p> : null}
    </div>
  );
}

/** One parameter of the Run dialog, drawn by its type (spec §5). */
export function ParamField(props: ParamFieldProps) {
  const { param, value, onChange, onBlur, error, disabled } = props;
  const id = useId();
  const type = paramType(param);
  const label = paramLabel(param);
  const required = param.required ?? false;
  const hint = param.description ?? HINTS[type];
  const source = pickerSource(param);
  if (source) return <PickerField {...props} source={source} />;
  if (type === 'checkbox') {
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input id={id} type="checkbox" checked={value === 'true'} disabled={disabled} onChange={(event) => onChange(event.target.checked ? 'true' : 'false')} onBlur={onBlur} className="size-4 rounded border-slate-300" />
          {label}
        </label>
        {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      </div>
    );
  }
  if (type === 'list') {
    const options = listOptions(param);
    const errorId = `${id}-error`;
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
          {required ? <span aria-hidden="true" className="text-red-600">*</span> : null}
        </label>
        <select
          id={id}
          value={value}
          disabled={disabled}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            onChange(event.target.value);
            onBlur();
          }}
          onBlur={onBlur}
          className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm aria-[invalid=true]:border-red-500"
        >
          <option value="">{required ? 'Choose…' : 'None'}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {hint && !error ? <p className="text-xs text-slate-500">{hint}</p> : null}
        {error ? (
          <p id={errorId} role="alert" className="text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  const common = {
    label,
    markRequired: required,
    required,
    value,
    disabled,
    ...(error ? { error } : {}),
    ...(hint ? { hint } : {}),
    onBlur,
  };
  if (type === 'code' || (type === 'text' && isMultiline(param))) {
    return <TextAreaField {...common} rows={type === 'code' ? 8 : 4} monospace={type === 'code'} onChange={(event) => onChange(event.target.value)} />;
  }
  return (
    <Field
      {...common}
      type={type === 'secret' ? 'password' : 'text'}
      inputMode={type === 'number' ? 'decimal' : undefined}
      autoComplete={type === 'secret' ? 'new-password' : 'off'}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
