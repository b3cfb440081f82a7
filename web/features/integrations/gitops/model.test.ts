import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { matchItems, DIRECT_ITEMS, GITOPS_ITEMS } from '../catalog';
import { asSchema, defaultValues, fluxYaml, helmCommands, namespaceProblem, parseValues, setIn, valueProblems, valuesToYaml } from './model';

const chartsDir = path.resolve(import.meta.dirname, '../../../../server/features/integrations/charts');
const schemaOf = (chart: string) => asSchema(JSON.parse(fs.readFileSync(path.join(chartsDir, chart, 'values.schema.json'), 'utf8')));
const chart = { name: 'mission-control-prometheus', version: '0.1.1', repository: { name: 'flanksource', url: 'https://flanksource.github.io/charts' } };

describe('GitOps wizard model', () => {
  it('starts from the schema defaults, leaving out empty ones so a required field without a default is missing', () => {
    expect(defaultValues(schemaOf('mission-control-prometheus'))).toEqual({
      prometheusURL: 'http://prometheus.monitoring.svc:9090',
      topologyName: 'prometheus',
      prometheusNamespace: 'monitoring',
    });
    const azure = schemaOf('mission-control-azure');
    const values = defaultValues(azure);
    expect(values).toMatchObject({ scraper: { name: 'azure' } });
    expect(values.subscriptionID).toBeUndefined();
    expect(valueProblems(values, azure).map((problem) => `${problem.path.join('.')}: ${problem.message}`)).toEqual(['subscriptionID: is required', 'tenantID: is required']);
  });

  it('every shipped chart has a schema the form can start from, and a Chart.yaml whose name is its folder', () => {
    for (const name of fs.readdirSync(chartsDir)) {
      const schema = schemaOf(name);
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
      const meta = parse(fs.readFileSync(path.join(chartsDir, name, 'Chart.yaml'), 'utf8')) as { name: string; version: string };
      expect(meta.name).toBe(name);
      expect(meta.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(GITOPS_ITEMS.map((item) => item.chart).sort()).toEqual(fs.readdirSync(chartsDir).sort());
  });

  it('sets and clears nested values; a section left empty goes', () => {
    const set = setIn({}, ['scraper', 'name'], 'aws');
    expect(set).toEqual({ scraper: { name: 'aws' } });
    expect(setIn(set, ['scraper', 'name'], undefined)).toEqual({});
  });

  it('checks the Values text against the schema, each problem by path and placed in the text', () => {
    const schema = schemaOf('mission-control-prometheus');
    const text = 'prometheusURL: 42\ntopologyName: ""\n';
    const parsed = parseValues(text, schema);
    expect(parsed.diagnostics.map((d) => d.message)).toEqual(['prometheusURL: must be text', 'topologyName: is required']);
    expect(text.slice(parsed.diagnostics[0]?.from, parsed.diagnostics[0]?.to)).toBe('42');
    expect(parseValues('a: [', schema).values).toBeNull();
    expect(parseValues('- a\n', schema).diagnostics[0]?.message).toBe('The values must be a mapping (key: value)');
    expect(parseValues(valuesToYaml(defaultValues(schema)), schema).diagnostics).toEqual([]);
    // An enum: only its options.
    const agent = schemaOf('mission-control-agent');
    expect(parseValues('upstream: {host: "https://u", agentName: a}\nglobal: {logLevel: loud}\n', agent).diagnostics.map((d) => d.message)).toEqual(['global.logLevel: must be one of: , -v, -vv, -vvv']);
  });

  it('renders the Flux HelmRepository and HelmRelease (interval 30m) and the Helm CLI commands with the values', () => {
    const values = { prometheusURL: 'http://p:9090', topologyName: 'obs' };
    const docs = fluxYaml(chart, 'mission-control', values).split('---\n').map((text) => parse(text) as Record<string, unknown>);
    expect(docs[0]).toEqual({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'HelmRepository', metadata: { name: 'flanksource', namespace: 'mission-control' }, spec: { interval: '30m', url: 'https://flanksource.github.io/charts' } });
    expect(docs[1]).toMatchObject({
      kind: 'HelmRelease',
      metadata: { name: 'mission-control-prometheus', namespace: 'mission-control' },
      spec: { interval: '30m', chart: { spec: { chart: 'mission-control-prometheus', version: '0.1.1', sourceRef: { kind: 'HelmRepository', name: 'flanksource' } } }, values },
    });
    const helm = helmCommands(chart, 'ops', values);
    expect(helm.split('\n')[0]).toBe('helm repo add flanksource https://flanksource.github.io/charts');
    expect(helm).toContain("cat > values.yaml <<'EOF'\nprometheusURL: http://p:9090\ntopologyName: obs\nEOF");
    expect(helm.endsWith('helm install mission-control-prometheus flanksource/mission-control-prometheus --version 0.1.1 -n ops --create-namespace -f values.yaml')).toBe(true);
  });

  it('checks the namespace as a Kubernetes name', () => {
    expect(namespaceProblem('mission-control')).toBeUndefined();
    expect(namespaceProblem('')).toBe('This field is required');
    expect(namespaceProblem('Bad_NS')).toMatch(/lowercase/);
  });

  it('searches the Add Integration items by every word', () => {
    expect(matchItems(GITOPS_ITEMS, 'prom').map((item) => item.label)).toEqual(['Prometheus']);
    expect(matchItems([...GITOPS_ITEMS, ...DIRECT_ITEMS], 'topology').map((item) => item.label)).toEqual(['Prometheus', 'Kubernetes', 'Custom Topology']);
    expect(matchItems(GITOPS_ITEMS, 'no such thing')).toEqual([]);
  });
});
