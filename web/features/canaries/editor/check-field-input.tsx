import { useController, type Control } from 'react-hook-form';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import type { CheckField, FormFieldValue } from '../model/check-forms';
import type { CanaryFormValues } from '../model/form-values';
import { PairsInput, type Pair } from './pairs-input';

function asText(value: FormFieldValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

function asTexts(value: FormFieldValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function asPairs(value: FormFieldValue | undefined): Pair[] {
  return Array.isArray(value) ? value.filter((item): item is Pair => typeof item !== 'string') : [];
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
  const { field: input, fieldState, formState } = useController({ control, name: `checks.${index}.fields.${field.name}` });
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
