import type { Action, Resource } from '../../../common/rbac';
import type { KubeKind } from '../../platform/kube-kinds';

export type { KubeColumn, KubeKind, KubeRow } from '../../platform/kube-kinds';

/** The resource a request's action needs on the kind. */
export function rbacOf(kind: KubeKind, action: Action): Resource {
  return action === 'read' ? kind.rbac : (kind.writeRbac ?? kind.rbac);
}

/** `canaries.flanksource.com/v1`, or `v1` for the core group. */
export function apiVersionOf(kind: KubeKind): string {
  return kind.group ? `${kind.group}/${kind.version}` : kind.version;
}

/** How Kubernetes names a resource in messages: `canaries.canaries.flanksource.com`, or `secrets` in the core group. */
export function qualifiedName(kind: KubeKind): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}

let served: readonly KubeKind[] = [];
let groups: readonly string[] = [];

/**
 * The kinds the API serves: each feature's `Feature.kubeKinds`, handed over by server/app.ts when it composes
 * the app (docs/ARCHITECTURE.md "Layers"). Another app in the process hands the same list again.
 */
export function useKubeKinds(kinds: readonly KubeKind[]): void {
  const seen = new Set<string>();
  for (const kind of kinds) {
    // The served apiVersion must be one the kind accepts from `apply`: a mismatch is a programming error.
    if (!kind.resourceKind.apiVersions.includes(apiVersionOf(kind))) throw new Error(`${kind.kind}: ${apiVersionOf(kind)} is not among its apiVersions`);
    const key = `${kind.group}/${kind.plural}`;
    if (seen.has(key)) throw new Error(`kube: two kinds serve ${key}`);
    seen.add(key);
  }
  served = [...kinds];
  groups = [...new Set(served.map((kind) => kind.group))].filter(Boolean);
}

/** Every kind served, in the order the features gave them. */
export function kubeKinds(): readonly KubeKind[] {
  return served;
}

/** The API groups under /apis (the core group '' is /api/v1). */
export function kubeGroups(): readonly string[] {
  return groups;
}

/** The kind a URL's resource names: plural, singular or a short name, in that group ('' for /api/v1). */
export function kindOf(group: string, resource: string): KubeKind | undefined {
  const name = resource.toLowerCase();
  return served.find((kind) => kind.group === group && (kind.plural === name || kind.singular === name || kind.shortNames.includes(name)));
}
