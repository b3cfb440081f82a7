import type pg from 'pg';
import { z } from 'zod';
import type { Resource } from '../../../common/rbac';
import { mayAllowSome } from '../../platform/auth/decide';
import type { AccessTarget, Actor } from '../../platform/auth/types';
import { AppError } from '../../platform/http/errors';
import { type FoundResource, RESOURCE_KINDS, type ResourceKind, searchResources, valueFilter } from '../catalog';
import { canaryTargets, componentTarget, configTarget, itemScoped, mayRead, offsetOf, page, paged, stringMap, tool } from './tools-common';

/** The search syntax of /api/resources/search caps a selector at 1,000 rows. */
const SEARCH_MAX = 1000;

/** What reading each kind needs, and the target kind its permission rows select (as /api/resources/search and the features' routes). */
const KINDS: Record<ResourceKind, { resource: Resource; target: AccessTarget['kind'] }> = {
  configs: { resource: 'config_scrapers', target: 'config' },
  checks: { resource: 'canaries', target: 'canary' },
  components: { resource: 'topologies', target: 'component' },
  playbooks: { resource: 'playbooks', target: 'playbook' },
  connections: { resource: 'connections', target: 'connection' },
};
/** The order kinds are listed in (the catalog first: most questions are about it). */
const ORDER: readonly ResourceKind[] = ['configs', 'checks', 'components', 'playbooks', 'connections'];

type Found = FoundResource & { kind: ResourceKind };

/** Each found row judged as the resource it is; checks through their canary. */
async function readable(pool: pg.Pool, actor: Actor, kind: ResourceKind, rows: FoundResource[]): Promise<FoundResource[]> {
  // Without permission rows on single resources, the kind-level decision holds for every row.
  if (!itemScoped(actor)) return rows;
  const { resource } = KINDS[kind];
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (kind === 'checks') {
    const canaries = await canaryTargets(pool, rows.map((row) => row.id));
    return rows.filter((row) => mayRead(actor, resource, canaries.get(row.id)));
  }
  return rows.filter((row) => {
    switch (kind) {
      case 'configs':
        return mayRead(actor, resource, configTarget({ id: row.id, name: row.name, type: row.type, tags: row.tags, agent_id: str(row.agent_id) ?? null }));
      case 'components':
        return mayRead(actor, resource, componentTarget({ id: row.id, name: row.name, type: row.type, labels: row.tags, agent_id: str(row.agent_id) ?? null }));
      case 'playbooks':
        return mayRead(actor, resource, { kind: 'playbook', id: row.id, name: row.name ?? '', ...(str(row.namespace) ? { namespace: str(row.namespace) } : {}) });
      default: {
        const labels = stringMap(row.tags);
        return mayRead(actor, resource, { kind: 'connection', id: row.id, name: row.name ?? '', type: row.type, labels, tags: labels, ...(str(row.namespace) ? { namespace: str(row.namespace) } : {}) });
      }
    }
  });
}

/** What an answer says of each kind: compact, never a connection's URL or credentials. */
function present(row: Found): Record<string, unknown> {
  const base = { kind: row.kind.replace(/s$/, ''), id: row.id, name: row.name, type: row.type };
  switch (row.kind) {
    case 'configs':
    case 'components':
      return { ...base, health: row.health, status: row.status };
    case 'checks':
      return { ...base, namespace: row.namespace, status: row.status };
    case 'playbooks':
      return { ...base, namespace: row.namespace, title: row.title === '' ? undefined : row.title };
    default:
      return { ...base, namespace: row.namespace };
  }
}

export const searchResourcesTool = tool({
  name: 'search_resources',
  description: 'Find config items, checks, components, playbooks and connections by name words, type and tags.',
  input: {
    query: z.string().max(500).optional().describe('name words, or key=value terms (name, type, namespace, health, status; other keys are tags)'),
    kinds: z.array(z.enum(RESOURCE_KINDS)).min(1).max(5).optional().describe('default: all'),
    type: z.string().max(255).optional().describe('e.g. Kubernetes::Pod'),
    tags: z.string().max(2000).optional().describe('key=value,key!=value'),
    ...paged,
  },
  // Each kind needs read on its own resource, decided below; kinds the caller cannot read are skipped.
  needs: [],
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const wanted = ORDER.filter((kind) => !args.kinds || args.kinds.includes(kind));
    const skipped = wanted.filter((kind) => !mayAllowSome(actor, KINDS[kind].resource, 'read', KINDS[kind].target));
    const selector = { ...(args.query ? { search: args.query } : {}), ...(args.type ? { types: valueFilter(args.type) } : {}), ...(args.tags ? { tag_selector: args.tags } : {}) };
    const need = offset + args.limit + 1;
    if (need > SEARCH_MAX) throw new AppError('invalid_request', `cursor: search pages end at ${SEARCH_MAX} items of a kind; narrow the query`);
    /** A kind's first `need` rows the caller may read: read more while rows were dropped and more exist. */
    const kindRows = async (kind: ResourceKind): Promise<Found[]> => {
      let size = need;
      for (;;) {
        const rows = (await searchResources(ctx.pool, { [kind]: [{ ...selector, limit: size }] }))[kind];
        const kept = await readable(ctx.pool, actor, kind, rows);
        if (kept.length >= need || rows.length < size || size === SEARCH_MAX) return kept.slice(0, need).map((row) => ({ ...row, kind }));
        size = Math.min(SEARCH_MAX, size * 4);
      }
    };
    // The kinds are read side by side (a call costs its slowest kind, not their sum) and listed one after another.
    const found = (await Promise.all(wanted.filter((kind) => !skipped.includes(kind)).map(kindRows))).flat();
    const items = found.slice(offset).map(present);
    return { ...page(items, offset, args.limit), ...(skipped.length > 0 ? { skipped } : {}) };
  },
});
