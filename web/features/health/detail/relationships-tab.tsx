import { Boxes, FileCog } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import type { Relationship } from '../api/schema';

export interface Relationships {
  components: Relationship[];
  configs: Relationship[];
}

export function relationshipCount(relationships: Relationships | undefined): number {
  return relationships ? relationships.components.length + relationships.configs.length : 0;
}

/** 'orders-db (Database)', or 'Config <id>' when the item is gone or unnamed. */
function described(kind: string, id: string, related: Relationship['components']): string {
  if (!related?.name) return `${kind} ${id}`;
  return related.type ? `${related.name} (${related.type})` : related.name;
}

/** Spec §2: related items link to /topology/{id} or /catalog/{id}. */
export function RelationshipsTab({ relationships, loading, error }: { relationships: Relationships | undefined; loading: boolean; error: Error | null }) {
  if (loading) return <Loading className="py-8" />;
  if (error) return <p role="alert" className="text-sm text-red-600">{error.message}</p>;
  if (!relationships || relationshipCount(relationships) === 0) {
    return <EmptyState className="py-8" description="This check is not related to any component or config." />;
  }
  const item = (to: string, label: string, Icon: typeof Boxes) => (
    <li key={to}>
      <Link to={to} className="inline-flex items-center gap-2 text-sm text-blue-700 hover:underline">
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </Link>
    </li>
  );
  return (
    <ul className="flex flex-col gap-1.5">
      {relationships.components.map((row) => (row.component_id ? item(`/topology/${row.component_id}`, described('Component', row.component_id, row.components), Boxes) : null))}
      {relationships.configs.map((row) => (row.config_id ? item(`/catalog/${row.config_id}`, described('Config', row.config_id, row.config_items), FileCog) : null))}
    </ul>
  );
}
