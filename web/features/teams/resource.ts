import { Users } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';

/**
 * Teams as a generic settings resource (spec §2, §3 Team: name, spec, icon with default 'group'). The
 * list reads teams_summary for the member count; everyone who reads the console may see teams, changing
 * them and their members needs identities (server/postgrest/relations/identity.ts).
 */
export const teamsResource: SettingsResource = {
  table: 'teams',
  listTable: 'teams_summary',
  label: 'Teams',
  singular: 'Team',
  icon: Users,
  feature: 'settings.teams',
  access: { read: 'database', write: 'identities' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'members', header: 'Members' },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'created_at', header: 'Created', kind: 'date' },
    { key: 'updated_at', header: 'Updated', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true, placeholder: 'e.g. platform' },
    { name: 'icon', label: 'Icon', defaultValue: 'group', placeholder: 'group' },
    { name: 'spec', label: 'Spec', kind: 'code', placeholder: 'key: value' },
  ],
  tabs: [
    { id: 'members', label: 'Members', load: () => import('./members-tab') },
    { id: 'notifications', label: 'Notifications', load: () => import('./notifications-tab') },
  ],
};
