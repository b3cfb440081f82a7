import { ScrollText } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { restResourceApi } from '@web/features/settings/resources/rest-api';

const SPEC_PLACEHOLDER = `files:
  - paths: ["/var/log/shop/{{name}}.log"]
    labels: {env: prod}
components:
  - type: Service
    labels: {team: shop}`;

const paths = (spec: unknown): string => {
  if (!spec || typeof spec !== 'object') return '';
  const files: unknown = Reflect.get(spec, 'files');
  if (!Array.isArray(files)) return '';
  return files
    .flatMap((entry: unknown) => {
      const list: unknown = entry && typeof entry === 'object' ? Reflect.get(entry, 'paths') : undefined;
      return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
    })
    .join(', ');
};

/**
 * Spec §2 Log backends form (logging_backends): where log lines are read from, and which topology
 * components they belong to. Spec §5: name is required.
 */
export const logBackendsResource: SettingsResource = {
  table: 'logging_backends',
  label: 'Log Backends',
  singular: 'Log Backend',
  icon: ScrollText,
  feature: 'settings.logging_backends',
  access: { read: 'logging_backends', write: 'logging_backends' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'spec', header: 'Files', value: (row) => paths(row.spec) },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'updated_at', header: 'Updated', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true, placeholder: 'e.g. shop-services' },
    { name: 'labels', label: 'Labels', kind: 'pairs' },
    {
      name: 'spec',
      label: 'Spec',
      kind: 'code',
      required: true,
      placeholder: SPEC_PLACEHOLDER,
      hint: 'files: paths or globs on the console server ({{name}} is the component name); components: which components have their logs here (docs/LOGS.md)',
    },
  ],
  // Written through /api/logs/backends, which checks the whole spec.
  api: restResourceApi('/api/logs/backends'),
};
