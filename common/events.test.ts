import { describe, expect, it } from 'vitest';
import { INCIDENT_STATUSES } from './incidents';
import { EVENT_DESCRIPTIONS, EVENT_NAMES, expandEvent, healthEvent, isKnownEvent, PLAYBOOK_EVENT_NAMES } from './events';

describe('event names', () => {
  it('accepts published and playbook events, and families written with .*', () => {
    for (const name of ['check.failed', 'config.unhealthy', 'component.warning', 'incident.status.resolved', 'incident.dod.passed', 'playbook.run.failed']) expect(isKnownEvent(name)).toBe(true);
    for (const name of ['incident.status.*', 'incident.dod.*', 'incident.dod.evidence.*', 'config.*', 'incident.*', 'playbook.*']) expect(isKnownEvent(name)).toBe(true);
    for (const name of ['check.flapping', 'config.degraded', 'incident.status.cancelled', '*', 'incident.status', 'config.unhealthy.*', 'nope.*', '']) expect(isKnownEvent(name)).toBe(false);
  });

  it('has an incident.status event for every incident status, and a description for every event', () => {
    expect(INCIDENT_STATUSES.map((status) => `incident.status.${status}`).every((name) => (EVENT_NAMES as readonly string[]).includes(name))).toBe(true);
    expect(Object.keys(EVENT_DESCRIPTIONS).sort()).toEqual([...EVENT_NAMES].sort());
    expect(PLAYBOOK_EVENT_NAMES.some((name) => (EVENT_NAMES as readonly string[]).includes(name))).toBe(false);
  });

  it('expands families and maps healths', () => {
    expect(expandEvent('incident.dod.*')).toEqual(['incident.dod.evidence.added', 'incident.dod.evidence.removed', 'incident.dod.passed', 'incident.dod.regressed']);
    expect(expandEvent('check.failed')).toEqual(['check.failed']);
    expect(healthEvent('config', 'warning')).toBe('config.warning');
    expect(healthEvent('component', null)).toBeUndefined();
    expect(healthEvent('config', 'degraded')).toBeUndefined();
  });
});
