import type { FunctionDef, RelationDef } from '../registry';
import { applicationRelations } from './applications';
import { artifactRelations } from './artifacts';
import { catalogFunctions, catalogRelations } from './catalog';
import { connectionRelations } from './connections';
import { healthFunctions, healthRelations } from './health';
import { identityRelations } from './identity';
import { incidentRelations } from './incidents';
import { integrationRelations } from './integrations';
import { logRelations } from './logs';
import { notificationRelations } from './notifications';
import { platformRelations } from './platform';
import { playbookFunctions, playbookRelations } from './playbooks';
import { topologyRelations } from './topology';
import { viewRelations } from './views';

/** Everything /api/db serves. A feature exposes its tables, views and functions by adding one line here. */
export const relations: RelationDef[] = [...platformRelations, ...identityRelations, ...healthRelations, ...artifactRelations, ...catalogRelations, ...topologyRelations, ...incidentRelations, ...logRelations, ...connectionRelations, ...notificationRelations, ...playbookRelations, ...viewRelations, ...applicationRelations, ...integrationRelations];

export const functions: FunctionDef[] = [...healthFunctions, ...catalogFunctions, ...playbookFunctions];
