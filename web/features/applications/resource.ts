import { AppWindow } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { restResourceApi } from '@web/features/settings/resources/rest-api';

const SPEC_PLACEHOLDER = `type: Service
description: Card payments API
mapping:
  environments:
    Production:
      - types: [Kubernetes::Deployment]
        labelSelector: app=payments
  logins:
    - types: [Azure::EnterpriseApplication]
      name: Payments`;

const environments = (spec: unknown): string => {
  if (!spec || typeof spec !== 'object') return '';
  const mapping: unknown = Reflect.get(spec, 'mapping');
  const envs: unknown = mapping && typeof mapping === 'object' ? Reflect.get(mapping, 'environments') : undefined;
  return envs && typeof envs === 'object' ? Object.keys(envs).sort().join(', ') : '';
};

/**
 * Settings → Applications (the generic resource pages, spec §2): the Application specs made in the console
 * or applied from files, each opening its audit report at /applications/{namespace}/{name}. Written through
 * /api/applications, which checks the whole spec (docs/APPLICATIONS.md).
 */
export const applicationsResource: SettingsResource = {
  table: 'applications',
  label: 'Applications',
  singular: 'Application',
  icon: AppWindow,
  feature: 'applications',
  access: { read: 'views', write: 'views' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'namespace', header: 'Namespace' },
    { key: 'type', header: 'Type' },
    { key: 'spec', header: 'Environments', value: (row) => environments(row.spec) },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'updated_at', header: 'Updated', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true, placeholder: 'e.g. payments' },
    { name: 'namespace', label: 'Namespace', immutable: true, defaultValue: 'default', placeholder: 'default' },
    { name: 'labels', label: 'Labels', kind: 'pairs' },
    {
      name: 'spec',
      label: 'Spec',
      kind: 'code',
      required: true,
      placeholder: SPEC_PLACEHOLDER,
      hint: 'type, description, properties, mapping (environments, logins, roles, accessReviews, datasources: catalog selectors) and sections (views) — docs/APPLICATIONS.md',
    },
  ],
  api: restResourceApi('/api/applications'),
};
