import type { Feature } from '../platform/context';
import { postgrestFeature } from '../postgrest/feature';
import { agentsFeature } from './agents';
import { agentFeature } from './agents';
import { applicationsFeature } from './applications';
import { artifactsFeature } from './artifacts';
import { catalogFeature } from './catalog';
import { connectionsFeature } from './connections';
import { docsFeature } from './docs';
import { healthFeature } from './health';
import { identityFeature } from './identity';
import { incidentsFeature } from './incidents';
import { integrationsFeature } from './integrations';
import { kubeFeature } from './kube';
import { logsFeature } from './logs';
import { mcpFeature } from './mcp';
import { notificationsFeature } from './notifications';
import { organizationsAdminFeature } from './organizations-admin';
import { platformInfoFeature } from './platform-info';
import { playbooksFeature } from './playbooks';
import { pluginsFeature } from './plugins';
import { topologyFeature } from './topology';
import { viewsFeature } from './views';
import { platformJobsFeature } from '../platform/jobs/feature';

/** Every feature of the server, in registration order. Adding an area is one line here. */
export const features: Feature[] = [identityFeature, organizationsAdminFeature, postgrestFeature, platformInfoFeature, docsFeature, connectionsFeature, healthFeature, artifactsFeature, catalogFeature, topologyFeature, incidentsFeature, logsFeature, notificationsFeature, playbooksFeature, viewsFeature, applicationsFeature, integrationsFeature, pluginsFeature, agentsFeature, agentFeature, mcpFeature, kubeFeature, platformJobsFeature];
