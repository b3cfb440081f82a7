import type pg from 'pg';
import { chunks, keyOf, type Planned } from './store-plan';
import type { ItemRef, RelationshipSelector } from './types';

/** References between scraped items: parents and relationships by type and external id, paths, selectors. */

/** Finds items by type and external id (or by id alone for refs with `anyType`): this run's first, then the catalog (not deleted). */
export class Resolver {
  private readonly known = new Map<string, { id: string; path: string | undefined }>();
  private readonly looked = new Map<string, { id: string; path: string } | null>();
  /** By external id alone, the first item seen with it (this run's, then the catalog's). */
  private readonly knownById = new Map<string, { id: string; path: string | undefined }>();
  private readonly lookedById = new Map<string, { id: string; path: string }>();

  constructor(plans: Planned[]) {
    for (const plan of plans) {
      for (const externalId of plan.item.externalIds) {
        const found = { id: plan.id, path: undefined };
        this.known.set(keyOf(plan.item.type, externalId), found);
        if (!this.knownById.has(externalId)) this.knownById.set(externalId, found);
      }
    }
  }

  /** Loads every reference not found in this run with one query. */
  async prefetch(client: pg.PoolClient, refs: ItemRef[]): Promise<void> {
    const missing = refs.filter((ref) => !this.known.has(keyOf(ref.type, ref.externalId)) && !this.looked.has(keyOf(ref.type, ref.externalId)));
    if (missing.length === 0) return;
    for (const ref of missing) this.looked.set(keyOf(ref.type, ref.externalId), null);
    for (const part of chunks([...new Set(missing.map((ref) => ref.externalId))])) {
      const { rows } = await client.query<{ id: string; type: string; external_id: string[]; path: string }>(
        'SELECT id, type, external_id, path FROM config_items WHERE external_id && $1::text[] AND deleted_at IS NULL ORDER BY created_at',
        [part],
      );
      for (const row of rows) {
        for (const externalId of row.external_id) {
          const key = keyOf(row.type, externalId);
          if (this.looked.get(key) === null) this.looked.set(key, { id: row.id, path: row.path });
          if (!this.lookedById.has(externalId)) this.lookedById.set(externalId, { id: row.id, path: row.path });
        }
      }
    }
  }

  find(ref: ItemRef): { id: string; path: string | undefined } | undefined {
    const key = keyOf(ref.type, ref.externalId);
    // This run's items first: the same object may also be in the catalog from another scraper.
    const thisRun = this.known.get(key) ?? (ref.anyType ? this.knownById.get(ref.externalId) : undefined);
    return thisRun ?? this.looked.get(key) ?? (ref.anyType ? this.lookedById.get(ref.externalId) : undefined) ?? undefined;
  }
}

/** A dotted path of ancestor ids for every planned item (parents planned in this run resolved first). */
export function assignPaths(plans: Planned[], external: Map<string, string>): void {
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  const done = new Set<string>();
  const visit = (plan: Planned, depth: number): string => {
    if (done.has(plan.id) || depth > 50) return plan.path;
    done.add(plan.id);
    if (!plan.parentId) plan.path = '';
    else {
      const parent = byId.get(plan.parentId);
      const parentPath = parent ? visit(parent, depth + 1) : (external.get(plan.parentId) ?? '');
      plan.path = parentPath ? `${parentPath}.${plan.parentId}` : plan.parentId;
      // A cycle through parents (bad data): cut it here.
      if (plan.path.split('.').includes(plan.id)) {
        plan.parentId = null;
        plan.path = '';
      }
    }
    return plan.path;
  };
  for (const plan of plans) visit(plan, 0);
}

/** transform.relationship rules: matched against this run's items and, one query per distinct selector, the catalog. */
export async function resolveSelectors(
  client: pg.PoolClient,
  plans: Planned[],
  externalPaths: Map<string, string>,
  addEdge: (from: string, to: string, relation: string, selector: string) => void,
): Promise<void> {
  const selectorKey = (s: RelationshipSelector) => JSON.stringify([s.id ?? null, s.type ?? null, s.name ?? null, s.namespace ?? null, s.labels ?? null]);
  const bySelector = new Map<string, { selector: RelationshipSelector; owners: Array<{ plan: Planned; rule: RelationshipSelector }> }>();
  for (const plan of plans) {
    for (const selector of plan.item.selectors) {
      const key = selectorKey(selector);
      const entry = bySelector.get(key) ?? { selector, owners: [] };
      entry.owners.push({ plan, rule: selector });
      bySelector.set(key, entry);
    }
  }
  if (bySelector.size === 0) return;
  const matchesPlan = (s: RelationshipSelector, plan: Planned) =>
    (s.id === undefined || plan.item.externalIds.includes(s.id) || plan.id === s.id) &&
    (s.type === undefined || plan.item.type.toLowerCase() === s.type.toLowerCase()) &&
    (s.name === undefined || plan.item.name === s.name) &&
    (s.namespace === undefined || plan.item.namespace === s.namespace) &&
    (s.labels === undefined || Object.entries(s.labels).every(([key, value]) => plan.item.labels[key] === value)) &&
    !plan.item.deletedAt;
  for (const { selector, owners } of bySelector.values()) {
    const { rows } = await client.query<{ id: string; path: string }>(
      `SELECT id, path FROM config_items WHERE deleted_at IS NULL
         AND ($1::text IS NULL OR $1 = ANY(external_id) OR id::text = $1)
         AND ($2::text IS NULL OR lower(type) = lower($2))
         AND ($3::text IS NULL OR name = $3)
         AND ($4::text IS NULL OR namespace = $4)
         AND ($5::jsonb IS NULL OR labels @> $5)
       LIMIT 1000`,
      [selector.id ?? null, selector.type ?? null, selector.name ?? null, selector.namespace ?? null, selector.labels ? JSON.stringify(selector.labels) : null],
    );
    const targets = new Map<string, string | undefined>(rows.map((row) => [row.id, row.path]));
    for (const plan of plans) if (matchesPlan(selector, plan)) targets.set(plan.id, undefined);
    for (const { plan: owner, rule } of owners) {
      for (const [id, path] of targets) {
        if (id === owner.id) continue;
        if (rule.parent && owner.parentId === null) {
          owner.parentId = id;
          if (path !== undefined) externalPaths.set(id, path);
        } else addEdge(owner.id, id, rule.relation, rule.rule);
      }
    }
  }
}
