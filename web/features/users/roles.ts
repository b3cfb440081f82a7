import { ROLES, type Role } from '@common/rbac';

/** Display names of spec §6 roles. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
  guest: 'Guest',
  commander: 'Commander',
  responder: 'Responder',
};

/** What each role may do, as spec §6 says, to choose a role knowingly. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Reads and changes everything, including users, connections and permissions.',
  editor: 'Reads and changes everything except users, connections and permissions.',
  commander: 'Reads everything except users, connections and permissions; works on incidents.',
  responder: 'Reads everything except users, connections and permissions; works on incidents.',
  viewer: 'Reads everything except users, connections and permissions; changes nothing.',
  guest: 'Reads everything except users, connections and permissions; changes nothing.',
};

export const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
