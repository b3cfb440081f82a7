import { z } from 'zod';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { Field } from '@web/ui/primitives/field';
import { isEditable, labelOf, textValue, type InputNode } from '../kratos/nodes';
import { uiTextSchema, type UiNode, type UiText } from '../kratos/schema';

export interface FlowNodeProps {
  node: UiNode;
  value: string | boolean | undefined;
  onChange: (name: string, value: string | boolean) => void;
  busy: boolean;
  /** A submit button was pressed (it posts its own name and value). */
  onSubmitClick: (node: InputNode) => void;
  /** A WebAuthn button was pressed; undefined when the node is not one the console can run. */
  onTrigger: ((node: InputNode) => void) | undefined;
}

const joined = (messages: readonly UiText[], type: UiText['type'] | 'other') =>
  messages
    .filter((message) => (type === 'other' ? message.type !== 'error' : message.type === type))
    .map((message) => message.text)
    .join(' ') || undefined;

/** Buttons that remove a credential: they ask for confirmation first. */
export function isDestructive(node: InputNode): boolean {
  const name = node.attributes.name;
  return name.endsWith('_remove') || name === 'totp_unlink' || name === 'lookup_secret_disable';
}

function SubmitButton({ node, busy, onSubmitClick }: { node: InputNode; busy: boolean; onSubmitClick: (node: InputNode) => void }) {
  const { name, value, disabled } = node.attributes;
  const primary = name === 'method';
  return (
    <Button
      type="submit"
      variant={primary ? 'primary' : isDestructive(node) ? 'danger' : 'secondary'}
      name={name}
      value={textValue(value)}
      disabled={busy || disabled}
      // Only the form's own method button needs its required fields (not "Resend code" and the like).
      formNoValidate={!primary}
      onClick={() => onSubmitClick(node)}
      className={cn(primary && 'w-full')}
    >
      {labelOf(node)}
    </Button>
  );
}

function InputFlowNode({ node, value, onChange, busy, onSubmitClick, onTrigger }: FlowNodeProps & { node: InputNode }) {
  const attributes = node.attributes;
  if (attributes.type === 'hidden') return null;
  if (attributes.type === 'submit') return <SubmitButton node={node} busy={busy} onSubmitClick={onSubmitClick} />;
  if (attributes.type === 'button') {
    if (!onTrigger) return null;
    return (
      <Button type="button" variant="secondary" className="w-full" disabled={busy || attributes.disabled} onClick={() => onTrigger(node)}>
        {labelOf(node)}
      </Button>
    );
  }
  if (!isEditable(node)) return null;
  const error = joined(node.messages, 'error');
  const hint = joined(node.messages, 'other');
  if (attributes.type === 'checkbox') {
    return (
      <div className="flex flex-col gap-1">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            name={attributes.name}
            checked={value === true}
            required={attributes.required}
            disabled={busy || attributes.disabled}
            onChange={(event) => onChange(attributes.name, event.target.checked)}
            className="size-4 rounded border-slate-300"
          />
          {labelOf(node)}
        </label>
        {error ? (
          <p role="alert" className="text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Field
      label={labelOf(node)}
      type={attributes.type}
      name={attributes.name}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(attributes.name, event.target.value)}
      required={attributes.required}
      autoComplete={attributes.autocomplete}
      pattern={attributes.pattern}
      maxLength={attributes.maxlength}
      disabled={attributes.disabled}
      readOnly={busy}
      {...(error ? { error } : {})}
      {...(hint ? { hint } : {})}
    />
  );
}

const secretsSchema = z.array(uiTextSchema);

function TextFlowNode({ node }: { node: UiNode }) {
  if (node.attributes.node_type !== 'text') return null;
  const { id, text } = node.attributes;
  const secrets = secretsSchema.safeParse(text.context?.secrets);
  const label = node.meta.label?.text;
  return (
    <div className="flex flex-col gap-1.5">
      {label ? <p className="text-sm text-slate-600">{label}</p> : null}
      {secrets.success && secrets.data.length > 0 ? (
        // Backup codes: one per cell, easy to copy or print.
        <ul id={id} data-testid={id} className="grid grid-cols-2 gap-1.5 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm text-slate-900 sm:grid-cols-3">
          {secrets.data.map((secret, index) => (
            <li key={`${secret.text}-${index}`}>{secret.text}</li>
          ))}
        </ul>
      ) : id === 'totp_secret_key' || text.context?.secret !== undefined ? (
        <code id={id} data-testid={id} className="select-all break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900">
          {text.text}
        </code>
      ) : (
        <p id={id} data-testid={id} className="text-sm text-slate-700">
          {text.text}
        </p>
      )}
    </div>
  );
}

/** One `ui.nodes` entry: an input, a submit or WebAuthn button, a text (secret key, backup codes), an image (QR code) or a link. */
export function FlowNode(props: FlowNodeProps) {
  const { node } = props;
  const attributes = node.attributes;
  switch (attributes.node_type) {
    case 'input':
      return <InputFlowNode {...props} node={{ ...node, attributes }} />;
    case 'text':
      return <TextFlowNode node={node} />;
    case 'img':
      return (
        <figure className="flex flex-col items-center gap-1">
          <img id={attributes.id} src={attributes.src} width={attributes.width} height={attributes.height} alt={labelOf(node) || attributes.id} className="rounded-md border border-slate-200" />
          {node.meta.label ? <figcaption className="text-xs text-slate-500">{node.meta.label.text}</figcaption> : null}
        </figure>
      );
    case 'a':
      return (
        <a id={attributes.id} href={attributes.href} className={cn(buttonBase, 'h-9 w-full bg-blue-600 px-4 text-sm text-white hover:bg-blue-700')}>
          {attributes.title.text}
        </a>
      );
    default:
      // Scripts and divisions are never rendered (the CSP forbids inline script anyway).
      return null;
  }
}
