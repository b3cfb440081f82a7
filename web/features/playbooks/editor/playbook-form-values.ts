import { z } from 'zod';
import { DEFAULT_NAMESPACE, isRecord, parseResourceYaml, resourceToYaml, type ParsedYaml, type ResourceDocument, type YamlKind } from '@web/features/canaries/model/document';
import { parseProblemPath } from '@web/features/canaries/model/document';
import type { FormCodec } from '@web/features/canaries/editor/spec-editor';
import { REQUIRED } from '@web/lib/validation';
import { isOneOf } from '@common/guards';

/** kind: Playbook (mission-control.flanksource.com/v1). */
export const PLAYBOOK_YAML: YamlKind = {
  apiVersion: 'mission-control.flanksource.com/v1',
  kind: 'Playbook',
  noun: 'playbook',
  specHint: 'the actions, and optionally parameters, the resources it runs on and triggers',
  leadingKeys: ['title', 'description', 'category', 'icon', 'timeout', 'parameters', 'configs', 'components', 'checks', 'filters', 'approval', 'on', 'env', 'actions'],
};

/** The action types a playbook may name (server/features/playbooks/spec.ts ACTION_TYPES). */
export const ACTION_TYPES = ['exec', 'http', 'sql', 'notification', 'logs', 'gitops', 'github', 'azureDevopsPipeline', 'prometheus', 'ai', 'pod', 'report'] as const;
/** The one field of each type the form edits; everything else of the action is kept as written. */
export const MAIN_FIELDS: Readonly<Record<string, { key: string; label: string; multiline: boolean }>> = {
  exec: { key: 'script', label: 'Script', multiline: true },
  http: { key: 'url', label: 'URL', multiline: false },
  sql: { key: 'query', label: 'Query', multiline: true },
  notification: { key: 'title', label: 'Title', multiline: false },
};
export const FORM_ACTION_TYPES = Object.keys(MAIN_FIELDS);

const pair = z.object({ name: z.string(), value: z.string() });
const actionValue = z.object({ name: z.string(), type: z.string(), main: z.string(), rest: z.record(z.string(), z.unknown()) });
export type ActionFormValue = z.infer<typeof actionValue>;

/** Spec §5: the name is required; each action needs a name and (for the types the form edits) its main field. */
export const playbookFormSchema = z.object({
  name: z.string().trim().min(1, REQUIRED),
  namespace: z.string(),
  labels: z.array(pair).superRefine((labels, ctx) => {
    labels.forEach((label, index) => {
      if (label.name.trim() === '' && label.value.trim() !== '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
    });
  }),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  icon: z.string(),
  actions: z.array(actionValue).superRefine((actions, ctx) => {
    actions.forEach((action, index) => {
      if (action.name.trim() === '') ctx.addIssue({ code: 'custom', path: [index, 'name'], message: REQUIRED });
      if (MAIN_FIELDS[action.type] && action.main.trim() === '') ctx.addIssue({ code: 'custom', path: [index, 'main'], message: REQUIRED });
    });
  }),
  /** Spec keys the form does not show (parameters, selectors, triggers, …), kept unchanged. */
  specRest: z.record(z.string(), z.unknown()),
});
export type PlaybookFormValues = z.infer<typeof playbookFormSchema>;

const TEXT_KEYS = ['title', 'description', 'category', 'icon'] as const;

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function actionType(action: Record<string, unknown>): string {
  return ACTION_TYPES.find((type) => action[type] !== undefined) ?? '';
}

export function newAction(type: string, name = ''): ActionFormValue {
  return { name, type, main: '', rest: { [type]: {} } };
}

export function newPlaybookForm(): PlaybookFormValues {
  return { name: '', namespace: DEFAULT_NAMESPACE, labels: [], title: '', description: '', category: '', icon: '', actions: [newAction('exec', 'run')], specRest: {} };
}

export function documentToForm(doc: ResourceDocument): PlaybookFormValues {
  const spec = doc.spec;
  const actions = Array.isArray(spec.actions) ? spec.actions : [];
  const specRest = Object.fromEntries(Object.entries(spec).filter(([key]) => key !== 'actions' && !isOneOf(TEXT_KEYS, key)));
  const text = (key: string) => textOf(spec[key]);
  return {
    name: doc.name,
    namespace: doc.namespace,
    labels: Object.entries(doc.labels).map(([name, value]) => ({ name, value })),
    title: text('title'),
    description: text('description'),
    category: text('category'),
    icon: text('icon'),
    actions: actions.filter(isRecord).map((action): ActionFormValue => {
      const type = actionType(action);
      const block = isRecord(action[type]) ? action[type] : {};
      const main = MAIN_FIELDS[type];
      const { name, ...rest } = action;
      return { name: typeof name === 'string' ? name : '', type, main: main ? textOf(block[main.key]) : '', rest };
    }),
    specRest,
  };
}

export function formToDocument(values: PlaybookFormValues): ResourceDocument {
  const spec: Record<string, unknown> = {};
  for (const key of TEXT_KEYS) if (values[key].trim() !== '') spec[key] = values[key];
  Object.assign(spec, values.specRest);
  spec.actions = values.actions.map((action) => {
    const main = MAIN_FIELDS[action.type];
    const out: Record<string, unknown> = { name: action.name, ...action.rest };
    if (main) {
      const block = isRecord(action.rest[action.type]) ? action.rest[action.type] : {};
      out[action.type] = { ...(isRecord(block) ? block : {}), [main.key]: action.main };
    }
    return out;
  });
  const labels = Object.fromEntries(values.labels.filter((label) => label.name.trim() !== '').map((label) => [label.name.trim(), label.value]));
  return { name: values.name.trim(), namespace: values.namespace.trim() || DEFAULT_NAMESPACE, labels, spec };
}

export const parsePlaybookYaml = (text: string): ParsedYaml => parseResourceYaml(text, PLAYBOOK_YAML);
export const playbookToYaml = (doc: ResourceDocument): string => resourceToYaml(doc, PLAYBOOK_YAML);

export const playbookCodec: FormCodec<PlaybookFormValues> = { toForm: documentToForm, toDocument: formToDocument, parse: parsePlaybookYaml, toYaml: playbookToYaml };

type FormPath = 'name' | 'namespace' | 'title' | 'description' | 'category' | 'icon' | `actions.${number}.name` | `actions.${number}.main`;

/** The form field of a server problem's path ('spec.actions[0].exec.script' → actions.0.main), if the form has one. */
export function formTargetOf(path: string, values: Pick<PlaybookFormValues, 'actions'>): FormPath | undefined {
  const [first, second, third, fourth, fifth] = parseProblemPath(path);
  if (first === 'name' || first === 'namespace') return first;
  if (first !== 'spec') return undefined;
  if (second === 'title' || second === 'description' || second === 'category' || second === 'icon') return third === undefined ? second : undefined;
  if (second !== 'actions' || typeof third !== 'number') return undefined;
  const action = values.actions[third];
  if (!action) return undefined;
  if (fourth === 'name') return `actions.${third}.name`;
  const main = MAIN_FIELDS[action.type];
  if (fourth === action.type && main && fifth === main.key) return `actions.${third}.main`;
  return undefined;
}
