import type { EmbedItem } from '../ast';
import { PgrstError, noRelationship } from '../errors';
import type { Join, Schema } from '../schema';

/**
 * Which declared relationship an embed means. `agents(…)` names the target relation; `created_by(…)`
 * names a foreign-key column of the parent (PostgREST's embedding by column); `!hint` picks among
 * several by relationship name or by one of the joined columns.
 */
export function resolveJoin(schema: Schema, parent: string, item: EmbedItem): Join {
  const joins = schema.joins(parent);
  let candidates = joins.filter((join) => join.target === item.relation);
  if (candidates.length === 0) {
    candidates = joins.filter((join) => join.cardinality === 'one' && join.on.length === 1 && join.on[0]?.[0] === item.relation);
  }
  const hint = item.hint;
  const matching = hint === undefined ? candidates : candidates.filter((join) => join.name === hint || join.on.some(([ours, theirs]) => ours === hint || theirs === hint));
  const [first, ...rest] = matching;
  if (!first) throw noRelationship(parent, item.relation, hint);
  if (rest.length > 0) {
    const options = matching.map((join) => `'${item.relation}!${join.name}'`).join(', ');
    throw new PgrstError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent}' and '${item.relation}'`,
      matching.map((join) => `${join.name}: ${join.cardinality === 'one' ? 'many-to-one' : 'one-to-many'} on (${join.on.map(([a, b]) => `${a} = ${b}`).join(', ')})`).join('; '),
      `Try changing '${item.relation}' to one of the following: ${options}. Find the desired relationship in the 'details' key.`,
    );
  }
  return first;
}
