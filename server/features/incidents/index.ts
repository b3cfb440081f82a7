import type { Feature } from '../../platform/context';
import { backgroundWork } from '../../platform/jobs';
import { incidentApi } from './api';
import { incidentWriteHooks } from './events';
import { evaluateIncidentRules } from './rules/engine';
import { incidentRuleKind } from './rules/kind';
import { incidentRuleKubeKind } from './rules/kube-kind';

export { incidentWriteHooks } from './events';
export { evaluateIncidentRules } from './rules/engine';

/** job_history name of the rule evaluation. */
export const INCIDENT_RULES_JOB = 'Incident rules';

/**
 * Incidents (spec §1, §2 /incidents, §3 Incident, Hypothesis, Evidence, Comment): the tables are read and
 * written through /api/db (server/postgrest/relations/incidents.ts) with the timeline kept by triggers
 * (migration 0012); Attach as Evidence is one call here.
 */
export const incidentsFeature: Feature = {
  name: 'incidents',
  kinds: [incidentRuleKind],
  kubeKinds: [incidentRuleKubeKind],
  postgrestHooks: { afterWrite: incidentWriteHooks },
  register(app, ctx) {
    incidentApi(app, ctx);
    backgroundWork.job({
      name: INCIDENT_RULES_JOB,
      schedule: '@every 30s',
      description:
        'Opens an incident for each failing check, component or config an incident rule matches (one open incident per rule and resource), and closes or resolves those whose rule has autoClose or autoResolve once healthy long enough',
      run: async (run) => {
        const summary = await evaluateIncidentRules(run.pool, run.log, run.signal);
        for (const name of summary.skipped) run.warn(`incident rule ${name}: its spec no longer parses; fix it`);
        run.success(summary.opened + summary.closed);
        run.summary({ rules: summary.rules, opened: summary.opened, closed: summary.closed });
      },
    });
  },
};
