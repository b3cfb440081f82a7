import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import type { ServeProcess } from '../../../test/cli';
import { ensureEmbedded } from '../../platform/db/embedded';
import { createLogger } from '../../platform/logger';
import { functions, relations } from '../../postgrest/relations';
import { seedAgentDatabase } from '../agents/testing/fixtures';
import type { TestIssuer } from '../identity/oidc/testing/issuer';
import { collectIds, probeEveryRelation, type VictimKey } from './testing/every-relation';
import { addOrganization, startFront, chooseOrganization, signInAtFront, startBackend } from './testing/hosted';

/**
 * Issue 25: two organizations on two backends (two `serve --auth trusted-front` processes on two
 * databases). A person of organization B, with B's token and session, tries every /api/db relation with
 * organization A's ids: at B's backend, at A's backend and through the front. Nothing of A's is read,
 * changed or deleted.
 */

let issuer: TestIssuer;
let front: TestApp;
let frontUrl: string;
let backendA: ServeProcess & { dataDir: string; port: number };
let backendB: ServeProcess & { dataDir: string; port: number };
let poolA: pg.Pool;
let annSession: string;
let benSession: string;
let victimIds: Record<string, VictimKey[]>;
const marker = `isolation-a-${randomUUID().slice(0, 8)}`;
const victimStrings = [marker];

const session = (token: string) => ({ cookie: `watchkeeper_session=${token}` });

async function bearer(sessionToken: string): Promise<{ authorization: string }> {
  const res = await fetch(`${frontUrl}/api/auth/organization-token`, { headers: { ...session(sessionToken), accept: 'application/json' } });
  const body = (await res.json()) as { token?: string; message?: string };
  if (res.status !== 200 || !body.token) throw new Error(`no organization token (HTTP ${res.status}: ${body.message ?? ''})`);
  return { authorization: `Bearer ${body.token}` };
}

/** Creates one row through backend A's /api/db as A's administrator; answers its id. */
async function create(auth: { authorization: string }, relation: string, row: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${backendA.url}/api/db/${relation}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: 'application/json', prefer: 'return=representation' },
    body: JSON.stringify(row),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`seeding ${relation} at backend A: HTTP ${res.status}: ${text}`);
  const [created] = JSON.parse(text) as Array<{ id?: string }>;
  return created?.id ?? '';
}

beforeAll(async () => {
  ({ issuer, front, frontUrl } = await startFront());
  const pool = front.db.pool;
  const orgA = await addOrganization(pool, 'iso_a', null);
  const orgB = await addOrganization(pool, 'iso_b', null);
  [backendA, backendB] = await Promise.all([startBackend(frontUrl, orgA), startBackend(frontUrl, orgB)]);
  await addOrganization(pool, 'iso_a', backendA.url);
  await addOrganization(pool, 'iso_b', backendB.url);
  issuer.accounts.set('ann', { email: 'ann@a.example.com', email_verified: true, given_name: 'Ann', family_name: 'A', organizations: ['iso_a'] });
  issuer.accounts.set('ben', { email: 'ben@b.example.com', email_verified: true, given_name: 'Ben', family_name: 'B', organizations: ['iso_b'] });
  annSession = await signInAtFront(frontUrl, 'ann');
  benSession = await signInAtFront(frontUrl, 'ben');
  await chooseOrganization(pool, annSession, orgA, 'admin');
  await chooseOrganization(pool, benSession, orgB, 'admin');

  // The seed of organization A: the catalog, health and topology rows written into its database as an
  // agent's push would, and the rest created through its backend's /api/db by its administrator.
  const embedded = await ensureEmbedded({ dataDir: backendA.dataDir, log: createLogger('silent') });
  poolA = new pg.Pool({ connectionString: embedded.url, max: 2 });
  const { ids } = await seedAgentDatabase(poolA);
  await poolA.query("UPDATE config_items SET tags = tags || jsonb_build_object('isolation', $1::text), labels = labels || jsonb_build_object('isolation', $1::text) WHERE id = $2", [marker, ids.config]);
  const ann = await bearer(annSession);
  const me = (await (await fetch(`${backendA.url}/api/auth/whoami`, { headers: { ...ann, accept: 'application/json' } })).json()) as { user: { id: string } };
  await create(ann, 'properties', { name: `${marker}.property`, value: 'a' });
  const team = await create(ann, 'teams', { name: `${marker}-team` });
  await create(ann, 'team_members', { team_id: team, person_id: me.user.id });
  await create(ann, 'permissions', { name: `${marker}-permission`, namespace: 'default', action: 'read', subject: me.user.id, subject_type: 'person', person_id: me.user.id, object: 'catalog' });
  const incident = await create(ann, 'incidents', { title: `${marker} incident` });
  const hypothesis = await create(ann, 'hypotheses', { incident_id: incident, title: `${marker} hypothesis` });
  await create(ann, 'evidences', { hypothesis_id: hypothesis, type: 'config', config_id: ids.config, description: `${marker} evidence` });
  await create(ann, 'comments', { incident_id: incident, comment: `${marker} comment` });
  await create(ann, 'responders', { incident_id: incident, type: 'team', team_id: team });
  const user = await create(ann, 'external_users', { name: `${marker}-user` });
  const group = await create(ann, 'external_groups', { name: `${marker}-group` });
  const role = await create(ann, 'external_roles', { name: `${marker}-role` });
  await create(ann, 'external_user_groups', { external_user_id: user, external_group_id: group });
  await create(ann, 'config_access', { config_id: ids.config, external_user_id: user, external_role_id: role });
  victimIds = await collectIds(poolA);
}, 240_000);

