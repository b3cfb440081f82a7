import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Authenticator, RouteAccess } from './auth/types';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { PostgrestHooks } from '../postgrest/hooks';
import type { KubeKind } from './kube-kinds';
import type { ResourceKind } from './resources';

/** What every feature gets when it registers its routes and workers. */
export interface AppContext {
  config: Config;
  pool: pg.Pool;
  log: Logger;
  metrics: Metrics;
  /** Extra OpenAPI paths for routes not declared through `route()` (for example /api/db). */
  openApiPaths: Record<string, unknown>;
  /** Who is calling: sessions and API tokens (the identity feature provides it). */
  auth: Authenticator;
  /** Every route of the app with the access it declares (tests check that none is left undeclared). */
  routes: Array<{ method: string; url: string; access: RouteAccess | undefined }>;
}

/** A feature area: registers its routes (under `prefix`) and, when the server runs workers, its jobs. */
export interface Feature {
  name: string;
  prefix?: string;
  register(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
  /** The declarative kinds this feature accepts from `watchkeeper apply` and the API. */
  kinds?: ResourceKind[];
  /** Those of its kinds the Kubernetes-style API serves (docs/KUBECTL.md); the app hands them to the kube feature. */
  kubeKinds?: KubeKind[];
  /** Starts the feature's background workers in `serve`; the returned function stops them. */
  start?(ctx: AppContext): Promise<() => Promise<void>>;
  /** `serve --demo`: adds the feature's demo data (idempotent, on every start); answers what it added. */
  demo?(ctx: AppContext): Promise<string>;
  /** What the feature adds to /api/db (write hooks, row scopes); the app registers them when it composes. */
  postgrestHooks?: PostgrestHooks;
}
