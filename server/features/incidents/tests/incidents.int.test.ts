import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;
let commander: { id: string; headers: Record<string, string> };
let responder: { id: string; headers: Record<string, string> };
let viewer: { id: string; headers: Record<string, string> };
let checkId: string;
let configId: string;
let changeId: string;

beforeAll(async () => {
  t = await createTestApp();
  commander = await t.userWith(['commander'], 'commander@example.com');
  responder = await t.userWith(['responder'], 'responder@example.com');
  viewer = await t.userWith(['viewer'], 'viewer@example.com');
  const { rows } = await t.db.pool.query<{ check_id: string; config_id: string; change_id: string }>(`
    WITH canary AS (INSERT INTO canaries (name) VALUES ('shop') RETURNING id),
    chk AS (
      INSERT INTO checks (canary_id, key, type, name, status, last_runtime)
      SELECT id, 'http/api', 'http', 'api', 'unhealthy', now() FROM canary RETURNING id
    ),
    res AS (
      INSERT INTO check_statuses (check_id, time, status, duration, message, error)
      SELECT id, now() - interval '1 minute', false, 1200, 'HTTP 503', 'expected 200' FROM chk
    ),
    cfg AS (
      INSERT INTO config_items (type, name, health, status, config)
      VALUES ('Kubernetes::Deployment', 'api', 'unhealthy', 'Degraded', '{"spec": {"replicas": 3}, "password": "hunter2"}') RETURNING id
    ),
    chg AS (
      INSERT INTO config_changes (config_id, config_type, change_type, diff, summary)
      SELECT id, 'Kubernetes::Deployment', 'diff', '- replicas: 2\n+ replicas: 3', 'spec.replicas' FROM cfg RETURNING id
    )
    SELECT (SELECT id FROM chk) AS check_id, (SELECT id FROM cfg) AS config_id, (SELECT id FROM chg) AS change_id
  `);
  const row = rows[0];
  if (!row) throw new Error('fixture not created');
  ({ check_id: checkId, config_id: configId, change_id: changeId } = row);
});

afterAll(async () => {
  await t?.close();
});

