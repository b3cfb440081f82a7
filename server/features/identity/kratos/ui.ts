/**
 * Ory Kratos UI containers: what a self-service flow tells its client to render. Shapes follow the
 * Kratos public API (`ui.nodes` with `attributes.node_type`), so Kratos clients render them as-is.
 */

export type MessageType = 'info' | 'error' | 'success';

export interface UiText {
  id: number;
  text: string;
  type: MessageType;
  context?: Record<string, unknown>;
}

export type NodeGroup = 'default' | 'password' | 'profile' | 'code' | 'totp' | 'lookup_secret' | 'webauthn' | 'passkey' | 'oidc';

export interface InputAttributes {
  node_type: 'input';
  name: string;
  type: 'text' | 'password' | 'number' | 'checkbox' | 'hidden' | 'email' | 'tel' | 'submit' | 'button' | 'datetime-local' | 'date' | 'url';
  value?: unknown;
  required?: boolean;
  disabled: boolean;
  autocomplete?: string;
  pattern?: string;
  maxlength?: number;
  onclick?: string;
  onclickTrigger?: string;
}

export interface TextAttributes {
  node_type: 'text';
  id: string;
  text: UiText;
}

export interface ImageAttributes {
  node_type: 'img';
  id: string;
  src: string;
  width: number;
  height: number;
}

export interface AnchorAttributes {
  node_type: 'a';
  id: string;
  href: string;
  title: UiText;
}

export type NodeAttributes = InputAttributes | TextAttributes | ImageAttributes | AnchorAttributes;

export interface UiNode {
  type: NodeAttributes['node_type'];
  group: NodeGroup;
  attributes: NodeAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

export interface UiContainer {
  action: string;
  method: 'POST';
  nodes: UiNode[];
  messages?: UiText[];
}

export interface InputOptions {
  value?: unknown;
  required?: boolean;
  autocomplete?: string;
  label?: UiText;
  pattern?: string;
  maxlength?: number;
  onclick?: string;
  onclickTrigger?: string;
  disabled?: boolean;
}

export function input(group: NodeGroup, name: string, type: InputAttributes['type'], options: InputOptions = {}): UiNode {
  const attributes: InputAttributes = { node_type: 'input', name, type, disabled: options.disabled ?? false };
  if (options.value !== undefined) attributes.value = options.value;
  if (options.required) attributes.required = true;
  if (options.autocomplete) attributes.autocomplete = options.autocomplete;
  if (options.pattern) attributes.pattern = options.pattern;
  if (options.maxlength) attributes.maxlength = options.maxlength;
  if (options.onclick) attributes.onclick = options.onclick;
  if (options.onclickTrigger) attributes.onclickTrigger = options.onclickTrigger;
  return { type: 'input', group, attributes, messages: [], meta: options.label ? { label: options.label } : {} };
}

export function text(group: NodeGroup, id: string, content: UiText, label?: UiText): UiNode {
  return { type: 'text', group, attributes: { node_type: 'text', id, text: content }, messages: [], meta: label ? { label } : {} };
}

export function image(group: NodeGroup, id: string, src: string, size: number, label?: UiText): UiNode {
  return { type: 'img', group, attributes: { node_type: 'img', id, src, width: size, height: size }, messages: [], meta: label ? { label } : {} };
}

export function anchor(group: NodeGroup, id: string, href: string, title: UiText): UiNode {
  return { type: 'a', group, attributes: { node_type: 'a', id, href, title }, messages: [], meta: {} };
}

export function csrfNode(token: string): UiNode {
  return input('default', 'csrf_token', 'hidden', { value: token, required: true });
}

/** The name of an input node, or undefined for other nodes. */
export function nodeName(node: UiNode): string | undefined {
  return node.attributes.node_type === 'input' ? node.attributes.name : undefined;
}

/** Adds a message to the input named `name` (a field error), returning the nodes. */
export function withFieldMessage(nodes: UiNode[], name: string, message: UiText): UiNode[] {
  return nodes.map((node) => (nodeName(node) === name ? { ...node, messages: [...node.messages, message] } : node));
}

/** Re-fills inputs with what the person typed (never passwords or codes). */
export function withValues(nodes: UiNode[], values: Record<string, unknown>): UiNode[] {
  return nodes.map((node) => {
    const attributes = node.attributes;
    if (attributes.node_type !== 'input' || attributes.type === 'password' || attributes.type === 'submit' || attributes.type === 'hidden' || attributes.type === 'button') return node;
    if (!Object.hasOwn(values, attributes.name)) return node;
    return { ...node, attributes: { ...attributes, value: values[attributes.name] } };
  });
}
