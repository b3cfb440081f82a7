import { Network } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { topologyApi } from './api';

const SPEC_PLACEHOLDER = `schedule: "@every 5m"
type: Application
components:
  - name: web
    lookup:
      configs:
        - type: Kubernetes::Pod
          namespace: shop`;

/**
 * Topologies as a generic settings resource (spec §2 Topology form: Name, Namespace, Labels, Spec as
 * YAML; §3 Topology). The list reads /api/db/topologies (with the component count); saves go through
 * /api/canary/topologies, which checks the whole spec. Reading needs topologies:read, changes write.
 */
export const topologiesResource: SettingsResource = {
  table: 'topologies',
  label: 'Topologies',
  singular: 'Topology',
  icon: Network,
  feature: 'settings.topology',
  access: { read: 'topologies', write: 'topologies' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'namespace', header: 'Namespace' },
    { key: 'components', header: 'Components' },
    { key: 'schedule', header: 'Schedule' },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'agent_id', header: 'Agent', kind: 'agent' },
    { key: 'last_run_at', header: 'Last Run', kind: 'date' },
    { key: 'updated_at', header: 'Updated', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true, placeholder: 'e.g. shop' },
    { name: 'namespace', label: 'Namespace', immutable: true, defaultValue: 'default', placeholder: 'default' },
    { name: 'labels', label: 'Labels', kind: 'pairs' },
    { name: 'spec', label: 'Spec', kind: 'code', required: true, placeholder: SPEC_PLACEHOLDER, hint: 'The Topology spec as YAML (docs/TOPOLOGY.md): components, properties, lookups, schedule' },
  ],
  api: topologyApi,
  jobHistory: { resourceType: 'topology', emptyText: 'No runs recorded yet: a topology runs when it is saved, on its schedule and on Run Now.' },
  tabs: [{ id: 'code', label: 'Code', load: () => import('./code-tab') }],
};
