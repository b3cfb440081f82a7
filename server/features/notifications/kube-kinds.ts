import { KUBE_GROUP, kubeRv, kubeSoftDelete, kubeSpecRows, kubeWhen, type KubeKind } from '../../platform/kube-kinds';
import { notificationKind } from './rules';
import { notificationSilenceKind } from './silences';

/** Notification as kubectl reads and writes it (docs/KUBECTL.md). */
export const notificationKubeKind: KubeKind = {
  kind: 'Notification', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'notifications', singular: 'notification', shortNames: ['notif'], namespaced: true, rows: kubeSpecRows('notifications'), rbac: 'notifications',
  resourceKind: notificationKind,
  remove: kubeSoftDelete('notifications'),
};

/** NotificationSilence as kubectl reads and writes it (docs/KUBECTL.md). */
export const notificationSilenceKubeKind: KubeKind = {
  kind: 'NotificationSilence', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'notificationsilences', singular: 'notificationsilence', shortNames: ['silence'], namespaced: true,
  // Console silences without a name are not resources kubectl can address: they are left out.
  rows: `SELECT id, name, namespace, '{}'::jsonb AS labels,
           coalesce(spec, jsonb_strip_nulls(jsonb_build_object('description', description, 'from', "from", 'until', until, 'recursive', recursive, 'config_id', config_id,
             'check_id', check_id, 'canary_id', canary_id, 'component_id', component_id, 'filter', filter, 'selectors', selectors))) AS spec,
           source, created_at, ${kubeRv()},
           jsonb_build_object('from', "from", 'until', until, 'active', "from" <= now() AND (until IS NULL OR until > now())) AS extra
         FROM notification_silences WHERE deleted_at IS NULL AND name IS NOT NULL`,
  rbac: 'notifications',
  resourceKind: notificationSilenceKind,
  columns: [
    { name: 'From', description: 'when the silence starts', cell: (row) => kubeWhen(row.extra?.from) },
    { name: 'Until', description: 'when it ends (<none>: never)', cell: (row) => kubeWhen(row.extra?.until) },
    { name: 'Active', description: 'silencing now', cell: (row) => String(row.extra?.active === true) },
  ],
  remove: kubeSoftDelete('notification_silences'),
};
