import { Fragment, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { defaultNodes, groupsOf, initialValues, isInputNode, labelOf, nodesOfGroup, submitBody, type InputNode } from '../kratos/nodes';
import type { Flow, UiNode, UiText } from '../kratos/schema';
import { notice } from '../kratos/texts';
import { runCeremony, webAuthnAction } from '../kratos/webauthn';
import { FlowNode, isDestructive } from './flow-node';

type Values = Record<string, string | boolean>;

export interface GroupForm {
  group: string;
  element: ReactNode;
}

export interface FlowFormsProps {
  flow: Flow;
  busy: boolean;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  /** Shows (or clears) a message above the forms, e.g. a cancelled security key prompt. */
  onNotice: (message: UiText | undefined) => void;
  /** Values to fill in before the person types (e.g. the username from the URL). */
  initial?: Values;
  /** Arranges the group forms; the default stacks them with an "or" between. */
  layout?: (forms: GroupForm[]) => ReactNode;
}

function ceremonyText(error: unknown): string {
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The security key or passkey prompt was closed or timed out. Try again.';
  if (error instanceof Error && error.message) return `The security key or passkey could not be used: ${error.message}`;
  return 'The security key or passkey could not be used.';
}

function stacked(forms: GroupForm[]): ReactNode {
  return (
    <div className="flex flex-col gap-5">
      {forms.map((form, index) => (
        <Fragment key={form.group}>
          {index > 0 ? (
            <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-200" />
              or
              <span className="h-px flex-1 bg-slate-200" />
            </div>
          ) : null}
          {form.element}
        </Fragment>
      ))}
    </div>
  );
}

interface GroupFormViewProps {
  group: string;
  nodes: UiNode[];
  values: Values;
  busy: boolean;
  onChange: (name: string, value: string | boolean) => void;
  onSubmitNode: (node: InputNode) => void;
  onTrigger: (node: InputNode) => void;
  canTrigger: (node: InputNode) => boolean;
}

/** One method's form. The clicked submit button's own name and value are posted (several are named `method`). */
function GroupFormView({ group, nodes, values, busy, onChange, onSubmitNode, onTrigger, canTrigger }: GroupFormViewProps) {
  const clicked = useRef<InputNode | undefined>(undefined);
  const [confirming, setConfirming] = useState<InputNode | undefined>();
  const firstSubmit = nodes.filter(isInputNode).find((node) => node.attributes.type === 'submit');
  return (
    <form
      data-group={group}
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const node = clicked.current ?? firstSubmit;
        clicked.current = undefined;
        if (!node) return;
        if (isDestructive(node)) setConfirming(node);
        else onSubmitNode(node);
      }}
    >
      {nodes.map((node, index) => (
        <FlowNode
          key={`${isInputNode(node) ? node.attributes.name : node.attributes.node_type}-${index}`}
          node={node}
          value={isInputNode(node) ? values[node.attributes.name] : undefined}
          onChange={onChange}
          busy={busy}
          onSubmitClick={(submit) => {
            clicked.current = submit;
          }}
          onTrigger={isInputNode(node) && canTrigger(node) ? onTrigger : undefined}
        />
      ))}
      <ConfirmDialog
        open={confirming !== undefined}
        onOpenChange={(open) => {
          if (!open) setConfirming(undefined);
        }}
        title={confirming ? labelOf(confirming) : ''}
        description="This cannot be undone. You will no longer be able to use it to sign in."
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={busy}
        onConfirm={() => {
          if (confirming) onSubmitNode(confirming);
          setConfirming(undefined);
        }}
      />
    </form>
  );
}

/**
 * Renders a flow's `ui.nodes` grouped: one form per method group (password, totp, lookup_secret,
 * webauthn, passkey, code, profile…), each posting the `default` group too (csrf_token, identifier),
 * so the required fields of one method never block another's submit. Visible default inputs (the
 * identifier) are shown once, in the first form.
 */
export function FlowForms({ flow, busy, onSubmit, onNotice, initial, layout = stacked }: FlowFormsProps) {
  const nodes = flow.ui.nodes;
  const [values, setValues] = useState<Values>(() => ({ ...initialValues(nodes), ...initial }));
  const [ceremony, setCeremony] = useState(false);
  const working = busy || ceremony;
  const onChange = (name: string, value: string | boolean) => setValues((current) => ({ ...current, [name]: value }));

  const submitNode = (group: string) => (node: InputNode) => {
    void onSubmit(submitBody(nodes, group, values, { [node.attributes.name]: node.attributes.value ?? '' }));
  };
  const trigger = (group: string) => async (node: InputNode) => {
    const action = webAuthnAction(node, nodes);
    if (!action) return;
    onNotice(undefined);
    setCeremony(true);
    let result: string;
    try {
      result = await runCeremony(action);
    } catch (error) {
      onNotice(notice(ceremonyText(error)));
      return;
    } finally {
      setCeremony(false);
    }
    await onSubmit(submitBody(nodes, group, values, { [action.field]: result, method: action.method }));
  };
  const canTrigger = (node: InputNode) => webAuthnAction(node, nodes) !== undefined;

  const defaults = defaultNodes(nodes);
  const forms = groupsOf(nodes).map((group, index) => ({
    group,
    element: (
      <GroupFormView
        group={group}
        nodes={group === 'default' ? defaults.visible : [...(index === 0 ? defaults.visible : []), ...nodesOfGroup(nodes, group)]}
        values={values}
        busy={working}
        onChange={onChange}
        onSubmitNode={submitNode(group)}
        onTrigger={(node) => void trigger(group)(node)}
        canTrigger={canTrigger}
      />
    ),
  }));
  return layout(forms);
}
