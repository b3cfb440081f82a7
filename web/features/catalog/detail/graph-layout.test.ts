import { describe, expect, it } from 'vitest';
import { edgePath, GAP_X, layoutGraph, NODE_HEIGHT, NODE_WIDTH, type GraphInput } from './graph-layout';

const item = (id: string, direction: 'incoming' | 'outgoing', depth: number, related_ids: string[], type = 'T', name: string | null = id): GraphInput => ({
  id,
  name,
  type,
  depth,
  direction,
  related_ids,
});

describe('layoutGraph', () => {
  it('puts incoming items left of the item and outgoing ones right, a column per step', () => {
    const layout = layoutGraph({ id: 'pod' }, [
      item('rs', 'incoming', 1, ['pod']),
      item('deploy', 'incoming', 2, ['rs']),
      item('node', 'outgoing', 1, ['pod']),
    ]);
    const x = (id: string) => layout.nodes.find((node) => node.id === id)?.x;
    const step = NODE_WIDTH + GAP_X;
    expect(x('deploy')).toBe(0);
    expect(x('rs')).toBe(step);
    expect(layout.root.x).toBe(2 * step);
    expect(x('node')).toBe(3 * step);
    expect(layout.width).toBe(3 * step + NODE_WIDTH);
    // Edges point from parent to child: deploy → rs → pod, pod → node.
    expect(layout.edges).toEqual([
      { from: 'rs', to: 'pod' },
      { from: 'deploy', to: 'rs' },
      { from: 'pod', to: 'node' },
    ]);
  });

  it('orders a column by type then name, and centres shorter columns', () => {
    const layout = layoutGraph({ id: 'ns' }, [
      item('b', 'outgoing', 1, ['ns'], 'Pod', 'b'),
      item('a', 'outgoing', 1, ['ns'], 'Pod', 'a'),
      item('d', 'outgoing', 1, ['ns'], 'Deployment', 'z'),
    ]);
    expect(layout.nodes.map((node) => node.id)).toEqual(['d', 'a', 'b']);
    expect(layout.nodes.map((node) => node.y)).toEqual([0, 64, 128]);
    expect(layout.height).toBe(3 * NODE_HEIGHT + 2 * 16);
    expect(layout.root.y).toBe(64);
  });

  it('leaves out edges to items not in the graph, repeats and the item itself', () => {
    const layout = layoutGraph({ id: 'x' }, [item('x', 'outgoing', 1, ['x']), item('y', 'outgoing', 1, ['x', 'gone', 'x', 'y'])]);
    expect(layout.nodes.map((node) => node.id)).toEqual(['y']);
    expect(layout.edges).toEqual([{ from: 'x', to: 'y' }]);
  });

  it('is just the item when nothing is related', () => {
    const layout = layoutGraph({ id: 'alone' }, []);
    expect(layout).toMatchObject({ nodes: [], edges: [], width: NODE_WIDTH, height: NODE_HEIGHT, root: { x: 0, y: 0 } });
  });
});

describe('edgePath', () => {
  it('runs from the right side of one node to the left side of the next', () => {
    expect(edgePath({ x: 0, y: 0 }, { x: 280, y: 64 })).toBe(`M ${NODE_WIDTH} 24 C 244 24, 244 88, 280 88`);
  });
  it('loops out on the right within one column', () => {
    expect(edgePath({ x: 0, y: 0 }, { x: 0, y: 64 })).toMatch(/^M 208 24 C 244 24, 244 88, 208 88$/);
  });
});
