import { useId } from 'react';
import { Link } from 'react-router';
import { cn } from '@web/ui/primitives/cn';
import type { ConfigDetail, RelatedConfig } from '../api/schema';
import { ConfigHealthDot } from '../components/config-health';
import { ConfigIcon } from '../components/config-icon';
import { configHref, configName } from '../components/config-link';
import { edgePath, layoutGraph, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './graph-layout';

type Root = Pick<ConfigDetail, 'id' | 'name' | 'type' | 'health' | 'deleted_at'>;

function NodeBody({ item }: { item: { name: string | null; type: string; health: RelatedConfig['health'] } }) {
  return (
    <>
      <ConfigIcon type={item.type} className="size-5" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate text-sm font-medium">{configName(item)}</span>
        <span className="truncate text-xs text-slate-500">{item.type}</span>
      </span>
      <ConfigHealthDot health={item.health} />
    </>
  );
}

const nodeClass = 'absolute flex items-center gap-2 rounded-md border bg-white px-2 shadow-sm';

/**
 * The related items as a layered graph (graph-layout.ts): every item a link to its page, in reading
 * order by column, so Tab walks the graph from its left to its right.
 */
export function RelationshipGraph({ root, related }: { root: Root; related: readonly RelatedConfig[] }) {
  const markerId = useId();
  const layout = layoutGraph(root, related);
  const position = new Map<string, { x: number; y: number }>([[layout.root.id, layout.root], ...layout.nodes.map((node): [string, PlacedNode<RelatedConfig>] => [node.id, node])]);
  return (
    <div className="overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-4" role="group" aria-label="Relationship graph">
      <div className="relative" style={{ width: layout.width, height: layout.height }}>
        <svg width={layout.width} height={layout.height} className="absolute inset-0" aria-hidden="true">
          <defs>
            <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" className="fill-slate-400" />
            </marker>
          </defs>
          {layout.edges.map((edge) => {
            const from = position.get(edge.from);
            const to = position.get(edge.to);
            return from && to ? <path key={`${edge.from}>${edge.to}`} d={edgePath(from, to)} fill="none" className="stroke-slate-400" strokeWidth={1.5} markerEnd={`url(#${markerId})`} /> : null;
          })}
        </svg>
        <div
          aria-current="page"
          title={`${root.type}: ${configName(root)}`}
          className={cn(nodeClass, 'border-blue-500 text-slate-900 ring-2 ring-blue-200')}
          style={{ left: layout.root.x, top: layout.root.y, width: NODE_WIDTH, height: NODE_HEIGHT }}
        >
          <NodeBody item={root} />
        </div>
        {layout.nodes.map((node) => (
          <Link
            key={node.id}
            to={configHref(node.id)}
            title={`${node.item.type}: ${configName(node.item)} (${node.item.direction}, depth ${node.item.depth})`}
            className={cn(
              nodeClass,
              'border-slate-300 text-slate-800 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
              node.item.deleted_at && 'border-dashed opacity-60',
            )}
            style={{ left: node.x, top: node.y, width: NODE_WIDTH, height: NODE_HEIGHT }}
          >
            <NodeBody item={node.item} />
          </Link>
        ))}
      </div>
    </div>
  );
}
