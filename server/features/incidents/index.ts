import type { Feature } from '../index';
import { incidentApi } from './api';

/**
 * Incidents (spec §1, §2 /incidents, §3 Incident, Hypothesis, Evidence, Comment): the tables are read and
 * written through /api/db (server/postgrest/relations/incidents.ts) with the timeline kept by triggers
 * (migration 0012); Attach as Evidence is one call here.
 */
export const incidentsFeature: Feature = {
  name: 'incidents',
  register(app, ctx) {
    incidentApi(app, ctx);
  },
};
