import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from './cn';

const controlClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

interface FieldFrameProps {
  label: string;
  /** Marks the label of a required field (a visual mark; the control's `required` tells screen readers). */
  markRequired?: boolean | undefined;
  error?: string;
  hint?: string;
  className?: string;
  /** Renders the control with the id and ARIA attributes that tie it to the label, hint and error. */
  children: (control: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }) => ReactNode;
}

/** Label, control, then the hint or (once there is one) the error, which screen readers announce. */
function FieldFrame({ label, markRequired, error, hint, className, children }: FieldFrameProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const showHint = Boolean(hint) && !error;
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
        {/* Outside the label, so the field's name stays its label alone. */}
        {markRequired ? (
          <span aria-hidden="true" className="text-sm text-red-600">
            *
          </span>
        ) : null}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : showHint ? hintId : undefined })}
      {showHint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface FieldTextProps {
  label: string;
  /** Shows a required mark after the label (forms that mark their required fields, spec §3). */
  markRequired?: boolean | undefined;
  error?: string;
  hint?: string;
}

export interface FieldProps extends FieldTextProps, Omit<ComponentProps<'input'>, 'id'> {}

/** A labelled text input with its hint or error message (react-hook-form's `register()` spreads onto it). */
export function Field({ label, markRequired, error, hint, className, ...input }: FieldProps) {
  return (
    <FieldFrame label={label} markRequired={markRequired} error={error} hint={hint} className={className}>
      {(control) => <input {...control} className={controlClass} {...input} />}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends FieldTextProps, Omit<ComponentProps<'textarea'>, 'id'> {
  /** Monospaced text, for code such as JSON or YAML. */
  monospace?: boolean;
}

/** The multi-line form of `Field`. */
export function TextAreaField({ label, markRequired, error, hint, className, monospace, rows = 8, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} markRequired={markRequired} error={error} hint={hint} className={className}>
      {(control) => <textarea {...control} rows={rows} className={cn(controlClass, monospace && 'font-mono text-xs')} {...textarea} />}
    </FieldFrame>
  );
}