async function db(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, body?: unknown) {
  const res = await t.app.inject({
    method,
    url: `/api/db/${url}`,
    headers: { ...headers, prefer: 'return=representation', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read loosely by some fifty assertions
  return { status: res.statusCode, json: (): any => JSON.parse(res.body), body: res.body };
}

async function link(headers: Record<string, string>, body: unknown) {
  const res = await t.app.inject({ method: 'POST', url: '/api/incidents/link', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read loosely by the assertions
  return { status: res.statusCode, json: (): any => JSON.parse(res.body) };
}

const timeline = async (incident: string) =>
  (await t.db.pool.query<{ type: string; description: string; created_by: string | null }>('SELECT type, description, created_by FROM incident_histories WHERE incident_id = $1 ORDER BY created_at', [incident])).rows;

describe('incidents through /api/db', () => {
  it('creates an open incident with a readable number, its creator from the session, and a timeline row', async () => {
    const res = await db('POST', 'incidents?select=id,incident_id,status,severity,type,created_by', commander.headers, { title: '  Checkout is slow ', severity: 'high', type: 'performance' });
    expect(res.status).toBe(201);
    const [incident] = res.json();
    expect(incident).toMatchObject({ status: 'open', severity: 'high', type: 'performance', created_by: commander.id });
    expect(incident.incident_id).toMatch(/^INC-\d+$/);
    expect(await timeline(incident.id)).toEqual([{ type: 'incident.created', description: expect.stringContaining('Checkout is slow (high, performance)'), created_by: commander.id }]);
  });

  it('answers 400 naming the field for a bad value, and writes nothing', async () => {
    const before = (await t.db.pool.query('SELECT count(*)::int AS n FROM incidents')).rows[0].n;
    const bad = await db('POST', 'incidents', commander.headers, { title: 'x', severity: 'apocalyptic' });
    expect(bad.status).toBe(400);
    expect(bad.json().message).toBe('severity: must be one of info, warning, low, medium, high, critical, blocker');
    const blank = await db('POST', 'incidents', commander.headers, { title: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.json().message).toBe('title: is required');
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM incidents')).rows[0].n).toBe(before);
  });

  it("numbers incidents without gaps left by refused writes; clients may not send the number", async () => {
    const number = (row: { incident_id: string }) => Number(row.incident_id.slice('INC-'.length));
    const first = (await db('POST', 'incidents?select=incident_id', commander.headers, { title: 'First' })).json()[0];
    expect((await db('POST', 'incidents', commander.headers, { title: '' })).status).toBe(400);
    expect((await db('POST', 'incidents', commander.headers, { title: 'y', type: 'weather' })).status).toBe(400);
    expect((await db('POST', 'incidents', commander.headers, { title: 'Mine', incident_id: 'INC-1' })).status).toBe(403);
    const next = (await db('POST', 'incidents?select=incident_id', commander.headers, { title: 'Next' })).json()[0];
    expect(number(next)).toBe(number(first) + 1);
  });

  it('keeps the hypothesis tree root → factor → solution, new roots possible', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Tree' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id,status,type', responder.headers, { incident_id: incident.id, title: 'Database' })).json();
    expect(root).toMatchObject({ status: 'possible', type: 'root' });
    const orphan = await db('POST', 'hypotheses', responder.headers, { incident_id: incident.id, title: 'x', type: 'solution' });
    expect(orphan.status).toBe(400);
    expect(orphan.json().message).toBe('parent_id: a solution needs a parent (a factor)');
    const skip = await db('POST', 'hypotheses', responder.headers, { incident_id: incident.id, parent_id: root.id, title: 'x', type: 'solution' });
    expect(skip.json().message).toBe('type: a solution cannot hang under a root (root → factor → solution)');
    const factor = await db('POST', 'hypotheses?select=id', responder.headers, { incident_id: incident.id, parent_id: root.id, title: 'Pool exhausted', type: 'factor' });
    expect(factor.status).toBe(201);
    const proven = await db('PATCH', `hypotheses?id=eq.${root.id}&select=status`, responder.headers, { status: 'proven' });
    expect(proven.json()).toEqual([{ status: 'proven' }]);
    expect((await timeline(incident.id)).map((row) => row.type)).toEqual(['incident.created', 'hypothesis.created', 'hypothesis.created', 'hypothesis.status_updated']);
    expect((await timeline(incident.id)).at(-1)).toMatchObject({ description: 'Database: possible → proven', created_by: responder.id });
  });

  it('records status and severity changes with when each status was reached', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Lifecycle' })).json();
    await db('PATCH', `incidents?id=eq.${incident.id}`, commander.headers, { status: 'investigating', severity: 'critical', commander_id: commander.id });
    const [after] = (await db('PATCH', `incidents?id=eq.${incident.id}&select=status,investigating_at,resolved_at`, commander.headers, { status: 'resolved' })).json();
    expect(after.investigating_at).not.toBeNull();
    expect(after.resolved_at).not.toBeNull();
    const rows = await timeline(incident.id);
    expect(rows.map((row) => row.description)).toEqual(
      expect.arrayContaining(['Status: open → investigating', 'Severity: low → critical', expect.stringMatching(/^Commander: /), 'Status: investigating → resolved']),
    );
    expect(rows.filter((row) => row.type === 'incident.status_updated')).toHaveLength(2);
  });

  it('lets a viewer read but not write; the timeline cannot be written by anyone', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Read only' })).json();
    expect((await db('GET', `incidents?id=eq.${incident.id}&select=title`, viewer.headers)).json()).toEqual([{ title: 'Read only' }]);
    expect((await db('POST', 'incidents', viewer.headers, { title: 'nope' })).status).toBe(403);
    expect((await db('POST', 'comments', viewer.headers, { incident_id: incident.id, comment: 'nope' })).status).toBe(403);
    expect((await db('POST', 'incident_histories', t.adminHeaders, { incident_id: incident.id, type: 'incident.created' })).status).toBe(405);
    expect((await db('DELETE', `incidents?id=eq.${incident.id}`, t.adminHeaders)).status).toBe(405);
  });

  it('comments on a hypothesis land in its incident and the timeline', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Comments' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id', commander.headers, { incident_id: incident.id, title: 'Cache' })).json();
    const res = await db('POST', 'comments?select=incident_id,created_by', responder.headers, { hypothesis_id: root.id, comment: 'Cache hit rate dropped at 10:02' });
    expect(res.json()).toEqual([{ incident_id: incident.id, created_by: responder.id }]);
    expect((await db('POST', 'comments', responder.headers, { hypothesis_id: root.id, comment: ' ' })).json().message).toBe('comment: is required');
    expect((await timeline(incident.id)).at(-1)).toMatchObject({ type: 'responder.commented', description: 'Cache hit rate dropped at 10:02' });
  });

  it('adds responders (people and teams) once each', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Responders' })).json();
    expect((await db('POST', 'responders', commander.headers, { incident_id: incident.id, type: 'person', person_id: responder.id })).status).toBe(201);
    expect((await db('POST', 'responders', commander.headers, { incident_id: incident.id, type: 'person', person_id: responder.id })).status).toBe(409);
    expect((await db('POST', 'responders', commander.headers, { incident_id: incident.id, type: 'team' })).json().message).toBe('team_id: a team responder names a team (and no person)');
    const [summary] = (await db('GET', `incident_summary?id=eq.${incident.id}&select=responders`, viewer.headers)).json();
    expect(summary.responders).toEqual([expect.objectContaining({ type: 'person', person_id: responder.id, name: expect.any(String) })]);
    expect((await timeline(incident.id)).at(-1)?.type).toBe('responder.created');
  });
});

