/**
 * What a resource names that does not exist yet (migration 0041 `waiting_for`, docs/RESOURCES.md "References
 * to what does not exist yet"): the field, the kind of object and the reference as written. The server fills
 * it at apply and empties it when the object is created; the console shows it.
 */
export interface WaitingReference {
  /** The field that names it: `spec.subject.person`, `spec.to.connection`, `spec.object.scopes[0]`. */
  path: string;
  kind: string;
  /** As written (an email, a team name, `namespace/name`). */
  ref: string;
}

/** A waiting_for value read defensively (it is database JSON). */
export function waitingReferences(value: unknown): WaitingReference[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const path: unknown = Reflect.get(item, 'path');
    const kind: unknown = Reflect.get(item, 'kind');
    const ref: unknown = Reflect.get(item, 'ref');
    return typeof path === 'string' && typeof kind === 'string' && typeof ref === 'string' ? [{ path, kind, ref }] : [];
  });
}

/** `team "night-shift" (spec.to.team), connection "ops/pager" (spec.to.connection)`. */
export function waitingText(references: readonly WaitingReference[]): string {
  return references.map((item) => `${item.kind} "${item.ref}" (${item.path})`).join(', ');
}
