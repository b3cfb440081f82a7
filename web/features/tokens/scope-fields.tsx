import { TOKEN_OBJECTS, TOKEN_PRESETS, tokenActionsOf, type TokenObject, type TokenPreset } from '@common/rbac';
import { RadioGroup } from '@web/ui/primitives/radio-group';
import { Select } from '@web/ui/primitives/select';
import { actionsOn, grantedText, levelOf, levelsOf, type ObjectActions } from './scopes';

const OBJECT_LABELS: Record<TokenObject, string> = {
  mcp: 'MCP',
  canaries: 'Canaries',
  catalog: 'Catalog',
  application: 'Applications',
  playbooks: 'Playbooks',
  notification: 'Notifications',
};

const PRESET_HINTS: Record<TokenPreset, string> = {
  Read: 'Read everything, and use MCP.',
  Write: 'Read and create everything, and use MCP.',
  Admin: 'Every action, playbook runs and approvals included.',
  Custom: 'Choose a level per object below.',
};

/**
 * The select's value when the flags are a mixture no level names: the Admin preset's playbooks (every
 * action, update included, which Write lacks) read 'All actions', anything else 'Mixed'.
 */
const MIXED = 'Mixed';

export interface ScopeFieldsProps {
  preset: TokenPreset;
  objectActions: ObjectActions;
  onPresetChange: (preset: TokenPreset) => void;
  onLevelChange: (object: TokenObject, level: string) => void;
  error?: string;
}

/** Spec §4 token scopes: a preset, then one level per object (playbooks and MCP have their own lists). */
export function ScopeFields({ preset, objectActions, onPresetChange, onLevelChange, error }: ScopeFieldsProps) {
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="sr-only">Scopes</legend>
      <RadioGroup
        label="Scope preset"
        value={preset}
        options={TOKEN_PRESETS.map((value) => ({ value, label: value, hint: PRESET_HINTS[value] }))}
        hints="description"
        onValueChange={onPresetChange}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {TOKEN_OBJECTS.map((object) => {
          const level = levelOf(objectActions, object);
          const options = Object.keys(levelsOf(object)).map((value) => ({ value, label: value }));
          const granted = actionsOn(objectActions, object);
          const mixedLabel = granted.length === tokenActionsOf(object).length ? 'All actions' : MIXED;
          return (
            <div key={object} className="flex flex-col gap-1">
              <Select
                label={OBJECT_LABELS[object]}
                value={level ?? MIXED}
                options={level ? options : [...options, { value: MIXED, label: mixedLabel }]}
                onValueChange={(next) => {
                  if (next !== MIXED) onLevelChange(object, next);
                }}
              />
              <p className="text-xs text-slate-500">{grantedText(object, granted)}</p>
            </div>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
