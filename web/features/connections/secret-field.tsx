import { KeyRound } from 'lucide-react';
import { useId } from 'react';
import type { ConnectionField } from '@common/connections';
import { Badge } from '@web/ui/primitives/badge';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { emptySecret, type SecretMode, type SecretValue } from './form';
import type { SecretSummary } from './schema';

const MODES: ReadonlyArray<{ value: SecretMode; label: string }> = [
  { value: 'static', label: 'Value' },
  { value: 'secret', label: 'Secret' },
  { value: 'configmap', label: 'Config map' },
];

const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

export interface SecretFieldProps {
  field: ConnectionField;
  value: SecretValue;
  onChange: (value: SecretValue) => void;
  disabled: boolean;
  error: string | undefined;
  /** Secrets and config maps of the connection's namespace, offered as names and keys. */
  targets: { secret: readonly SecretSummary[]; configmap: readonly SecretSummary[] } | undefined;
  /** A static value is stored: after "Change", the stored value can still be kept. */
  stored: boolean;
}

/**
 * A secret-valued field (spec §3): a static value (a password input; once stored it is never shown again,
 * only said to be set), or a reference to a key of a secret or a config map, written `secret://name/key`.
 */
export function SecretField({ field, value, onChange, disabled, error, targets, stored }: SecretFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = error ? true : undefined;
  const describedBy = error ? errorId : field.hint ? hintId : undefined;
  const multiline = field.target === 'certificate';
  const pool = value.mode === 'static' ? [] : (targets?.[value.mode] ?? []);
  const keys = pool.find((item) => item.name === value.refName.trim())?.keys ?? [];
  const kind = value.mode === 'secret' ? 'Secret' : 'Config map';

  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={describedBy}>
      <legend className="mb-1 flex items-baseline gap-0.5 text-sm font-medium text-slate-700">
        {field.label}
        {field.required ? (
          <span aria-hidden="true" className="text-sm text-red-600">
            *
          </span>
        ) : null}
      </legend>
      {value.kept ? (
        <div className="flex items-center gap-3">
          <Badge tone="success">
            <KeyRound className="size-3" aria-hidden="true" />
            <span>Set</span>
          </Badge>
          <span className="text-xs text-slate-500">A value is stored; it is never shown again.</span>
          {disabled ? null : (
            <Button size="sm" aria-label={`Change ${field.label}`} onClick={() => onChange(emptySecret())}>
              Change
            </Button>
          )}
        </div>
      ) : (
        <>
          <div className="flex items-center gap-3">
          <div role="radiogroup" aria-label={`${field.label} from`} className="flex w-fit overflow-hidden rounded-md border border-slate-300 text-xs">
            {MODES.map((mode) => (
              <label
                key={mode.value}
                className={cn(
                  'cursor-pointer px-2.5 py-1 font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600',
                  value.mode === mode.value ? 'bg-blue-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50',
                  disabled && 'cursor-default opacity-60',
                )}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name={`${id}-mode`}
                  value={mode.value}
                  checked={value.mode === mode.value}
                  disabled={disabled}
                  onChange={() => onChange({ ...value, mode: mode.value })}
                />
                {mode.label}
              </label>
            ))}
          </div>
          {stored && !disabled ? (
            <Button size="sm" variant="ghost" onClick={() => onChange({ ...emptySecret(), kept: true })}>
              Keep the stored value
            </Button>
          ) : null}
          </div>
          {value.mode === 'static' ? (
            multiline ? (
              <textarea
                aria-label={field.label}
                rows={6}
                spellCheck={false}
                autoComplete="off"
                className={cn(inputClass, 'font-mono text-xs')}
                value={value.text}
                disabled={disabled}
                placeholder={disabled ? undefined : field.placeholder}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(event) => onChange({ ...value, text: event.target.value })}
              />
            ) : (
              <input
                type="password"
                aria-label={field.label}
                autoComplete="new-password"
                className={inputClass}
                value={value.text}
                disabled={disabled}
                placeholder={disabled ? undefined : field.placeholder}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(event) => onChange({ ...value, text: event.target.value })}
              />
            )
          ) : (
            <div className="grid grid-cols-2 gap-2">
              <input
                aria-label={`${field.label} ${kind.toLowerCase()} name`}
                list={`${id}-names`}
                className={inputClass}
                value={value.refName}
                disabled={disabled}
                placeholder={`${kind} name`}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(event) => onChange({ ...value, refName: event.target.value })}
              />
              <input
                aria-label={`${field.label} ${kind.toLowerCase()} key`}
                list={`${id}-keys`}
                className={inputClass}
                value={value.refKey}
                disabled={disabled}
                placeholder="Key"
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(event) => onChange({ ...value, refKey: event.target.value })}
              />
              <datalist id={`${id}-names`}>
                {pool.map((item) => (
                  <option key={`${item.namespace}/${item.name}`} value={item.name} />
                ))}
              </datalist>
              <datalist id={`${id}-keys`}>
                {keys.map((key) => (
                  <option key={key} value={key} />
                ))}
              </datalist>
            </div>
          )}
        </>
      )}
      {field.hint && !error ? (
        <p id={hintId} className="text-xs text-slate-500">
          {field.hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
