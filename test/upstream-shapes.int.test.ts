import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app';
import { scrapeConfigKind } from '../server/features/catalog/scraper-kind';
import { teamKind } from '../server/features/identity/team-kind';
import { logBackendKind } from '../server/features/logs/backends';
import { topologyKind } from '../server/features/topology/kind';
import { createLogger } from '../server/platform/logger';
import { applyDocuments, type DocumentResult, type ResourceKind } from '../server/platform/resources';

// Documents written here from the upstream types (config-db's ScraperSpec and scraper types, canary-checker's
// TopologySpec and ComponentSpec, Mission Control's Team, duty's LogSelector): every field they may carry
// applies; what this console does not run is a warning naming it, never a refusal (docs/RESOURCES.md).

let t: TestApp;
const log = createLogger('silent');
const kinds: ResourceKind[] = [scrapeConfigKind, topologyKind, teamKind, logBackendKind];

async function apply(text: string): Promise<DocumentResult> {
  const [result] = await applyDocuments(t.db.pool, kinds, [{ file: 'upstream.yaml', text }], 'ConfigFile', log);
  if (!result) throw new Error('no result');
  return result;
}

beforeAll(async () => {
  // The LogBackend below names /var/log/nginx: a log root here (docs/LOGS.md).
  t = await createTestApp({ env: { WATCHKEEPER_LOG_ROOTS: '/var/log' } });
});

afterAll(async () => {
  await t?.close();
});

