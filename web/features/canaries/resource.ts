import { HeartPulse } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { canaryApi } from './api';
import { countChecks } from './model/spec-fields';

/**
 * Spec "Job history" and docs/HEALTH.md: scheduled runs are recorded only when they had problems (a run
 * that ends other than SUCCESS), so an empty tab is the usual case and says why.
 */
export const CANARY_JOB_HISTORY_EMPTY =
  "No job runs recorded: a health check's scheduled runs are recorded only when they had problems (a check that could not run); runs in which every check ran, passing or failing, are not. Check results are kept in each check's history.";

/**
 * Health checks as a generic settings resource (spec §2 "Health Check (canaries)", §3 Canary). The list
 * reads /api/db/canaries; the editor (type picker, Form and Code) is the feature's own and saves through
 * /api/canary/canaries. Reading needs canaries:read, each change its action on canaries (spec §6).
 */
export const canariesResource: SettingsResource = {
  table: 'canaries',
  label: 'Health Checks',
  singular: 'Health Check',
  icon: HeartPulse,
  feature: 'settings.health',
  access: { read: 'canaries', write: 'canaries' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'namespace', header: 'Namespace' },
    { key: 'schedule', header: 'Schedule' },
    { key: 'checks', header: 'Checks', value: (row) => String(countChecks(row.spec)) },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'agent_id', header: 'Agent', kind: 'agent' },
    { key: 'last_run_at', header: 'Last Run', kind: 'date' },
    { key: 'created_at', header: 'Created', kind: 'date' },
  ],
  fields: [],
  editor: () => import('./editor/canary-editor'),
  api: canaryApi,
  jobHistory: { resourceType: 'canary', emptyText: CANARY_JOB_HISTORY_EMPTY },
  deletedToast: 'resource',
};
