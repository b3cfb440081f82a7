import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app';
import type { ResourceKind } from '../platform/resources';
import { postgrestFeature } from '../postgrest/feature';
import { catalogFeature } from './catalog';
import { docsFeature } from './docs';
import { healthFeature } from './health';
import { identityFeature } from './identity';
import { incidentsFeature } from './incidents';
import { logsFeature } from './logs';
import { platformInfoFeature } from './platform-info';
import { topologyFeature } from './topology';
import { platformJobsFeature } from '../platform/jobs/feature';

/** A feature area: registers its routes (under `prefix`) and, when the server runs workers, its jobs. */
export interface Feature {
  name: string;
  prefix?: string;
  register(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
  /** The declarative kinds this feature accepts from `watchkeeper apply` and the API. */
  kinds?: ResourceKind[];
  /** Starts the feature's background workers in `serve`; the returned function stops them. */
  start?(ctx: AppContext): Promise<() => Promise<void>>;
  /** `serve --demo`: adds the feature's demo data (idempotent, on every start); answers what it added. */
  demo?(ctx: AppContext): Promise<string>;
}

/** Every feature of the server, in registration order. Adding an area is one line here. */
export const features: Feature[] = [identityFeature, postgrestFeature, platformInfoFeature, docsFeature, healthFeature, catalogFeature, topologyFeature, incidentsFeature, logsFeature, platformJobsFeature];
