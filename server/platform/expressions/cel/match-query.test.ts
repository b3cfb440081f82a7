import { describe, expect, it } from 'vitest';
import { checkCel, evaluateCel } from '../cel';
import type { ExpressionError } from '../errors';
import { matchItems, parseResourceQuery } from '../shared/match-query';

/**
 * Mission Control's `matchQuery(.check, "…")` in notification filters: the leading-dot name (cel-go's
 * root scope) and duty's search query grammar, written from duty's documented cases.
 */
const variables = {
  check: { name: 'api-health', type: 'http', status: 'unhealthy', labels: { 'Expected-Fail': 'true', team: 'Payments' } },
  config: {
    id: '2f1c4c2e-1111-4c4c-9c9c-000000000001',
    name: 'my-app',
    type: 'Kubernetes::Deployment',
    status: 'Running',
    health: 'healthy',
    ready: true,
    tags: { cluster: 'prod', namespace: 'shop', 'cost-center': 'engineering' },
    labels: { 'app.kubernetes.io/name': 'my-app' },
    properties: [{ name: 'os', text: 'linux' }, { name: 'replicas', value: 3 }, { name: 'cpu', text: '2000m' }],
  },
  component: { name: 'azure-demo', namespace: 'mission-control', type: 'Workload', properties: [{ name: 'os', text: 'linux' }], labels: { owner: 'data-team', environment: 'production' } },
};

const run = (expression: string) => evaluateCel('spec.filter', expression, variables);

describe('CEL leading-dot names (root scope, as cel-go reads them)', () => {
  it.each([
    ['.check.name', 'api-health'],
    ['matchQuery(.check, "type=http")', true],
    ['[.config.name, .check.name].size()', 2],
    ['true ? .config.name : .check.name', 'my-app'],
    ["'a.b' + \".c\" + .config.name", 'a.b.cmy-app'],
    ['.config.tags.cluster == "prod" && !(.check.type in ["tcp"])', true],
    ['"http" in [.check.type]', true],
  ])('%s', (expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('keeps selections and numbers as they are, and the column of a problem right', () => {
    expect(run('double(config.properties[1].value) + .5 + 1.25')).toBe(4.75);
    let error: ExpressionError | undefined;
    try {
      checkCel('spec.filter', 'matchQuery(.check, "type=(")');
    } catch (caught) {
      error = caught as ExpressionError;
    }
    expect(error?.position).toEqual({ line: 1, column: 20 });
  });
});

describe('matchQuery: duty\'s search grammar', () => {
  it.each([
    // Mission Control's notification fixtures' three forms.
    ['matchQuery(.check, "type!=http labels.Expected-Fail!=true")', false],
    ['matchQuery(.check, "type!=tcp labels.Expected-Fail!=false")', true],
    ['matchQuery(.component, "type=Workload properties.os=linux labels.owner=data-team labels.environment=production")', true],
    ['matchQuery(.component, "type=Workload properties.os=windows")', false],
    ['matchQuery(.config, "type=Kubernetes::Pod,Kubernetes::Deployment name!=postgres tags.cluster=prod")', true],
    ['matchQuery(.config, "type=Kubernetes::Pod,Kubernetes::StatefulSet")', false],
    // Patterns: case-insensitive; prefix, suffix and contains wildcards; exclusions.
    ['matchQuery(config, "name=MY-APP")', true],
    ['matchQuery(config, "name=*y-app*")', true],
    ['matchQuery(config, "type=*Deployment")', true],
    ['matchQuery(config, "type=Kubernetes*")', true],
    ['matchQuery(config, "name=!my-app")', false],
    ['matchQuery(config, "name=!other")', true],
    ['matchQuery(config, "name=")', false],
    ['matchQuery(config, "nonexistent=value")', false],
    // Keys: tags, labels (with dots and slashes), properties by name, top-level fields as text.
    ['matchQuery(config, "tags.cost-center=engineering tags.namespace=shop")', true],
    ['matchQuery(config, "labels.app.kubernetes.io/name=my*")', true],
    ['matchQuery(config, "properties.cpu=2000* properties.replicas=3")', true],
    ['matchQuery(config, "properties.replicas>2 properties.replicas<=3")', true],
    ['matchQuery(config, "properties.replicas>3")', false],
    ['matchQuery(config, "ready=true status=Run*")', true],
    ['matchQuery(config, "namespace=shop")', true],
    ['matchQuery(component, "namespace=*control")', true],
    // Existence of a label, tag or property.
    ['matchQuery(config, "tags.cluster")', true],
    ['matchQuery(config, "!tags.cluster")', false],
    ['matchQuery(config, "!labels.account properties.os")', true],
    ['matchQuery(config, "properties.nonexistent")', false],
    // Bare words are name prefixes; -word excludes; | is either; quotes hold spaces.
    ['matchQuery(config, "my")', true],
    ['matchQuery(config, "-my")', false],
    ['matchQuery(config, "name=other | tags.cluster=prod")', true],
    ['matchQuery(config, "(name=other | name=my-app) type=Kubernetes::Deployment")', true],
    ['matchQuery(config, "status!=\\"Not Ready\\"")', true],
  ])('%s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('refuses a literal query that does not parse when the expression is compiled', () => {
    expect(() => checkCel('spec.filter', 'matchQuery(config, "name=\\"unterminated")')).toThrow(/unterminated " at 6/);
    expect(() => checkCel('spec.filter', 'matchQuery(config, "(name=a")')).toThrow(/expected \) at/);
  });

  it('reads the tree: terms, operators and values', () => {
    expect(parseResourceQuery('type!=http labels.Expected-Fail!=true')).toEqual({
      kind: 'and',
      nodes: [
        { kind: 'field', field: 'type', op: '!=', value: 'http' },
        { kind: 'field', field: 'labels.Expected-Fail', op: '!=', value: 'true' },
      ],
    });
    expect(parseResourceQuery('api')).toEqual({ kind: 'name', pattern: 'api*', negate: false });
  });

  it('matches items as flanksource/commons does', () => {
    expect(matchItems('prod', [])).toBe(true);
    expect(matchItems('prod', ['!dev'])).toBe(true);
    expect(matchItems('prod', ['!dev', 'staging'])).toBe(false);
    expect(matchItems('prod', ['*'])).toBe(true);
    expect(matchItems('pr od', ['pr%20od'])).toBe(true);
  });
});
