import { describe, expect, it } from 'vitest';
import { mapResult, mappingSchema } from './mapping';

const map = (config: unknown, mapping: Record<string, unknown>) => mapResult({ config }, mappingSchema.parse(mapping), 'spec.file[0]');

describe('mapping', () => {
  it('maps fields from JSONPath, CEL, literals and labels', () => {
    const item = map(
      { id: 7, title: 'Checkout', up: false, zone: 'eu', metadata: { labels: { team: 'web' } } },
      { type: 'App', id: '$.id', name: '$.title', health: { expr: "config.up ? 'healthy' : 'unhealthy'" }, tags: { zone: '$.zone', owner: 'web' }, class: { label: 'team' } },
    );
    expect(item).toMatchObject({ type: 'App', externalIds: ['7'], name: 'Checkout', health: 'unhealthy', tags: { zone: 'eu', owner: 'web' }, configClass: 'web' });
  });

  it('keeps what transform.expr answers as the config', () => {
    const item = map({ id: 'a', secret: 's3cret', spec: { size: 3 } }, { type: 'Box', id: '$.id', transform: { expr: "{'id': config.id, 'size': config.spec.size}" } });
    expect(item.config).toEqual({ id: 'a', size: 3 });
  });

  it('refuses a transform.expr that does not answer a map', () => {
    expect(() => map({ id: 'a' }, { type: 'Box', id: '$.id', transform: { expr: "'text'" } })).toThrow(/transform\.expr: must answer a map/);
  });

  it('says which field is missing', () => {
    expect(() => map({ name: 'x' }, { type: 'Box' })).toThrow('spec.file[0].id: is required (a JSONPath such as $.id)');
    expect(() => map({ id: 'x' }, { id: '$.id' })).toThrow(/spec\.file\[0\]\.type: is required/);
  });
});
