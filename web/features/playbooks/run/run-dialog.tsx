import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '@web/lib/api';
import { toastErrorText } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { FilterSelect } from '@web/ui/filter-select';
import { Loading } from '@web/ui/primitives/loading';
import { useRunParams, useRunPlaybook } from '../api/playbooks';
import type { PlaybookParam } from '../api/schema';
import { fieldKey, initialValue, paramsBody, paramsProblems, paramWaits, targetKinds, targetQuery, targetTypes, type RunTarget, type TargetKind } from '../model/params';
import { runPath } from '../paths';
import { ParamField } from './param-field';
import { SearchPicker } from './search-picker';

/** Spec §8 empty texts of the dialog. */
export const NO_PARAMETERS_TEXT = 'No parameters for this playbook.';
export const SELECT_RESOURCE_TEXT = 'Please select a resource to see the parameters.';

export interface RunDialogPlaybook {
  id: string;
  name: string;
  title?: string | null | undefined;
  /** The spec, when known: its configs, components and checks selectors ask for a resource to run on. */
  spec?: Record<string, unknown> | null | undefined;
}

export interface RunDialogProps {
  playbook: RunDialogPlaybook;
  /** The resource it is run on, when the page already knows it (a catalog item's run menu). */
  target?: RunTarget | undefined;
  onClose: () => void;
}

const KIND_LABELS: Record<TargetKind, string> = { config: 'Config item', component: 'Component', check: 'Check' };

/** The field keys of a server refusal's details (path body.params.<name>), with their messages. */
function serverFieldErrors(error: unknown, params: readonly PlaybookParam[]): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.data || typeof error.data !== 'object') return {};
  const details: unknown = Reflect.get(error.data, 'details');
  if (!Array.isArray(details)) return {};
  const out: Record<string, string> = {};
  for (const detail of details) {
    if (!detail || typeof detail !== 'object') continue;
    const path: unknown = Reflect.get(detail, 'path');
    const message: unknown = Reflect.get(detail, 'message');
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const name = path.replace(/^body\.params\./, '');
    const index = params.findIndex((param) => param.name === name);
    if (index >= 0 && name !== path) out[fieldKey(index)] = message;
  }
  return out;
}

interface ParamsFormProps {
  playbook: RunDialogPlaybook;
  target: RunTarget | undefined;
  params: readonly PlaybookParam[];
  /** False while a resource is still to be chosen. */
  ready: boolean;
  onClose: () => void;
  children?: React.ReactNode;
}

/**
 * The parameter form and the Run button. Messages follow spec §5: shown once a field is touched,
 * checked on change and on blur; Run is disabled while any value is invalid (or while running).
 */
function ParamsForm({ playbook, target, params, ready, onClose, children }: ParamsFormProps) {
  const navigate = useNavigate();
  const run = useRunPlaybook();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(params.map((param, index) => [fieldKey(index), initialValue(param)])));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // A refusal's messages stay on their fields until the value changes.
  const [server, setServer] = useState<Record<string, string>>({});
  const problems = paramsProblems(params, values);
  const valid = Object.keys(problems).length === 0;
  const canRun = ready && playbook.id !== '' && valid && !run.isPending;
  const touch = (key: string) => setTouched((current) => (current.has(key) ? current : new Set(current).add(key)));

  const submit = () => {
    if (!canRun) return;
    run.mutate(
      { id: playbook.id, ...targetQuery(target), params: paramsBody(params, values) },
      {
        onSuccess: (answer) => {
          onClose();
          void navigate(runPath(answer.run_id));
        },
        onError: (error) => {
          setServer(serverFieldErrors(error, params));
          setTouched(new Set(params.map((_, index) => fieldKey(index))));
        },
      },
    );
  };

  return (
    <form
      noValidate
      aria-label="Run parameters"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="flex flex-col gap-4"
    >
      {children}
      {ready && params.length > 0 ? (
        <div className="flex flex-col gap-3">
          {params.map((param, index) => {
            const key = fieldKey(index);
            if (paramWaits(params, values, index)) return null;
            return (
              <ParamField
                key={key}
                param={param}
                value={values[key] ?? ''}
                disabled={run.isPending}
                onChange={(value) => {
                  setValues((current) => ({ ...current, [key]: value }));
                  setServer(({ [key]: _dropped, ...rest }) => rest);
                }}
                onBlur={() => touch(key)}
                error={touched.has(key) ? (server[key] ?? problems[key]) : undefined}
              />
            );
          })}
        </div>
      ) : null}
      {ready && params.length === 0 ? <p className="text-sm text-slate-600">{NO_PARAMETERS_TEXT}</p> : null}
      {run.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {toastErrorText(run.error)}
        </p>
      ) : null}
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-3">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={!canRun}>
          {run.isPending ? 'Running...' : 'Run'}
        </Button>
      </div>
    </form>
  );
}