describe('evidence', () => {
  it('keeps what a check showed when attached, after the check changes', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Snapshot' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id', commander.headers, { incident_id: incident.id, title: 'API down' })).json();
    const res = await db('POST', 'evidences?select=id,evidence', responder.headers, { hypothesis_id: root.id, type: 'check', check_id: checkId, evidence: { snapshot: { forged: true } } });
    expect(res.status).toBe(201);
    const [evidence] = res.json();
    expect(evidence.evidence.snapshot).toMatchObject({ kind: 'check', name: 'api', status: 'unhealthy', result: { status: false, message: 'HTTP 503', error: 'expected 200' } });
    expect(evidence.evidence.snapshot.forged).toBeUndefined();
    await t.db.pool.query("UPDATE checks SET status = 'healthy' WHERE id = $1", [checkId]);
    const [again] = (await db('GET', `evidences?id=eq.${evidence.id}&select=evidence`, viewer.headers)).json();
    expect(again.evidence.snapshot.status).toBe('unhealthy');
    // The snapshot cannot be rewritten later either.
    await db('PATCH', `evidences?id=eq.${evidence.id}`, responder.headers, { definition_of_done: true, description: 'API answers 200' });
    const [done] = (await db('GET', `evidences?id=eq.${evidence.id}&select=evidence,definition_of_done`, viewer.headers)).json();
    expect(done).toMatchObject({ definition_of_done: true, evidence: { snapshot: { status: 'unhealthy' } } });
    expect((await timeline(incident.id)).map((row) => row.type)).toEqual(['incident.created', 'hypothesis.created', 'evidence.created', 'evidence.done_definition_added']);
  });

  it('snapshots a config without its secrets, and a change with its diff; lists incidents by config', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Config' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id', commander.headers, { incident_id: incident.id, title: 'Bad rollout' })).json();
    const [config] = (await db('POST', 'evidences?select=evidence', commander.headers, { hypothesis_id: root.id, type: 'config', config_id: configId })).json();
    expect(config.evidence.snapshot).toMatchObject({ kind: 'config', name: 'api', health: 'unhealthy', config: { spec: { replicas: 3 } } });
    expect(JSON.stringify(config.evidence)).not.toContain('hunter2');
    const [change] = (await db('POST', 'evidences?select=evidence', commander.headers, { hypothesis_id: root.id, type: 'config_change', config_change_id: changeId })).json();
    expect(change.evidence.snapshot).toMatchObject({ kind: 'config_change', config_name: 'api', diff: '- replicas: 2\n+ replicas: 3' });
    const missing = await db('POST', 'evidences', commander.headers, { hypothesis_id: root.id, type: 'config' });
    expect(missing.json().message).toBe('config_id: is required for config evidence');
    const byConfig = (await db('GET', `incidents_by_config?config_id=eq.${configId}&select=id`, viewer.headers)).json();
    expect(byConfig).toEqual([{ id: incident.id }]);
  });
});

