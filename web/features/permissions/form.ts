import { GLOBAL_OBJECT_NAMES, PERMISSION_ACTIONS, PERMISSION_OBJECTS, SUBJECT_TYPES, type SubjectType } from '@common/rbac';
import { z } from 'zod';
import type { Permission } from './schema';

export const REQUIRED = 'This field is required';
export const NOT_AN_ID = 'Must be an ID (a UUID)';
export const PLAYBOOK_ACTION_ONLY = 'Playbook actions apply to playbooks only';
export const BAD_DATE = 'Must be a date and time';

export const SUBJECT_KINDS: readonly { value: SubjectType; label: string }[] = [
  { value: 'person', label: 'Person' },
  { value: 'team', label: 'Team' },
  { value: 'group', label: 'Group' },
  { value: 'notification', label: 'Notification' },
  { value: 'playbook', label: 'Playbook' },
];

/** Spec §4 resource selector kinds. */
export const RESOURCE_KINDS = ['catalog', 'component', 'connection', 'playbook', 'global'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
export type SelectorKind = Exclude<ResourceKind, 'global'>;
export const RESOURCE_KIND_LABELS: Record<ResourceKind, string> = {
  catalog: 'Catalog',
  component: 'Component',
  connection: 'Connection',
  playbook: 'Playbook',
  global: 'Global',
};

/** The column that names one resource of each kind. */
export const RESOURCE_COLUMNS = {
  catalog: 'config_id',
  component: 'component_id',
  connection: 'connection_id',
  playbook: 'playbook_id',
} as const satisfies Record<SelectorKind, keyof Permission>;

/**
 * The global object a tag or agent selector narrows, per kind: the server matches a selector row by its
 * object (server/platform/auth/decide.ts), so a row without an id carries the kind's object.
 */
export const SELECTOR_OBJECTS: Record<SelectorKind, string> = {
  catalog: 'catalog',
  component: 'topology',
  connection: 'connection',
  playbook: 'playbooks',
};

/** Global objects first (spec §6 areas), then the RBAC resources a row may also name. */
export const OBJECT_OPTIONS: readonly string[] = [...GLOBAL_OBJECT_NAMES, ...PERMISSION_OBJECTS.filter((object) => !GLOBAL_OBJECT_NAMES.some((name) => name === object))];

const PLAYBOOK_ACTIONS: readonly string[] = ['playbook:run', 'playbook:approve', 'playbook:*'];
const PLAYBOOK_OBJECTS: readonly string[] = ['playbooks', 'playbook_runs'];

const uuid = z.uuid();
const isId = (value: string) => uuid.safeParse(value).success;

const formShape = z.object({
  subjectKind: z.enum(SUBJECT_TYPES),
  subject: z.string(),
  resourceKind: z.enum(RESOURCE_KINDS),
  object: z.string(),
  resourceId: z.string(),
  tags: z.array(z.object({ key: z.string(), value: z.string() })),
  agents: z.array(z.object({ name: z.string() })),
  action: z.string(),
  deny: z.boolean(),
  description: z.string(),
  /** A datetime-local value, or empty for no end. */
  until: z.string(),
});
export type PermissionFormValues = z.infer<typeof formShape>;

/** Playbook actions (run, approve) are offered where the resource is a playbook. */
export function isPlaybookContext(values: Pick<PermissionFormValues, 'resourceKind' | 'object'>): boolean {
  return values.resourceKind === 'playbook' || (values.resourceKind === 'global' && PLAYBOOK_OBJECTS.includes(values.object));
}

export function actionOptions(values: Pick<PermissionFormValues, 'resourceKind' | 'object' | 'action'>): string[] {
  const offered = PERMISSION_ACTIONS.filter((action) => isPlaybookContext(values) || !PLAYBOOK_ACTIONS.includes(action));
  // A stored value stays visible (and is flagged by validation) rather than silently vanishing.
  return offered.some((action) => action === values.action) || values.action === '' ? offered : [...offered, values.action];
}

function hasSelector(values: Pick<PermissionFormValues, 'tags' | 'agents'>): boolean {
  return values.tags.some((tag) => tag.key.trim() !== '') || values.agents.some((agent) => agent.name.trim() !== '');
}

/** Spec §5: the subject is required, and the resource is required for selectors. */
export const permissionFormSchema = formShape.superRefine((values, ctx) => {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const subject = values.subject.trim();
  if (subject === '') issue(['subject'], REQUIRED);
  else if (values.subjectKind !== 'group' && !isId(subject)) issue(['subject'], NOT_AN_ID);

  if (values.resourceKind === 'global') {
    if (values.object === '') issue(['object'], REQUIRED);
  } else {
    const id = values.resourceId.trim();
    if (id === '' && !hasSelector(values)) issue(['resourceId'], REQUIRED);
    else if (id !== '' && !isId(id)) issue(['resourceId'], NOT_AN_ID);
    values.tags.forEach((tag, index) => {
      if (tag.key.trim() === '' && tag.value.trim() !== '') issue(['tags', index, 'key'], REQUIRED);
    });
  }

  if (values.action === '') issue(['action'], REQUIRED);
  else if (PLAYBOOK_ACTIONS.includes(values.action) && !isPlaybookContext(values)) issue(['action'], PLAYBOOK_ACTION_ONLY);
  if (values.until !== '' && Number.isNaN(new Date(values.until).getTime())) issue(['until'], BAD_DATE);
});

export const EMPTY_FORM: PermissionFormValues = {
  subjectKind: 'person',
  subject: '',
  resourceKind: 'global',
  object: '',
  resourceId: '',
  tags: [],
  agents: [],
  action: 'read',
  deny: false,
  description: '',
  until: '',
};

/** Spec §4: changing the subject kind clears the subject it named. */
export function subjectKindPatch(kind: SubjectType): Pick<PermissionFormValues, 'subjectKind' | 'subject'> {
  return { subjectKind: kind, subject: '' };
}

/** Spec §4: changing the resource kind clears the object and id; a Global row has no selector. */
export function resourceKindPatch(kind: ResourceKind, current: Pick<PermissionFormValues, 'tags' | 'agents'>): Pick<PermissionFormValues, 'resourceKind' | 'object' | 'resourceId' | 'tags' | 'agents'> {
  return { resourceKind: kind, object: '', resourceId: '', tags: kind === 'global' ? [] : current.tags, agents: kind === 'global' ? [] : current.agents };
}

/** An instant as a datetime-local value in the browser's time zone. */
export function toLocalInput(value: string | null): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const SELECTOR_KINDS: readonly SelectorKind[] = ['catalog', 'component', 'connection', 'playbook'];

/** The kind a row is about: the id it names, else the object its selector narrows, else Global. */
export function resourceKindOf(row: Permission): ResourceKind {
  const named = SELECTOR_KINDS.find((kind) => row[RESOURCE_COLUMNS[kind]] !== null);
  if (named) return named;
  const selector = Object.keys(row.tags ?? {}).length > 0 || (row.agents ?? []).length > 0;
  const byObject = SELECTOR_KINDS.find((kind) => SELECTOR_OBJECTS[kind] === row.object);
  return selector && byObject ? byObject : 'global';
}

/** The form of an existing row. */
export function formOf(row: Permission): PermissionFormValues {
  const subjectKind = SUBJECT_TYPES.find((kind) => kind === row.subject_type) ?? 'person';
  const subject = subjectKind === 'person' ? (row.person_id ?? row.subject) : subjectKind === 'team' ? (row.team_id ?? row.subject) : row.subject;
  const resourceKind = resourceKindOf(row);
  return {
    subjectKind,
    subject,
    resourceKind,
    // A row that names a health check by id (canary_id) has no kind here: the editor asks for one again
    // rather than widening it to every health check.
    object: resourceKind === 'global' ? (row.object ?? '') : '',
    resourceId: resourceKind === 'global' ? '' : (row[RESOURCE_COLUMNS[resourceKind]] ?? ''),
    tags: Object.entries(row.tags ?? {}).map(([key, value]) => ({ key, value })),
    agents: (row.agents ?? []).map((name) => ({ name })),
    action: row.action,
    deny: row.deny,
    description: row.description ?? '',
    until: toLocalInput(row.until),
  };
}

/** The columns a save writes: every resource column, so a changed kind leaves nothing of the old one. */
export function payloadOf(values: PermissionFormValues) {
  const subject = values.subject.trim();
  const id = values.resourceId.trim();
  const selectorKind = values.resourceKind === 'global' ? undefined : values.resourceKind;
  const tags = values.tags.filter((tag) => tag.key.trim() !== '');
  const agents = values.agents.map((agent) => agent.name.trim()).filter(Boolean);
  const columnValue = (kind: SelectorKind) => (selectorKind === kind && id !== '' ? id : null);
  return {
    subject_type: values.subjectKind,
    subject,
    notification_id: values.subjectKind === 'notification' ? subject : null,
    object: selectorKind ? (id === '' ? SELECTOR_OBJECTS[selectorKind] : null) : values.object,
    config_id: columnValue('catalog'),
    component_id: columnValue('component'),
    connection_id: columnValue('connection'),
    playbook_id: columnValue('playbook'),
    canary_id: null,
    tags: selectorKind && tags.length > 0 ? Object.fromEntries(tags.map((tag) => [tag.key.trim(), tag.value.trim()])) : null,
    agents: selectorKind && agents.length > 0 ? agents : null,
    action: values.action,
    deny: values.deny,
    description: values.description.trim() || null,
    until: values.until === '' ? null : new Date(values.until).toISOString(),
  };
}
export type PermissionPayload = ReturnType<typeof payloadOf>;