describe('upstream-shaped documents apply with warnings, not errors', () => {
  it('ScrapeConfig with config-db fields of every type', async () => {
    const result = await apply(`
apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata: {name: upstream-scraper}
spec:
  schedule: "@every 1h"
  full: true
  logLevel: debug
  crdSync: true
  retention:
    staleItemAge: 24h
    changes: [{name: Pulled, age: 7d, count: 10}]
    types: [{name: Kubernetes::Pod, deletedAge: 1d}]
  file:
    - type: $.kind
      id: $.metadata.uid
      name: $.metadata.name
      paths: [fixtures/*.yaml]
      icon: folder
      timestampFormat: "2006-01-02"
      transform:
        gotemplate: "{{.}}"
        changes: {mapping: [{filter: "true", type: Changed}], exclude: ["false"]}
        locations: [{type: Region, values: [eu]}]
        aliases: [{type: Alias, values: [x]}]
        relationship:
          - {name: {value: db}, type: {value: Database}, external_id: {expr: x}, agent: {value: self}}
          - {expr: "[]"}
  http:
    - url: http://127.0.0.1:9/api
      id: $.id
      type: API
      bearer: {value: t0ken}
      oauth: {clientID: {value: a}, tokenURL: http://127.0.0.1:9/token}
      tls: {insecureSkipVerify: true}
      digest: true
      env: [{name: A, value: b}]
    - connection: connection://http/inventory
      id: $.id
      type: API
  exec:
    - script: echo '{}'
      id: x
      type: Exec
      connections: {aws: {connection: connection://aws/prod}}
      checkout: {url: https://github.com/flanksource/config-db}
      artifacts: [{path: /tmp/out.json}]
  git:
    - url: https://github.com/flanksource/config-db
      branch: main
      depth: 1
      branches: ["release/*"]
      files: [{pattern: "*.md", strategy: ignore}]
      type: Git::File
      id: $.path
  kubernetesFile:
    - selector: {namespace: default, kind: Pod, labelSelector: app=web}
      container: web
      files: [{path: [/etc/app/config.yaml], format: yaml}]
  sql:
    - connection: postgres://u:p@127.0.0.1:1/db
      auth: {username: {value: u}, password: {value: p}}
      driver: postgres
      query: SELECT 1 AS id
      timestampFormat: x
  kubernetes: [{clusterName: demo}]
  aws: [{region: [eu-west-1]}]
  github: [{repositories: [{owner: flanksource, repo: config-db}]}]
`);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    const warnings = result.outcome?.warnings ?? [];
    for (const field of [
      'spec.logLevel', 'spec.crdSync', 'spec.file[0].icon', 'spec.file[0].timestampFormat', 'spec.file[0].transform.gotemplate',
      'spec.file[0].transform.changes', 'spec.file[0].transform.locations', 'spec.file[0].transform.aliases',
      'spec.file[0].transform.relationship[0].external_id', 'spec.file[0].transform.relationship[0].agent', 'spec.file[0].transform.relationship[1]',
      'spec.http[0].bearer', 'spec.http[0].oauth', 'spec.http[0].tls', 'spec.http[0].digest', 'spec.http[0].env', 'spec.http[1]',
      'spec.exec[0].connections', 'spec.exec[0].checkout', 'spec.exec[0].artifacts', 'spec.git[0].depth', 'spec.git[0].branches', 'spec.git[0].files',
      'spec.kubernetesFile[0]', 'spec.sql[0].timestampFormat', 'spec.kubernetes', 'spec.aws', 'spec.github',
    ]) {
      expect(warnings.some((warning) => warning.startsWith(`${field}:`)), `a warning naming ${field} in\n${warnings.join('\n')}`).toBe(true);
    }
    // git's branch is read as ref.
    expect(warnings.some((warning) => warning.startsWith('spec.git[0].branch:'))).toBe(false);
  });

  it('Topology with canary-checker fields of the topology, components, properties, selectors, checks and configs', async () => {
    const result = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata: {name: upstream-topology}
spec:
  type: System
  icon: server
  schedule: "@every 10m"
  id: {template: "{{.name}}"}
  groupBy: {tag: cluster}
  push: {url: http://127.0.0.1:9}
  properties:
    - {label: Owner, text: SRE, order: 1, links: [{url: http://127.0.0.1:9}], status: ok, lastTransition: "2024-01-01"}
    - name: cost
      type: currency
      value: 10
      lookup: {http: [{url: http://127.0.0.1:9}]}
      summary: {expr: "1"}
  components:
    - name: db
      namespace: default
      externalID: db-1
      order: 2
      lifecycle: production
      type: Database
      summary: {healthy: 1}
      logs: [{name: db, type: postgres}]
      parentLookup: {name: root}
      relationships: [{type: dependsOn, ref: api}]
      properties:
        - name: version
          configLookup: {id: 3e5b1a1c-6a8e-4bfb-9d0c-4b7d7a5a1f00, field: $.version, display: {template: "{{.}}"}}
      selectors:
        - {types: [Pod], namespace: default, agent: local, statuses: [Running], health: healthy, search: x, limit: 10, tagSelector: "a=b"}
      checks:
        - selector: {name: "db-*", types: [postgres, mysql], fieldSelector: x, agent: local}
        - inline: {http: [{name: x, url: http://127.0.0.1:9}]}
      configs:
        - {id: [3e5b1a1c-6a8e-4bfb-9d0c-4b7d7a5a1f00, 3e5b1a1c-6a8e-4bfb-9d0c-4b7d7a5a1f01], class: Database, external_id: x, type: RDS}
    - name: looked-up
      lookup:
        postgres: [{connection: x, query: y}]
        catalog: [{name: x}]
      forEach:
        relationships: [{type: x}]
`);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    const warnings = result.outcome?.warnings ?? [];
    for (const field of [
      'spec.id', 'spec.groupBy', 'spec.push', 'spec.properties[0].order', 'spec.properties[0].links', 'spec.properties[0].status',
      'spec.properties[0].lastTransition', 'spec.properties[1].type', 'spec.properties[1].lookup', 'spec.properties[1].summary',
      'spec.components[0].namespace', 'spec.components[0].externalID', 'spec.components[0].order', 'spec.components[0].lifecycle',
      'spec.components[0].summary', 'spec.components[0].logs', 'spec.components[0].parentLookup', 'spec.components[0].relationships',
      'spec.components[0].properties[0].configLookup.display.template', 'spec.components[0].selectors[0].namespace',
      'spec.components[0].selectors[0].agent', 'spec.components[0].selectors[0].statuses', 'spec.components[0].selectors[0].health',
      'spec.components[0].selectors[0].search', 'spec.components[0].selectors[0].limit', 'spec.components[0].selectors[0].tagSelector',
      'spec.components[0].checks[0].selector.fieldSelector', 'spec.components[0].checks[0].selector.agent', 'spec.components[0].checks[1].inline',
      'spec.components[0].configs[0].class', 'spec.components[0].configs[0].external_id', 'spec.components[1].lookup.postgres',
      'spec.components[1].lookup.catalog', 'spec.components[1].forEach.relationships',
    ]) {
      expect(warnings.some((warning) => warning.startsWith(`${field}`)), `a warning naming ${field} in\n${warnings.join('\n')}`).toBe(true);
    }
  });

  it('Team with Mission Control fields', async () => {
    const result = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: platform, namespace: mc}
spec:
  displayName: Platform Team
  icon: ""
  members: [test-admin@example.com]
  components: [{name: api}]
  responder_clients: {jira: {url: https://jira.example.com}}
  notifications: [{emails: [oncall@example.com]}]
`);
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(result.outcome?.warnings).toEqual([
      "spec.displayName: the console shows the team by metadata.name; kept in the team's spec",
      "spec.components: teams do not own components here; use a component's owner; kept in the team's spec",
      "spec.responder_clients: external responders (Jira, AWS, MS Planner) are not supported; kept in the team's spec",
    ]);
    const { rows } = await t.db.pool.query("SELECT icon FROM teams WHERE name = 'platform'");
    expect(rows).toEqual([{ icon: 'group' }]);
  });

  it('LogBackend with duty log selectors and apm-hub file paths', async () => {
    const result = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: LogBackend
metadata: {name: nginx}
spec:
  files:
    - path: [/var/log/nginx/*.log]
      labels: {app: nginx}
  components: [{name: "web-*", type: Nginx, labels: {tier: web}}]
`);
    expect(result).toMatchObject({ ok: true, errors: [] });
  });
});
