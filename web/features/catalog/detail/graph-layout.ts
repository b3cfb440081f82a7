/**
 * A layered layout of an item's related items: ancestors and what relates to it (incoming) in columns to
 * the left, one column per step; its children and what it relates to (outgoing) to the right. Within a
 * column, items are ordered by type and name. Edges follow the walk: each item is linked to the items it
 * was reached from, pointing from parent to child (left to right).
 */

export const NODE_WIDTH = 208;
export const NODE_HEIGHT = 48;
export const GAP_X = 72;
export const GAP_Y = 16;

export interface GraphInput {
  id: string;
  name: string | null;
  type: string;
  depth: number;
  direction: 'incoming' | 'outgoing';
  related_ids: readonly string[];
}

export interface PlacedNode<T> {
  id: string;
  /** The layer: 0 is the item shown, negative incoming, positive outgoing. */
  layer: number;
  x: number;
  y: number;
  item: T;
}

export interface GraphEdge {
  from: string;
  to: string;
}

export interface GraphLayout<R, T> {
  root: PlacedNode<R>;
  nodes: PlacedNode<T>[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

const byTypeAndName = (a: { type: string; name: string | null }, b: { type: string; name: string | null }) =>
  a.type.localeCompare(b.type) || (a.name ?? '').localeCompare(b.name ?? '');

export function layoutGraph<R extends { id: string }, T extends GraphInput>(root: R, related: readonly T[]): GraphLayout<R, T> {
  const items = related.filter((item) => item.id !== root.id);
  const layerOf = (item: T) => (item.direction === 'incoming' ? -item.depth : item.depth);
  const layers = new Map<number, T[]>();
  for (const item of items) layers.set(layerOf(item), [...(layers.get(layerOf(item)) ?? []), item]);
  const minLayer = Math.min(0, ...layers.keys());
  const maxLayer = Math.max(0, ...layers.keys());
  const tallest = Math.max(1, ...[...layers.values()].map((list) => list.length));
  const columnHeight = (count: number) => count * NODE_HEIGHT + (count - 1) * GAP_Y;
  const height = columnHeight(tallest);
  const x = (layer: number) => (layer - minLayer) * (NODE_WIDTH + GAP_X);
  // Each column is centred vertically, so the item shown sits in the middle of its neighbours.
  const top = (count: number) => (height - columnHeight(count)) / 2;

  const nodes: PlacedNode<T>[] = [];
  for (const [layer, list] of [...layers.entries()].sort(([a], [b]) => a - b)) {
    const start = top(list.length);
    [...list].sort(byTypeAndName).forEach((item, index) => nodes.push({ id: item.id, layer, x: x(layer), y: start + index * (NODE_HEIGHT + GAP_Y), item }));
  }
  const placed = new Set([root.id, ...nodes.map((node) => node.id)]);
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    for (const from of item.related_ids) {
      if (!placed.has(from) || from === item.id) continue;
      const edge = item.direction === 'outgoing' ? { from, to: item.id } : { from: item.id, to: from };
      const key = `${edge.from}>${edge.to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push(edge);
    }
  }
  return {
    root: { id: root.id, layer: 0, x: x(0), y: top(1), item: root },
    nodes,
    edges,
    width: x(maxLayer) + NODE_WIDTH,
    height,
  };
}

/** An SVG path from one node to another: right side to left side, curving (or looping within a column). */
export function edgePath(from: { x: number; y: number }, to: { x: number; y: number }): string {
  const fy = from.y + NODE_HEIGHT / 2;
  const ty = to.y + NODE_HEIGHT / 2;
  if (to.x > from.x) {
    const sx = from.x + NODE_WIDTH;
    const mid = (sx + to.x) / 2;
    return `M ${sx} ${fy} C ${mid} ${fy}, ${mid} ${ty}, ${to.x} ${ty}`;
  }
  if (to.x < from.x) {
    const sx = from.x;
    const tx = to.x + NODE_WIDTH;
    const mid = (sx + tx) / 2;
    return `M ${sx} ${fy} C ${mid} ${fy}, ${mid} ${ty}, ${tx} ${ty}`;
  }
  const side = from.x + NODE_WIDTH;
  const bulge = side + GAP_X / 2;
  return `M ${side} ${fy} C ${bulge} ${fy}, ${bulge} ${ty}, ${side} ${ty}`;
}
