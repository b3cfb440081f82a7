import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { CAPABILITIES, ROLES, RESOURCES, type Role } from '../../../common/rbac';
import { relations } from '../../postgrest/relations';

/**
 * The role table of spec §6, written out here from the spec's words (not from the implementation), and
 * checked against the server: every role × every /api/db relation × read and write, and every API route
 * that names an RBAC resource × every role. Allowed means "not 403"; refused means exactly 403.
 */
// Capabilities (issue 35, docs/SECURITY.md) are admin-only by role, as connections, identities and rbac are.
const ADMIN_ONLY: string[] = ['connections', 'identities', 'rbac', ...CAPABILITIES];
const RESPONDER_WRITES = ['responder', 'incident', 'evidences', 'comments'];

function specAllows(role: Role, resource: string, level: 'read' | 'write'): boolean {
  switch (role) {
    case 'admin':
      return true; // "admin: read and write on everything"
    case 'editor':
      return !ADMIN_ONLY.includes(resource); // "read and write on everything except connections, identities and rbac"
    case 'commander':
    case 'responder':
      // "read on everything except rbac, identities and connections; write only on responder, incident, evidences and comments"
      return level === 'read' ? !ADMIN_ONLY.includes(resource) : RESPONDER_WRITES.includes(resource);
    case 'viewer':
    case 'guest':
      return level === 'read' && !ADMIN_ONLY.includes(resource); // "viewer and guest: the same read, no write"
  }
}

let t: TestApp;
const headers = new Map<Role, Record<string, string>>();

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) headers.set(role, (await t.userWith([role])).headers);
});

afterAll(async () => {
  await t?.close();
});

function as(role: Role): Record<string, string> {
  const value = headers.get(role);
  if (!value) throw new Error(`no user for ${role}`);
  return value;
}

const NOTHING = 'is.null';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A request with an empty JSON body where the method takes one. */
function request(method: string, url: string, auth: Record<string, string>) {
  const verb = METHODS.find((item) => item === method) ?? 'GET';
  const body = verb !== 'GET' && verb !== 'DELETE';
  return { method: verb, url, headers: body ? { ...auth, 'content-type': 'application/json' } : auth, ...(body ? { payload: '{}' } : {}) };
}

describe('spec §6 role table on /api/db', () => {
  it('covers every RBAC resource of the spec, and the capabilities (docs/SECURITY.md)', () => {
    expect([...RESOURCES].filter((resource) => !(CAPABILITIES as readonly string[]).includes(resource)).sort()).toEqual(
      [
        'database', 'rbac', 'auth', 'responder', 'incident', 'evidences', 'comments', 'canaries', 'topologies', 'config_scrapers', 'identities',
        'connections', 'kratos', 'agents', 'feature_flags', 'logging_backends', 'integrations', 'notifications', 'playbooks', 'playbook_runs',
        'permissions', 'views',
      ].sort(),
    );
  });

  for (const relation of relations) {
    for (const role of ROLES) {
      it(`${role} ${specAllows(role, relation.rbac, 'read') ? 'reads' : 'may not read'} ${relation.name} (${relation.rbac})`, async () => {
        const res = await t.app.inject({ method: 'GET', url: `/api/db/${relation.name}?limit=1`, headers: as(role) });
        if (specAllows(role, relation.rbac, 'read')) expect(res.statusCode, res.body).toBe(200);
        else expect(res.statusCode, res.body).toBe(403);
      });

      const writeObject = relation.writeRbac ?? relation.rbac;
      const key = relation.primaryKey?.[0] ?? relation.readable[0] ?? 'id';
      it(`${role} ${specAllows(role, writeObject, 'write') ? 'may write' : 'may not write'} ${relation.name} (${writeObject})`, async () => {
        // Writes that change nothing: an empty insert, and an update and delete that match no row.
        const attempts = [
          await t.app.inject({ method: 'POST', url: `/api/db/${relation.name}`, headers: { ...as(role), 'content-type': 'application/json' }, payload: '[]' }),
          await t.app.inject({ method: 'PATCH', url: `/api/db/${relation.name}?${key}=${NOTHING}`, headers: { ...as(role), 'content-type': 'application/json' }, payload: '{}' }),
          await t.app.inject({ method: 'DELETE', url: `/api/db/${relation.name}?${key}=${NOTHING}`, headers: as(role) }),
        ];
        for (const res of attempts) {
          if (specAllows(role, writeObject, 'write')) expect(res.statusCode, res.body).not.toBe(403);
          else expect(res.statusCode, res.body).toBe(403);
          expect(res.statusCode).toBeLessThan(500);
        }
      });
    }
  }

  it('answers 401 to a request with no credentials, before revealing anything about the registry', async () => {
    for (const url of ['/api/db/job_history', '/api/db/no_such_relation', '/api/db/permissions?select=nonsense((']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'PGRST302' });
    }
  });
});

describe('spec §6 role table on the API routes', () => {
  it('every /api route declares who may call it', () => {
    const undeclared = t.context.routes.filter((route) => (route.url === '/api' || route.url.startsWith('/api/')) && route.access === undefined);
    expect(undeclared).toEqual([]);
  });

  it('refuses anonymous callers on every route that is not public', async () => {
    for (const route of t.context.routes) {
      if (!route.url.startsWith('/api/') || route.access === 'public' || route.method === 'HEAD' || route.url.startsWith('/api/db')) continue;
      const url = route.url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000001').replace('*', 'x');
      const res = await t.app.inject(request(route.method, url, {}));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  const guarded = () => t.context.routes.filter((route): route is typeof route & { access: { resource: string; action: string } } => typeof route.access === 'object');

  it('has routes guarded by RBAC resources', () => {
    expect(guarded().length).toBeGreaterThanOrEqual(3);
  });

  for (const role of ROLES) {
    it(`${role}: each guarded route answers as the role table says`, async () => {
      for (const route of guarded()) {
        const url = route.url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000001');
        const res = await t.app.inject(request(route.method, url, as(role)));
        const level = route.access.action === 'read' ? 'read' : 'write';
        if (specAllows(role, route.access.resource, level)) expect(res.statusCode, `${role} ${route.method} ${route.url}: ${res.body}`).not.toBe(403);
        else expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
      }
    });
  }
});
