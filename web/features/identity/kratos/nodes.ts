import type { InputAttributes, UiNode } from './schema';

/** An input node, with its attributes narrowed. */
export type InputNode = UiNode & { attributes: InputAttributes };

export function isInputNode(node: UiNode): node is InputNode {
  return node.attributes.node_type === 'input';
}

/** Inputs a person types into (their value lives in the form's state, not in the node). */
export function isEditable(node: InputNode): boolean {
  return !['hidden', 'submit', 'button'].includes(node.attributes.type);
}

/** The label Kratos gives a node, falling back to its name. */
export function labelOf(node: UiNode): string {
  if (node.meta.label?.text) return node.meta.label.text;
  if (isInputNode(node)) return node.attributes.name;
  return '';
}

/** A node value as text for an input (numbers and booleans as Kratos would print them). */
export function textValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/**
 * The groups of a flow in the order they first appear, each rendered as its own form (so the required
 * fields of one method never block another's submit). The `default` group (csrf_token, identifier…) is
 * not a form of its own: every form carries it. A flow with only default nodes is one form.
 */
export function groupsOf(nodes: readonly UiNode[]): string[] {
  const groups: string[] = [];
  for (const node of nodes) {
    if (node.group === 'default' || groups.includes(node.group)) continue;
    groups.push(node.group);
  }
  return groups.length > 0 ? groups : ['default'];
}

/** The nodes one form renders: its group's, after the visible default nodes when it shows them. */
export function nodesOfGroup(nodes: readonly UiNode[], group: string): UiNode[] {
  return nodes.filter((node) => node.group === group);
}

/** Default-group nodes every form submits (the hidden csrf_token) and the ones only one form shows. */
export function defaultNodes(nodes: readonly UiNode[]): { hidden: InputNode[]; visible: UiNode[] } {
  const hidden: InputNode[] = [];
  const visible: UiNode[] = [];
  for (const node of nodes) {
    if (node.group !== 'default') continue;
    if (isInputNode(node) && node.attributes.type === 'hidden') hidden.push(node);
    else visible.push(node);
  }
  return { hidden, visible };
}

/** Initial state of the typed-in inputs: the values the server filled in. */
export function initialValues(nodes: readonly UiNode[]): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const node of nodes) {
    if (!isInputNode(node) || !isEditable(node)) continue;
    values[node.attributes.name] = node.attributes.type === 'checkbox' ? node.attributes.value === true : textValue(node.attributes.value);
  }
  return values;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Sets `traits.name.first` as `{ traits: { name: { first } } }`, as Kratos reads JSON bodies. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop();
  if (last === undefined || [...parts, last].some((part) => part === '' || FORBIDDEN_KEYS.has(part))) return;
  let current = target;
  for (const part of parts) {
    const next = current[part];
    if (isRecord(next)) {
      current = next;
    } else {
      const created: Record<string, unknown> = {};
      current[part] = created;
      current = created;
    }
  }
  current[last] = value;
}

/**
 * The JSON body of one form: the hidden default inputs (csrf_token), the visible default inputs, the
 * group's inputs, then `extra`: the clicked button's own name and value (several buttons are named
 * `method`), or what a WebAuthn ceremony produced.
 */
export function submitBody(
  nodes: readonly UiNode[],
  group: string,
  values: Readonly<Record<string, string | boolean>>,
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const node of nodes) {
    if (!isInputNode(node) || (node.group !== 'default' && node.group !== group)) continue;
    const { name, type } = node.attributes;
    if (type === 'submit' || type === 'button') continue;
    if (type === 'hidden') setPath(body, name, node.attributes.value ?? '');
    else if (Object.hasOwn(values, name)) setPath(body, name, values[name]);
    else setPath(body, name, type === 'checkbox' ? node.attributes.value === true : textValue(node.attributes.value));
  }
  for (const [name, value] of Object.entries(extra)) setPath(body, name, value);
  return body;
}