describe('the incident page reads', () => {
  it('hypotheses with their evidence, comments and people in one request, children ordered', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Embeds' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id', commander.headers, { incident_id: incident.id, title: 'Root' })).json();
    await db('POST', 'evidences', commander.headers, { hypothesis_id: root.id, type: 'log', description: 'first', evidence: { lines: ['boom'] } });
    await db('POST', 'evidences', commander.headers, { hypothesis_id: root.id, type: 'check', check_id: checkId });
    await db('POST', 'comments', responder.headers, { hypothesis_id: root.id, comment: 'looking' });
    const person = 'id,name,email,avatar';
    const select =
      `id,parent_id,type,title,status,created_at,created_by:people!hypotheses_created_by_fkey(${person}),` +
      `evidences(id,type,description,evidence,created_at,created_by:people!evidences_created_by_fkey(${person})),` +
      `comments(id,comment,created_at,created_by:people!comments_created_by_fkey(${person}))`;
    const res = await db('GET', `hypotheses?select=${encodeURIComponent(select)}&incident_id=eq.${incident.id}&order=created_at&evidences.order=created_at&comments.order=created_at`, viewer.headers);
    expect(res.status).toBe(200);
    const [hypothesis] = res.json();
    expect(hypothesis.created_by).toMatchObject({ id: commander.id, email: 'commander@example.com' });
    expect(hypothesis.evidences.map((e: { type: string }) => e.type)).toEqual(['log', 'check']);
    expect(hypothesis.evidences[0].evidence).toEqual({ lines: ['boom'] });
    expect(hypothesis.comments).toEqual([expect.objectContaining({ comment: 'looking', created_by: expect.objectContaining({ id: responder.id }) })]);
    const history = await db('GET', `incident_histories?select=${encodeURIComponent(`type,created_by:people!incident_histories_created_by_fkey(${person})`)}&incident_id=eq.${incident.id}&order=created_at`, viewer.headers);
    expect(history.json().at(-1)).toMatchObject({ type: 'responder.commented', created_by: { id: responder.id } });
  });
});

describe('POST /api/incidents/link', () => {
  it('creates the incident, a root hypothesis titled like it, and the evidence in one go', async () => {
    const res = await link(responder.headers, { incident: { title: 'API failing', type: 'availability', severity: 'low' }, hypothesis: {}, evidence: { type: 'check', check_id: checkId, description: 'api check' } });
    expect(res.status).toBe(201);
    const out = res.json();
    expect(out).toMatchObject({ created_incident: true, created_hypothesis: true, incident_number: expect.stringMatching(/^INC-\d+$/) });
    const { rows } = await t.db.pool.query('SELECT h.title, h.status, i.status AS incident_status, i.commander_id FROM hypotheses h JOIN incidents i ON i.id = h.incident_id WHERE h.id = $1', [out.hypothesis_id]);
    expect(rows[0]).toEqual({ title: 'API failing', status: 'possible', incident_status: 'open', commander_id: responder.id });
    expect((await timeline(out.incident_id)).map((row) => row.type)).toEqual(['incident.created', 'hypothesis.created', 'evidence.created']);
  });

  it('answers the spec messages for what is missing', async () => {
    const none = await link(responder.headers, { evidence: { type: 'check', check_id: checkId } });
    expect(none.status).toBe(400);
    expect(none.json().details).toEqual([
      { path: 'body.incident', message: 'Must select or create an incident' },
      { path: 'body.incident.severity', message: 'Please select incident severity' },
      { path: 'body.incident.type', message: 'Please select an incident type' },
    ]);
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Existing' })).json();
    const noHypothesis = await link(responder.headers, { incident: { id: incident.id }, evidence: { type: 'check', check_id: checkId } });
    expect(noHypothesis.json().details).toEqual([{ path: 'body.hypothesis', message: 'Must select or create a hypothesis' }]);
  });

  it('leaves nothing behind when the evidence cannot be made', async () => {
    const before = (await t.db.pool.query('SELECT count(*)::int AS n FROM incidents')).rows[0].n;
    const res = await link(responder.headers, { incident: { title: 'Ghost', type: 'availability', severity: 'low' }, evidence: { type: 'check', check_id: '00000000-0000-4000-8000-00000000abcd' } });
    expect(res.status).toBe(400);
    expect(res.json().details).toEqual([{ path: 'body.evidence.check_id', message: 'no such check' }]);
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM incidents')).rows[0].n).toBe(before);
  });

  it('is refused to a viewer', async () => {
    const res = await link(viewer.headers, { incident: { title: 'x', type: 'availability', severity: 'low' }, evidence: { type: 'check', check_id: checkId } });
    expect(res.status).toBe(403);
  });
});

