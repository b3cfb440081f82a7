import { Bell, Clock, Link2, Lock, Play, Plug, Shield, User, UserX, Users } from 'lucide-react';
import { waitingText } from '@common/waiting';
import type { ComponentType } from 'react';
import { Badge } from '@web/ui/primitives/badge';
import { RESOURCE_COLUMNS, RESOURCE_KIND_LABELS, resourceKindOf } from './form';
import { isEditable, type Permission } from './schema';

const SUBJECT_ICONS: Record<string, ComponentType<{ className?: string }>> = {
  person: User,
  team: Users,
  group: Shield,
  notification: Bell,
  playbook: Play,
  plugin: Plug,
  none: UserX,
};

const SUBJECT_LABELS: Record<string, string> = {
  person: 'Person',
  team: 'Team',
  group: 'Role',
  notification: 'Notification',
  playbook: 'Playbook',
  plugin: 'Plugin',
  canary: 'Canary',
  scraper: 'Scraper',
  topology: 'Topology',
  none: 'No subject',
};

/** The subject's name: the person, team or role; notifications and playbooks by id until they have pages. */
export function subjectName(permission: Permission): string {
  if (permission.subject_type === 'person') return permission.person?.name ?? permission.subject;
  if (permission.subject_type === 'team') return permission.team?.name ?? permission.subject;
  return permission.group ?? permission.subject;
}

export function SubjectCell({ permission }: { permission: Permission }) {
  const Icon = SUBJECT_ICONS[permission.subject_type] ?? User;
  const label = SUBJECT_LABELS[permission.subject_type] ?? permission.subject_type;
  return (
    <span className="flex items-center gap-2">
      <Icon className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
      <span className="flex min-w-0 flex-col">
        <span className="truncate text-slate-900">{subjectName(permission)}</span>
        <span className="text-xs text-slate-500">{label}</span>
        {permission.waiting_for.length > 0 ? (
          <span title={`It grants nothing through ${waitingText(permission.waiting_for)} until it exists; then it applies without re-applying.`} className="mt-0.5 inline-flex">
            <Badge tone="warning">
              <Clock className="size-3" aria-hidden="true" />
              Waiting for {waitingText(permission.waiting_for)}
            </Badge>
          </span>
        ) : null}
        {permission.error ? <span className="text-xs text-red-700">{permission.error}</span> : null}
      </span>
    </span>
  );
}

function Selector({ permission }: { permission: Permission }) {
  const tags = Object.entries(permission.tags ?? {});
  const agents = permission.agents ?? [];
  if (tags.length === 0 && agents.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map(([key, value]) => (
        <Badge key={`tag-${key}`}>
          {key}={value}
        </Badge>
      ))}
      {agents.map((agent) => (
        <Badge key={`agent-${agent}`} tone="info">
          agent: {agent}
        </Badge>
      ))}
    </span>
  );
}

/** What the row is about: a global object, one resource by id, or a selector (tags, agents). */
export function ResourceCell({ permission }: { permission: Permission }) {
  const kind = resourceKindOf(permission);
  const id = kind === 'global' ? permission.canary_id : permission[RESOURCE_COLUMNS[kind]];
  const hasSelector = Object.keys(permission.tags ?? {}).length > 0 || (permission.agents ?? []).length > 0;
  const label = permission.canary_id && kind === 'global' ? 'Health check' : kind !== 'global' && !id && hasSelector ? `${RESOURCE_KIND_LABELS[kind]} selector` : RESOURCE_KIND_LABELS[kind];
  return (
    <span className="flex flex-col gap-0.5">
      {id ? <span className="font-mono text-xs text-slate-900">{id}</span> : kind === 'global' && permission.object ? <span className="text-slate-900">{permission.object}</span> : null}
      {permission.object_selector !== null ? <span className="font-mono text-xs text-slate-700">{JSON.stringify(permission.object_selector)}</span> : null}
      <Selector permission={permission} />
      <span className="text-xs text-slate-500">{label}</span>
    </span>
  );
}

export function EffectBadge({ deny }: { deny: boolean }) {
  return deny ? <Badge tone="danger">Deny</Badge> : <Badge tone="success">Allow</Badge>;
}

/** Why a row cannot be changed here (spec §4: rows from a CRD or any other source are read-only). */
export function readOnlyReason(permission: Permission): string | undefined {
  if (isEditable(permission)) return undefined;
  return `This permission comes from ${permission.source}${permission.namespace && permission.name ? ` (${permission.namespace}/${permission.name})` : ''}, so it is read-only here: change it where it is defined.`;
}

/** UI rows read 'UI'; the others are a linked badge that says where they come from and why they are locked. */
export function SourceCell({ permission }: { permission: Permission }) {
  const reason = readOnlyReason(permission);
  if (!reason) return <span className="text-slate-600">{permission.source}</span>;
  return (
    <span title={reason} className="inline-flex items-center gap-1">
      <Badge tone="info">
        <Link2 className="size-3" aria-hidden="true" />
        {permission.source}
      </Badge>
      <Lock className="size-3.5 text-slate-400" aria-hidden="true" />
      <span className="sr-only">read-only</span>
    </span>
  );
}
