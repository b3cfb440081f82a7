import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { teamKind } from '../team-kind';

let t: TestApp;
let alice = '';

beforeAll(async () => {
  t = await createTestApp();
  alice = (await t.userWith(['viewer'], 'alice@example.com')).id;
  await t.userWith(['viewer'], 'bob@example.com');
});

afterAll(async () => {
  await t?.close();
});

const apply = (text: string) => applyDocuments(t.db.pool, [teamKind], [{ file: 'teams.yaml', text }], 'ConfigFile', createLogger('silent'));

async function members(name: string): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ email: string }>(
    'SELECT p.email FROM team_members m JOIN teams t ON t.id = m.team_id JOIN people p ON p.id = m.person_id WHERE t.name = $1 ORDER BY p.email',
    [name],
  );
  return rows.map((row) => row.email);
}

describe('kind: Team', () => {
  it('creates a team with its members, warns about unknown people, and makes membership exactly the list', async () => {
    const first = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: sre}
spec:
  icon: shield
  members: [alice@example.com, BOB@example.com, carol@example.com]
  slack: "#sre"
`);
    expect(first[0]).toMatchObject({ ok: true, outcome: { action: 'created', name: 'sre' } });
    expect(first[0]?.outcome?.warnings).toEqual(['spec.members: "carol@example.com" is not a person of this console (no account with that email); left out']);
    expect(await members('sre')).toEqual(['alice@example.com', 'bob@example.com']);
    const { rows } = await t.db.pool.query('SELECT icon, spec, source FROM teams WHERE name = $1', ['sre']);
    expect(rows[0]).toEqual({ icon: 'shield', spec: { slack: '#sre' }, source: 'ConfigFile' });

    const second = await apply(`{apiVersion: mission-control.flanksource.com/v1, kind: Team, metadata: {name: SRE}, spec: {members: [${alice}]}}`);
    expect(second[0]).toMatchObject({ ok: true, outcome: { action: 'updated' } });
    expect(await members('SRE')).toEqual(['alice@example.com']);
  });

  it('is read-only in the console, and never takes over a team made there', async () => {
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM teams WHERE lower(name) = 'sre'");
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/db/teams?id=eq.${rows[0]?.id}`, headers: { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' }, payload: '{"icon":"x"}' });
    expect(patched.json()).toEqual([]);
    const member = await t.app.inject({ method: 'POST', url: '/api/db/team_members', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ team_id: rows[0]?.id, person_id: alice }) });
    expect(member.statusCode).toBe(400);
    expect(member.json()).toMatchObject({ message: 'the team "SRE" comes from ConfigFile: change its members there' });
    await t.app.inject({ method: 'POST', url: '/api/db/teams', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: '{"name":"Console-Team"}' });
    const clash = await apply('{apiVersion: mission-control.flanksource.com/v1, kind: Team, metadata: {name: console-team}}');
    expect(clash[0]?.ok).toBe(false);
    expect(clash[0]?.errors[0]).toContain('was created in the console');
    const invalid = await apply('{apiVersion: mission-control.flanksource.com/v1, kind: Team, metadata: {name: ""}, spec: {members: "alice"}}');
    expect(invalid[0]?.errors).toEqual(expect.arrayContaining([expect.stringContaining('metadata.name'), expect.stringContaining('spec.members')]));
  });
});
