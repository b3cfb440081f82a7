import { ResponseError, type UiNode } from '@ory/client-fetch';
import { json } from '../../../../test/http-client';

/** An attribute of a UI node, whatever its type. */
export function attr(node: UiNode, key: string): unknown {
  const attributes: unknown = node.attributes;
  return attributes && typeof attributes === 'object' && key in attributes ? Reflect.get(attributes, key) : undefined;
}

/** The csrf_token a browser flow's form carries. */
export function csrf(flow: { ui: { nodes: UiNode[] } }): string {
  const node = flow.ui.nodes.find((item) => attr(item, 'name') === 'csrf_token');
  return node ? String(attr(node, 'value') ?? '') : '';
}

/** Awaits a call that must fail, answering the status and JSON body of its error. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError) return { status: error.response.status, body: await json(error.response) };
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** The Kratos error id of an error body. */
export function errorId(body: Record<string, unknown>): unknown {
  const error = body.error;
  return error && typeof error === 'object' && 'id' in error ? error.id : undefined;
}
