import { applicationsResource } from '@web/features/applications/resource';
import { canariesResource } from '@web/features/canaries/resource';
import { configMapsResource, secretsResource } from '@web/features/connections/secrets/resource';
import { incidentRulesResource } from '@web/features/incident-rules/resource';
import { logBackendsResource } from '@web/features/log-backends/resource';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { teamsResource } from '@web/features/teams/resource';
import { topologiesResource } from '@web/features/topologies/resource';

/**
 * The tables edited through the generic settings pages (spec §2), one entry per feature that owns one.
 * Assembled here, where the app is composed: the settings route module gives each its pages and menu
 * entry, and web/app/providers.tsx gives the generic pages this list. Each feature imports only the leaf types
 * module (web/features/settings/resources/types.ts), so no feature imports the registry back. Scrapers
 * are not generic (spec §2), they live under /catalog/scrapers.
 */
export const settingsResources: readonly SettingsResource[] = [teamsResource, canariesResource, topologiesResource, incidentRulesResource, logBackendsResource, secretsResource, configMapsResource, applicationsResource];
