import { restResourceApi } from '@web/features/settings/resources/rest-api';

/** Topologies are written only through /api/canary/topologies (docs/TOPOLOGY.md). */
export const topologyApi = restResourceApi('/api/canary/topologies');