/** The parameters, fetched for the chosen resource, then the form (keyed, so a new resource starts afresh). */
function ParamsSection({ playbook, target, needsTarget, onClose, children }: { playbook: RunDialogPlaybook; target: RunTarget | undefined; needsTarget: boolean; onClose: () => void; children?: React.ReactNode }) {
  const ready = !needsTarget || target !== undefined;
  const params = useRunParams(playbook.id, target, ready);
  if (!ready) {
    return (
      <ParamsForm key="no-target" playbook={playbook} target={target} params={[]} ready={false} onClose={onClose}>
        {children}
        <p className="text-sm text-slate-600">{SELECT_RESOURCE_TEXT}</p>
      </ParamsForm>
    );
  }
  if (params.isPending) {
    return (
      <div className="flex flex-col gap-4">
        {children}
        <Loading />
      </div>
    );
  }
  if (params.error) {
    return (
      <div className="flex flex-col gap-4">
        {children}
        <p role="alert" className="text-sm text-red-600">
          {toastErrorText(params.error)}
        </p>
        <div className="flex justify-end">
          <Button onClick={onClose}>Close</Button>
        </div>
      </div>
    );
  }
  return (
    <ParamsForm key={target?.id ?? 'none'} playbook={playbook} target={target} params={params.data.params} ready onClose={onClose}>
      {children}
    </ParamsForm>
  );
}

/**
 * Spec §2 and §4 Run dialog: a resource to run on when the playbook targets some and none is given, the
 * parameters by type, then Run ('Running...' while it is asked); it ends on /playbooks/runs/{run_id}.
 */
export function RunDialog({ playbook, target, onClose }: RunDialogProps) {
  const kinds = target ? [] : targetKinds(playbook.spec);
  const [kind, setKind] = useState<TargetKind | undefined>(kinds[0]);
  const [picked, setPicked] = useState<RunTarget | undefined>(undefined);
  const chosen = target ?? picked;
  const title = playbook.title?.trim() || playbook.name;
  const picker =
    kinds.length > 0 && kind ? (
      <div className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3">
        {kinds.length > 1 ? (
          <FilterSelect
            label="Run on"
            value={kind}
            options={kinds.map((value) => ({ value, label: KIND_LABELS[value] }))}
            onChange={(next) => {
              const found = kinds.find((candidate) => candidate === next);
              if (found) {
                setKind(found);
                setPicked(undefined);
              }
            }}
          />
        ) : null}
        <SearchPicker
          key={kind}
          source={{ kind, types: targetTypes(playbook.spec, kind) }}
          label={KIND_LABELS[kind]}
          required
          value={picked ? { id: picked.id, name: picked.name ?? picked.id } : null}
          onChange={(next) => setPicked(next ? { kind, id: next.id, name: next.name } : undefined)}
        />
      </div>
    ) : null;
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={`Run ${title}`} description={target?.name ? `On ${target.name}` : undefined} size="small">
      <ParamsSection playbook={playbook} target={chosen} needsTarget={kinds.length > 0} onClose={onClose}>
        {picker}
      </ParamsSection>
    </Dialog>
  );
}