afterAll(async () => {
  await poolA?.end();
  for (const backend of [backendA, backendB]) {
    await backend?.stop().catch(() => undefined);
    if (backend) await fs.rm(backend.dataDir, { recursive: true, force: true });
  }
  await front?.close();
  await issuer?.close();
});

const everyRelation = [...relations.map((relation) => relation.name), ...functions.map((fn) => `rpc/${fn.name}`)];

describe('organization B cannot reach organization A’s rows (issue 25)', () => {
  it('has A’s rows to look for in most relations', () => {
    expect(Object.keys(victimIds).length).toBeGreaterThanOrEqual(15);
  });

  it('at B’s backend with B’s token: every relation and function probed with A’s ids, nothing of A’s in any answer', async () => {
    const result = await probeEveryRelation({ baseUrl: backendB.url, headers: await bearer(benSession), victimIds, victimStrings });
    expect(result.violations).toEqual([]);
    expect(result.probed).toEqual(everyRelation);
    expect(result.withVictimIds.length).toBeGreaterThanOrEqual(15);
    // B's token really works there: the relations answer 200 (or 405 for a write on a read-only one), not 401.
    expect(result.requests.filter((request) => request.status === 401 || request.status === 403)).toEqual([]);
  }, 120_000);

  it('at A’s backend with B’s token: 401 for every request', async () => {
    const result = await probeEveryRelation({ baseUrl: backendA.url, headers: await bearer(benSession), victimIds, victimStrings });
    expect(result.violations).toEqual([]);
    expect(result.probed).toEqual(everyRelation);
    expect(result.requests.length).toBeGreaterThan(everyRelation.length);
    expect(result.requests.filter((request) => request.status !== 401)).toEqual([]);
  }, 120_000);

  it('through the front with B’s session (proxied to B’s backend): nothing of A’s', async () => {
    const result = await probeEveryRelation({ baseUrl: frontUrl, headers: session(benSession), victimIds, victimStrings });
    expect(result.violations).toEqual([]);
    expect(result.probed).toEqual(everyRelation);
    expect(result.requests.filter((request) => request.status === 401 || request.status === 403)).toEqual([]);
  }, 120_000);

  it('the probe finds what is there: A’s own token at A’s backend reads, changes and deletes A’s rows (violations for each)', async () => {
    // Reads first, then changes, then deletes, so one does not hide the other's rows.
    const headers = await bearer(annSession);
    const runs = [];
    for (const methods of [['GET', 'RPC'], ['PATCH']] as const) runs.push(await probeEveryRelation({ baseUrl: backendA.url, headers, victimIds, victimStrings, methods, concurrency: 1 }));
    // Deletes in reverse registry order: a row before the one it belongs to (evidences before hypotheses).
    runs.push(await probeEveryRelation({ baseUrl: backendA.url, headers, victimIds, victimStrings, methods: ['DELETE'], concurrency: 1, registry: { relations: [...relations].reverse(), functions } }));
    const result = { withVictimIds: runs[0]?.withVictimIds ?? [], violations: runs.flatMap((run) => run.violations), requests: runs.flatMap((run) => run.requests) };
    const found = (method: string) => new Set(result.violations.filter((violation) => violation.method === method && violation.status < 500).map((violation) => violation.relation));
    const read = found('GET');
    // Every relation with a victim id is caught reading it (the filtered GET returns the row).
    expect(result.withVictimIds.filter((name) => !name.startsWith('rpc/') && !read.has(name))).toEqual([]);
    const changed = found('PATCH');
    const deleted = found('DELETE');
    for (const relation of relations) {
      if (!victimIds[relation.name]) continue;
      if (relation.updatable?.length) expect(changed, `PATCH ${relation.name}`).toContain(relation.name);
      if (relation.deletable) expect(deleted, `DELETE ${relation.name}`).toContain(relation.name);
    }
    expect(found('RPC').size).toBeGreaterThan(0);
    // No 5xx anywhere, even for the owner.
    expect(result.requests.filter((request) => request.status >= 500)).toEqual([]);
  }, 120_000);
});
