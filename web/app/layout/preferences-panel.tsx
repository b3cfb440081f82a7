import { CARD_WIDTH, DATE_FORMATS, type DateFormat } from '@common/constants';
import { formatDate, listTimeZones } from '@common/format/date';
import { useMemo } from 'react';
import { usePreferences } from '@web/lib/preferences';
import { RadioGroup } from '@web/ui/primitives/radio-group';
import { Select } from '@web/ui/primitives/select';
import { Slider } from '@web/ui/primitives/slider';
import { Switch } from '@web/ui/primitives/switch';

const FORMAT_LABELS: Record<DateFormat, string> = { short: 'Short', medium: 'Medium', full: 'Full', timestamp: 'Timestamp' };

/** The five preferences of spec §2 (loaded when the gear menu first opens). */
export default function PreferencesPanel() {
  const preferences = usePreferences();
  const { set } = preferences;
  // Computed when the panel opens: about 400 zones, each with its current offset.
  const zones = useMemo(() => listTimeZones().map((zone) => ({ value: zone.value, label: zone.label })), []);
  const now = useMemo(() => new Date(), []);
  const formatOptions = DATE_FORMATS.map((format) => ({
    value: format,
    label: FORMAT_LABELS[format],
    hint: format === 'short' ? 'age, e.g. 5m' : formatDate(now, format, preferences.timeZone),
  }));
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-sm font-semibold text-slate-900">Preferences</h2>
      <div className="flex flex-col gap-3">
        <Switch label="Show hidden components" checked={preferences.showHiddenComponents} onCheckedChange={preferences.setShowHiddenComponents} />
        <Switch label="Show deleted configs" checked={preferences.showDeletedConfigs} onCheckedChange={(value) => set('showDeletedConfigs', value)} />
      </div>
      <hr className="border-slate-200" />
      <Slider
        label="Card Width"
        value={preferences.cardWidth}
        min={CARD_WIDTH.min}
        max={CARD_WIDTH.max}
        step={CARD_WIDTH.step}
        onValueChange={(value) => set('cardWidth', value)}
        format={(value) => `${value}px`}
      />
      <hr className="border-slate-200" />
      <RadioGroup label="Date/Time Format" value={preferences.dateFormat} options={formatOptions} onValueChange={(value) => set('dateFormat', value)} />
      <Select label="Timezone" value={preferences.timeZone} options={zones} onValueChange={(value) => set('timeZone', value)} />
    </div>
  );
}
