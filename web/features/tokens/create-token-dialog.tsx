import { zodResolver } from '@hookform/resolvers/zod';
import type { TokenObject, TokenPreset } from '@common/rbac';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { EXPIRY_CHOICES, expiryChoiceOf, firstExpiryDate } from './expiry';
import { useCreateToken } from './queries';
import type { CreatedToken } from './schema';
import { ScopeFields } from './scope-fields';
import { McpSetupDialog } from './mcp-setup-dialog';
import { applyLevel, presetObjectActions } from './scopes';
import { TokenCreatedDialog } from './token-created-dialog';
import { createPayload, initialPreset, initialValues, MCP_SCOPE_REQUIRED, SCOPE_REQUIRED, tokenFormSchema, type TokenDialogMode, type TokenFormValues } from './token-form';

export interface CreateTokenDialogProps {
  /** 'mcp': Setup MCP (starts on Custom with only mcp:* on, needs mcp:*; success shows the client configuration). */
  mode?: TokenDialogMode;
  /** Called when the person is done: the form was cancelled, or the one-time token dialog closed. */
  onClose: () => void;
}

/** Said beside a disabled Create, per missing piece (worded apart from the fields' own messages). */
export const CREATE_BLOCKED = {
  name: 'Enter a name to create the token',
  expiry: 'Choose an expiry date after today to create the token',
  scope: 'Choose at least one scope to create the token',
  mcp: 'Set MCP to Admin to create an MCP token',
} as const;

/** Why Create cannot be pressed: the name, the expiry, then the scopes; undefined when it can. */
function blockedReason(parsed: ReturnType<typeof tokenFormSchema.safeParse>, scopeError: string | undefined): string | undefined {
  const failing = (field: string) => !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === field);
  if (failing('name')) return CREATE_BLOCKED.name;
  if (failing('expiry')) return CREATE_BLOCKED.expiry;
  if (scopeError === MCP_SCOPE_REQUIRED) return CREATE_BLOCKED.mcp;
  return scopeError === undefined ? undefined : CREATE_BLOCKED.scope;
}

/**
 * Spec §2 'Create new token' dialog (name, expiry, scopes), then the one-time 'Token Created
 * Successfully' dialog. Rendered while open; the caller unmounts it on `onClose`.
 */
export function CreateTokenDialog({ mode = 'default', onClose }: CreateTokenDialogProps) {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  if (created) return mode === 'mcp' ? <McpSetupDialog token={created} onClose={onClose} /> : <TokenCreatedDialog token={created} onClose={onClose} />;
  return <TokenForm mode={mode} onCancel={onClose} onCreated={setCreated} />;
}

function TokenForm({ mode, onCancel, onCreated }: { mode: TokenDialogMode; onCancel: () => void; onCreated: (token: CreatedToken) => void }) {
  const create = useCreateToken();
  const formId = useId();
  const [preset, setPreset] = useState<TokenPreset>(initialPreset(mode));
  const form = useForm<TokenFormValues, unknown, TokenFormValues>({
    resolver: zodResolver(tokenFormSchema),
    // Spec §5: messages once a field is touched, then on every change.
    mode: 'onTouched',
    defaultValues: initialValues(mode),
  });
  const { errors } = form.formState;
  const objectActions = useWatch({ control: form.control, name: 'objectActions' });
  const expiry = useWatch({ control: form.control, name: 'expiry' });
  const name = useWatch({ control: form.control, name: 'name' });
  const choice = expiryChoiceOf(expiry);
  // A record's own error is not reachable through formState's types; the rule is simple to restate.
  const hasScope = Object.values(objectActions).some(Boolean);
  const scopeError = !hasScope ? SCOPE_REQUIRED : mode === 'mcp' && objectActions['mcp:*'] !== true ? MCP_SCOPE_REQUIRED : undefined;
  // Spec §5: Create is disabled while the form is invalid; the first reason is said beside it, also
  // before a field was touched (a grey button alone does not say what is missing).
  const blocked = blockedReason(tokenFormSchema.safeParse({ name, expiry, objectActions }), scopeError);
  const reasonId = useId();

  const setFlags = (next: TokenFormValues['objectActions']) => form.setValue('objectActions', next, { shouldValidate: true, shouldDirty: true });
  const choosePreset = (next: TokenPreset) => {
    setPreset(next);
    setFlags(presetObjectActions(next));
  };
  const chooseLevel = (object: TokenObject, level: string) => {
    // Spec §4: editing a level leaves the preset behind.
    setPreset('Custom');
    setFlags(applyLevel(objectActions, object, level));
  };

  const submit = form.handleSubmit(async (values) => {
    onCreated(await create.mutateAsync(createPayload(values)));
  });
  const busy = create.isPending || form.formState.isSubmitting;

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && !busy && onCancel()}
      title={mode === 'mcp' ? 'Setup MCP' : 'Create new token'}
      size="medium"
      footer={
        <>
          {blocked && !busy ? (
            <p id={reasonId} className="mr-auto text-xs text-slate-600">
              {blocked}
            </p>
          ) : null}
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" disabled={blocked !== undefined || busy} aria-describedby={blocked && !busy ? reasonId : undefined}>
            {busy ? 'Creating...' : 'Create Token'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="flex flex-col gap-5"
        onSubmit={(event) => {
          // A failure already toasted (useCreateToken); the form stays to retry.
          submit(event).catch(() => undefined);
        }}
      >
        <Field label="Name" markRequired required placeholder="e.g. ci-pipeline" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Select
            label="Expiry"
            value={choice}
            options={EXPIRY_CHOICES}
            onValueChange={(next) => form.setValue('expiry', next === 'custom' ? '' : next, { shouldValidate: true, shouldDirty: true })}
          />
          {choice === 'custom' ? (
            <Field
              label="Expires on"
              type="date"
              min={firstExpiryDate()}
              // Picking 'Custom date' leaves the date empty: no message until the person has been there.
              error={expiry !== '' || form.formState.touchedFields.expiry ? errors.expiry?.message : undefined}
              {...form.register('expiry')}
            />
          ) : null}
        </div>
        {mode === 'mcp' ? (
          <p className="text-sm text-slate-600">
            With only MCP on, an assistant using this token acts through MCP with your own permissions. Set the levels below to narrow it to them.
          </p>
        ) : null}
        <ScopeFields preset={preset} objectActions={objectActions} onPresetChange={choosePreset} onLevelChange={chooseLevel} error={scopeError} />
      </form>
    </Dialog>
  );
}