describe('incident events', () => {
  type Event = { name: string; properties: Record<string, unknown> };
  /** The incident's events, one per event whatever the number of consumers, oldest first. */
  const events = async (incident: string): Promise<Event[]> =>
    (
      await t.db.pool.query<Event & { event_id: string }>(
        `SELECT name, properties FROM (SELECT DISTINCT event_id, name, properties, created_at FROM event_queue WHERE name LIKE 'incident.%' AND properties->>'incident_id' = $1) e
         ORDER BY created_at, name`,
        [incident],
      )
    ).rows;
  const names = async (incident: string) => (await events(incident)).map((event) => event.name);

  it('publishes incident.created with the incident, and nothing for a refused write', async () => {
    const before = (await t.db.pool.query("SELECT count(DISTINCT event_id)::int AS n FROM event_queue WHERE name = 'incident.created'")).rows[0].n;
    const [incident] = (await db('POST', 'incidents?select=id,incident_id', commander.headers, { title: 'Events', severity: 'high' })).json();
    expect(await events(incident.id)).toEqual([
      {
        name: 'incident.created',
        properties: expect.objectContaining({ id: incident.id, incident_id: incident.id, incident_number: incident.incident_id, title: 'Events', severity: 'high', status: 'open', previous: { status: null } }),
      },
    ]);
    expect((await db('POST', 'incidents', commander.headers, { title: 'x', severity: 'apocalyptic' })).status).toBe(400);
    expect((await t.db.pool.query("SELECT count(DISTINCT event_id)::int AS n FROM event_queue WHERE name = 'incident.created'")).rows[0].n).toBe(before + 1);
  });

  it('publishes incident.status.<status> with the previous status on a change of status only', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'Status events' })).json();
    await db('PATCH', `incidents?id=eq.${incident.id}`, commander.headers, { status: 'investigating' });
    await db('PATCH', `incidents?id=eq.${incident.id}`, commander.headers, { status: 'investigating', severity: 'critical' });
    await db('PATCH', `incidents?id=eq.${incident.id}`, commander.headers, { status: 'mitigated' });
    await db('PATCH', `incidents?id=eq.${incident.id}`, commander.headers, { status: 'closed' });
    const all = await events(incident.id);
    expect(all.map((event) => [event.name, event.properties.previous, event.properties.status])).toEqual([
      ['incident.created', { status: null }, 'open'],
      ['incident.status.investigating', { status: 'open' }, 'investigating'],
      ['incident.status.mitigated', { status: 'investigating' }, 'mitigated'],
      ['incident.status.closed', { status: 'mitigated' }, 'closed'],
    ]);
    expect(all[2]?.properties.severity).toBe('critical');
  });

  it('publishes incident.responder.added and .removed, and incident.comment.added', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'People events' })).json();
    const [added] = (await db('POST', 'responders?select=id', commander.headers, { incident_id: incident.id, type: 'person', person_id: responder.id })).json();
    expect((await db('POST', 'responders', commander.headers, { incident_id: incident.id, type: 'person', person_id: responder.id })).status).toBe(409);
    const [comment] = (await db('POST', 'comments?select=id', responder.headers, { incident_id: incident.id, comment: 'Looking at it' })).json();
    await db('PATCH', `comments?id=eq.${comment.id}`, responder.headers, { comment: 'Looking at it now' });
    expect((await db('DELETE', `responders?id=eq.${added.id}`, commander.headers)).status).toBe(200);
    const all = await events(incident.id);
    expect(all.map((event) => event.name)).toEqual(['incident.created', 'incident.responder.added', 'incident.comment.added', 'incident.responder.removed']);
    expect(all[1]?.properties).toMatchObject({ id: incident.id, title: 'People events', status: 'open', responder_id: added.id, responder_type: 'person', person_id: responder.id });
    expect(all[2]?.properties).toMatchObject({ comment_id: comment.id, comment: 'Looking at it' });
    expect(all[3]?.properties).toMatchObject({ responder_id: added.id, person_id: responder.id });
  });

  it('publishes definition-of-done events for evidences that are part of it: added, passed, regressed, removed', async () => {
    const [incident] = (await db('POST', 'incidents?select=id', commander.headers, { title: 'DoD events' })).json();
    const [root] = (await db('POST', 'hypotheses?select=id', commander.headers, { incident_id: incident.id, title: 'API down' })).json();
    const [plain] = (await db('POST', 'evidences?select=id', responder.headers, { hypothesis_id: root.id, type: 'check', check_id: checkId })).json();
    await db('PATCH', `evidences?id=eq.${plain.id}`, responder.headers, { done: true });
    expect(await names(incident.id)).toEqual(['incident.created']);

    await db('PATCH', `evidences?id=eq.${plain.id}`, responder.headers, { done: false, definition_of_done: true, description: 'API answers 200' });
    await db('PATCH', `evidences?id=eq.${plain.id}`, responder.headers, { done: true });
    await db('PATCH', `evidences?id=eq.${plain.id}`, responder.headers, { done: true, description: 'API answers 200 again' });
    await db('PATCH', `evidences?id=eq.${plain.id}`, responder.headers, { done: false });
    const [dod] = (await db('POST', 'evidences?select=id', responder.headers, { hypothesis_id: root.id, type: 'config', config_id: configId, definition_of_done: true })).json();
    await db('DELETE', `evidences?id=eq.${dod.id}`, responder.headers);
    const all = await events(incident.id);
    expect(all.map((event) => event.name)).toEqual([
      'incident.created',
      'incident.dod.evidence.added',
      'incident.dod.passed',
      'incident.dod.regressed',
      'incident.dod.evidence.added',
      'incident.dod.evidence.removed',
    ]);
    expect(all[1]?.properties).toMatchObject({ id: incident.id, evidence_id: plain.id, hypothesis_id: root.id, evidence_type: 'check', description: 'API answers 200' });
    expect(all[2]?.properties).toMatchObject({ evidence_id: plain.id, done: true });
    expect(all[5]?.properties).toMatchObject({ evidence_id: dod.id, evidence_type: 'config' });
  });

  it('publishes incident.created for an incident made by Attach as Evidence', async () => {
    const res = await link(responder.headers, { incident: { title: 'Linked events', type: 'availability', severity: 'low' }, hypothesis: {}, evidence: { type: 'check', check_id: checkId } });
    expect(res.status).toBe(201);
    const out = res.json();
    expect(await events(out.incident_id)).toEqual([{ name: 'incident.created', properties: expect.objectContaining({ id: out.incident_id, incident_number: out.incident_number, title: 'Linked events' }) }]);
    await link(responder.headers, { incident: { id: out.incident_id }, hypothesis: { id: out.hypothesis_id }, evidence: { type: 'config', config_id: configId } });
    expect(await names(out.incident_id)).toEqual(['incident.created']);
  });
});
