import { useMemo, useState } from 'react';
import { RESOURCE_SCHEDULE_OPTIONS } from '@common/constants';
import { Field } from '@web/ui/primitives/field';
import { Select, type SelectOption } from '@web/ui/primitives/select';

/** The select's value for a schedule written by hand. */
export const CUSTOM_SCHEDULE = 'custom';

/** The presets, then a custom value (a cron line, another @every, @never…). */
export function scheduleOptions(presets: readonly string[]): readonly SelectOption<string>[] {
  return [...presets.map((value) => ({ value, label: value })), { value: CUSTOM_SCHEDULE, label: 'Custom' }];
}

/** Spec §9 resource schedule options, then a custom value. */
export const SCHEDULE_OPTIONS: readonly SelectOption<string>[] = scheduleOptions(RESOURCE_SCHEDULE_OPTIONS);

export function isPresetSchedule(value: string, presets: readonly string[] = RESOURCE_SCHEDULE_OPTIONS): boolean {
  return presets.some((option) => option === value);
}

const CANARY_SCHEDULE_HINT = 'A cron line or @every <duration>; blank runs it only on demand (Run Now)';

export interface ScheduleFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  disabled: boolean;
  error?: string | undefined;
  /** The presets offered (spec §9); the resource schedule options by default, scrapers have their own. */
  presets?: readonly string[];
  /** What a custom value may be, and what a blank one means. */
  hint?: string;
}

/** A resource's schedule: a preset, or a custom value typed in. */
export function ScheduleField({ value, onChange, onBlur, disabled, error, presets = RESOURCE_SCHEDULE_OPTIONS, hint = CANARY_SCHEDULE_HINT }: ScheduleFieldProps) {
  // Custom stays open after the person chose it, even while what they type matches a preset.
  const [custom, setCustom] = useState(() => !isPresetSchedule(value, presets));
  const selected = custom || !isPresetSchedule(value, presets) ? CUSTOM_SCHEDULE : value;
  const options = useMemo(() => scheduleOptions(presets), [presets]);
  return (
    <div className="flex flex-col gap-2">
      {disabled ? (
        <Field label="Schedule" value={value} disabled readOnly />
      ) : (
        <Select
          label="Schedule"
          value={selected}
          options={options}
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
          hint={hint}
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
