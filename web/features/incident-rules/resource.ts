import { Siren } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { restResourceApi } from '@web/features/settings/resources/rest-api';

const SPEC_PLACEHOLDER = `checks:
  - labels: {team: web}
failures: 3
template:
  title: "{{name}} is failing"
  type: availability
  severity: high`;

const watches = (spec: unknown): string => {
  if (!spec || typeof spec !== 'object') return '';
  const parts: string[] = [];
  for (const key of ['checks', 'components', 'configs'] as const) {
    const list: unknown = Reflect.get(spec, key);
    if (Array.isArray(list) && list.length > 0) parts.push(key);
  }
  return parts.join(', ');
};

/**
 * Spec §2 Generic resource editor, Rules (incident_rules): a rule opens an incident when a check keeps
 * failing or a component or config turns unhealthy. Everyone who reads incidents sees them; editors and
 * admins change them.
 */
export const incidentRulesResource: SettingsResource = {
  table: 'incident_rules',
  label: 'Incident Rules',
  singular: 'Incident Rule',
  icon: Siren,
  feature: 'settings.rules',
  access: { read: 'incident', write: 'database' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'namespace', header: 'Namespace' },
    { key: 'spec', header: 'Watches', value: (row) => watches(row.spec) },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'updated_at', header: 'Updated', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true, placeholder: 'e.g. web-checks-failing' },
    { name: 'namespace', label: 'Namespace', immutable: true, defaultValue: 'default', placeholder: 'default' },
    { name: 'labels', label: 'Labels', kind: 'pairs' },
    {
      name: 'spec',
      label: 'Spec',
      kind: 'code',
      required: true,
      placeholder: SPEC_PLACEHOLDER,
      hint: 'What to watch (checks, components or configs by name, type, namespace, labels), failures or health, and the incident template (docs/INCIDENTS.md)',
    },
  ],
  // Written through /api/incident/rules, which checks the whole spec (docs/INCIDENTS.md#rules).
  api: restResourceApi('/api/incident/rules'),
};
