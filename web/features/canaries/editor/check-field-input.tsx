import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import type { CheckField } from '../model/check-forms';
import type { CanaryFormValues } from '../model/form-values';
import { PairsInput, type Pair } from './pairs-input';

function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function asTexts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isPair(item: unknown): item is Pair {
  return typeof item === 'object' && item !== null && typeof Reflect.get(item, 'name') === 'string' && typeof Reflect.get(item, 'value') === 'string';
}

function asPairs(value: unknown): Pair[] {
  return Array.isArray(value) ? value.filter(isPair) : [];
}

export interface CheckFieldInputProps {
  control: Control<CanaryFormValues>;
  index: number;
  field: CheckField;
  disabled: boolean;
  /** The server's live message for this field, shown once the field is touched (spec §5). */
  live: string | undefined;
}

/** One field of a check's form, by its kind (check-forms.ts). */
export function CheckFieldInput({ control, index, field, disabled, live }: CheckFieldInputProps) {
  return <SpecFieldInput control={control} name={`checks.${index}.fields.${field.name}`} field={field} disabled={disabled} live={live} />;
}

export interface SpecFieldInputProps<T extends FieldValues> {
  control: Control<T>;
  /** The form path of the value (a check's field, a scraper entry's field). */
  name: Path<T>;
  field: CheckField;
  disabled: boolean;
  /** The server's live message for this field, shown once the field is touched (spec §5). */
  live: string | undefined;
}

/** One declared field of a spec form, by its kind (check-forms.ts): health checks and scraper entries alike. */
export function SpecFieldInput<T extends FieldValues>({ control, name, field, disabled, live }: SpecFieldInputProps<T>) {
  const { field: input, fieldState, formState } = useController({ control, name });
  const error = fieldState.error?.message ?? (fieldState.isTouched || formState.isSubmitted ? live : undefined);
  const common = { label: field.label, hint: field.hint, error, disabled, required: field.required, markRequired: field.required, placeholder: disabled ? undefined : field.placeholder };
  switch (field.kind) {
    case 'select':
      return disabled ? (
        <Field {...common} value={asText(input.value)} readOnly />
      ) : (
        <Select
          label={field.label}
          value={asText(input.value)}
          options={(field.options ?? []).map((option) => ({ value: option, label: option }))}
          onValueChange={(value) => {
            input.onChange(value);
            input.onBlur();
          }}
        />
      );
    case 'codes': {
      const selected = asTexts(input.value);
      // Codes written by hand that the form does not offer stay listed, so they can be unticked.
      const options = [...(field.options ?? []), ...selected.filter((code) => !(field.options ?? []).includes(code))];
      return (
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-700">{field.label}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {options.map((code) => (
              <label key={code} className="flex items-center gap-1.5 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 accent-blue-600"
                  checked={selected.includes(code)}
                  disabled={disabled}
                  onChange={(event) => input.onChange(event.target.checked ? [...selected, code] : selected.filter((item) => item !== code))}
                  onBlur={input.onBlur}
                />
                {code}
              </label>
            ))}
          </div>
          {field.hint ? <p className="text-xs text-slate-500">{field.hint}</p> : null}
        </fieldset>
      );
    }
    case 'pairs':
      return <PairsInput label={field.label} item={field.name === 'headers' ? 'Header' : 'Variable'} keyLabel="Name" value={asPairs(input.value)} onChange={input.onChange} onBlur={input.onBlur} disabled={disabled} />;
    case 'textarea':
    case 'lines':
      return (
        <TextAreaField
          {...common}
          rows={field.kind === 'lines' ? 3 : 5}
          monospace={field.monospace}
          spellCheck={false}
          name={input.name}
          ref={input.ref}
          value={asText(input.value)}
          onChange={(event) => input.onChange(event.target.value)}
          onBlur={input.onBlur}
        />
      );
    default:
      return (
        <Field
          {...common}
          type={field.masked ? 'password' : 'text'}
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
          autoComplete={field.masked ? 'new-password' : 'off'}
          name={input.name}
          ref={input.ref}
          value={asText(input.value)}
          onChange={(event) => input.onChange(event.target.value)}
          onBlur={input.onBlur}
        />
      );
  }
}
