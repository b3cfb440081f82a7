import { useState } from 'react';
import { RESOURCE_SCHEDULE_OPTIONS } from '@common/constants';
import { Field } from '@web/ui/primitives/field';
import { Select, type SelectOption } from '@web/ui/primitives/select';

/** The select's value for a schedule written by hand. */
export const CUSTOM_SCHEDULE = 'custom';

/** Spec §9 resource schedule options, then a custom value (a cron line, another @every, @never…). */
export const SCHEDULE_OPTIONS: readonly SelectOption<string>[] = [
  ...RESOURCE_SCHEDULE_OPTIONS.map((value) => ({ value, label: value })),
  { value: CUSTOM_SCHEDULE, label: 'Custom' },
];

export function isPresetSchedule(value: string): boolean {
  return RESOURCE_SCHEDULE_OPTIONS.some((option) => option === value);
}

export interface ScheduleFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  disabled: boolean;
  error?: string | undefined;
}

/** The canary's schedule: a preset, or a custom value typed in. */
export function ScheduleField({ value, onChange, onBlur, disabled, error }: ScheduleFieldProps) {
  // Custom stays open after the person chose it, even while what they type matches a preset.
  const [custom, setCustom] = useState(() => !isPresetSchedule(value));
  const selected = custom || !isPresetSchedule(value) ? CUSTOM_SCHEDULE : value;
  return (
    <div className="flex flex-col gap-2">
      {disabled ? (
        <Field label="Schedule" value={value} disabled readOnly />
      ) : (
        <Select
          label="Schedule"
          value={selected}
          options={SCHEDULE_OPTIONS}
          onValueChange={(next) => {
            setCustom(next === CUSTOM_SCHEDULE);
            if (next !== CUSTOM_SCHEDULE) onChange(next);
            onBlur();
          }}
        />
      )}
      {!disabled && selected === CUSTOM_SCHEDULE ? (
        <Field
          label="Custom schedule"
          value={value}
          placeholder="e.g. */10 * * * * or @every 2m"
          hint="A cron line or @every <duration>; blank runs it only on demand (Run Now)"
          error={error}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
      ) : error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
