import { describe, expect, it } from 'vitest';
import { capabilityUses, propertyCapability } from './capabilities';

describe('capabilityUses', () => {
  it('finds each capability by field, at any depth', () => {
    const uses = capabilityUses({
      schedule: '@every 1m',
      exec: [{ name: 'a', script: 'id', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }],
      http: [{ name: 'b', url: 'http://x/', connection: 'connection://ops/api', display: { javascript: 'x' }, test: { expr: 'true' } }],
      folder: [{ name: 'c', path: '/var/data' }, { name: 'd', path: 's3://bucket/x' }],
      components: [{ name: 'e', checks: [{ inline: { exec: [{ script: 'true' }] } }] }],
      git: [{ url: '.', paths: ['*.yaml'] }, { url: 'https://example.com/r.git' }, { url: 'git@example.com:r.git' }],
      queries: { q: { sql: { connection: 'connection://default/db', query: 'SELECT 1' } } },
      password: 'secret://creds/password',
    });
    expect(uses.map((use) => `${use.capability} ${use.path}`).sort()).toEqual(
      [
        'connection_use spec.exec[0].env[0].valueFrom',
        'connection_use spec.http[0].connection',
        'connection_use spec.password',
        'connection_use spec.queries.q.sql.connection',
        'exec spec.components[0].checks[0].inline.exec[0]',
        'exec spec.exec[0]',
        'javascript spec.http[0].display.javascript',
        'server_files spec.folder[0].path',
        'server_files spec.git[0].url',
        'sql spec.queries.q.sql',
      ].sort(),
    );
  });

  it('leaves inline URLs, CEL and remote paths alone', () => {
    expect(capabilityUses({ postgres: [{ name: 'db', url: 'postgres://u:p@h/db', query: 'SELECT 1' }], http: [{ url: 'http://x', test: { expr: 'code == 200' } }], javascript: '' })).toEqual([]);
  });

  it('guards auth.* properties only', () => {
    expect(propertyCapability('auth.registration.default_role')).toBe('auth_settings');
    expect(propertyCapability('AUTH.registration.disable')).toBe('auth_settings');
    expect(propertyCapability('incidents.disable')).toBeUndefined();
  });
});
